from django.core.management.base import BaseCommand

from tournaments.services.demo import DEMO_SERIES_SLUG, demo_create


class Command(BaseCommand):
    help = "Create the demo tournament (idempotent): club, 22 players, organiser login, Herbstrennen, and a finished season of three evenings."

    def handle(self, *args, **options) -> None:
        tournament, username, password = demo_create()
        count = tournament.registrations.count()
        self.stdout.write(self.style.SUCCESS(f"Demo ready: {tournament.name} with {count} registrations."))
        self.stdout.write(f"Organiser login: {username} / {password}  (http://127.0.0.1:8000/admin/)")
        self.stdout.write(f"Season (best 2 of 3): http://127.0.0.1:8000/serie/{DEMO_SERIES_SLUG}/")
