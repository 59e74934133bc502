import sys
import json

from django.core.management.base import BaseCommand, CommandError

from tournaments.archive import ArchiveError, archive_import
from tournaments.models import Club


class Command(BaseCommand):
    help = "Create a tournament from an archive document; refuses an existing slug."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="archive file, or - for standard input")
        parser.add_argument("--slug", help="import under this slug instead of the archive's")
        parser.add_argument("--club", help="import into this existing club (its name) instead of the archive's; "
                                           "players are matched and made in that club's database only")

    def handle(self, *args, file: str, slug: str | None, club: str | None = None, **options) -> None:
        into = None
        if club is not None:
            into = Club.objects.filter(name__iexact=club.strip()).first()
            if into is None:
                raise CommandError(f"club: there is no club {club!r}; nothing was imported")
        try:
            if file == "-":
                doc = json.load(sys.stdin)
            else:
                with open(file, encoding="utf-8") as fh:
                    doc = json.load(fh)
        except OSError as err:
            raise CommandError(f"file: cannot read {file}: {err.strerror}") from err
        except json.JSONDecodeError as err:
            raise CommandError(f"file: not JSON (line {err.lineno}, column {err.colno}: {err.msg})") from err
        try:
            tournament = archive_import(doc=doc, slug=slug, club=into)
        except ArchiveError as err:
            raise CommandError(f"{err}; nothing was imported") from err
        self.stdout.write(self.style.SUCCESS(
            f"Imported {tournament.name} as {tournament.slug}: {tournament.registrations.count()} players, "
            f"{tournament.rounds.count()} rounds."
        ))
