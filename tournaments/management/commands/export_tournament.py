import json

from django.core.management.base import BaseCommand, CommandError

from tournaments.archive import archive_build
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write a tournament as an archive document (docs/archive.md)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--output", "-o", help="file to write; standard output without it")
        parser.add_argument(
            "--with-keys",
            action="store_true",
            help="include the tables' entry keys and the players' personal keys (they open the tournament's "
            "pages: only to move a running tournament, keeping printed QR codes valid)",
        )

    def handle(self, *args, slug: str, output: str | None, with_keys: bool = False, **options) -> None:
        tournament = Tournament.objects.filter(slug=slug).select_related("club").first()
        if tournament is None:
            raise CommandError(f"slug: no tournament {slug!r}")
        text = json.dumps(archive_build(tournament, with_keys=with_keys), ensure_ascii=False, indent=1) + "\n"
        if output:
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(text)
            self.stderr.write(f"Wrote {output}")
        else:
            self.stdout.write(text, ending="")
