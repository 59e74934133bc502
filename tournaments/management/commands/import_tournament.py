import sys

from django.core.management.base import BaseCommand, CommandError

from tournaments.archive import ArchiveError, archive_import, archive_parse
from tournaments.models import Club


class Command(BaseCommand):
    help = "Create a tournament from an archive document; refuses an existing slug."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="archive file, or - for standard input")
        parser.add_argument("--slug", help="import under this slug instead of the archive's")
        parser.add_argument(
            "--club",
            help="import into this existing club (its name) instead of the archive's; "
            "players are matched and made in that club's database only",
        )

    def handle(self, *args, file: str, slug: str | None, club: str | None = None, **options) -> None:
        into = None
        if club is not None:
            into = Club.objects.filter(name__iexact=club.strip()).first()
            if into is None:
                raise CommandError(f"club: there is no club {club!r}; nothing was imported")
        try:
            if file == "-":
                content = sys.stdin.buffer.read()
            else:
                with open(file, "rb") as fh:
                    content = fh.read()
        except OSError as err:
            raise CommandError(f"file: cannot read {file}: {err.strerror}") from err
        try:
            tournament = archive_import(doc=archive_parse(content), slug=slug, club=into)
        except ArchiveError as err:
            raise CommandError(f"{err}; nothing was imported") from err
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {tournament.name} as {tournament.slug}: {tournament.registrations.count()} players, "
                f"{tournament.rounds.count()} rounds."
            )
        )
