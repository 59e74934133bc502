from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tournaments.services.demo import (
    DEMO_QUALIFIER_SLUG,
    DEMO_SERIES_SLUG,
    DEMO_VENUE_HELPER,
    DEMO_VENUES_SLUG,
    demo_create,
)


class Command(BaseCommand):
    help = "Create the demo tournament (idempotent): club, 22 players, organiser login, Herbstrennen, and a finished season of three evenings."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--allow-without-debug",
            action="store_true",
            help="Create the demo even with DEBUG off: its organiser login (a superuser) has a published password.",
        )

    def handle(self, *args, allow_without_debug: bool = False, **options) -> None:
        # The demo's superuser has a password printed in the README: on a server reachable by others
        # (DEBUG off) it is a way in for everyone.
        if not settings.DEBUG and not allow_without_debug:
            raise CommandError(
                "DEBUG is off: this looks like a production server, and the demo's organiser login "
                "has a published password. Run the demo with DJANGO_DEBUG=true on your own machine, "
                "or pass --allow-without-debug if you really mean it."
            )
        tournament, username, password = demo_create()
        count = tournament.registrations.count()
        self.stdout.write(self.style.SUCCESS(f"Demo ready: {tournament.name} with {count} registrations."))
        self.stdout.write(f"Organiser login: {username} / {password}  (http://127.0.0.1:8000/admin/)")
        self.stdout.write(f"Season (best 2 of 3): http://127.0.0.1:8000/serie/{DEMO_SERIES_SLUG}/")
        self.stdout.write(
            f"An evening in three inns: http://127.0.0.1:8000/o/{DEMO_VENUES_SLUG}/orte/ "
            f"(the first inn's desk: {DEMO_VENUE_HELPER} / {password})"
        )
        self.stdout.write(
            f"A qualification into a final: http://127.0.0.1:8000/serie/{DEMO_QUALIFIER_SLUG}/qualifikation/"
        )
