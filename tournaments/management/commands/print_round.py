from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError

from tournaments.management.pdf_output import pdf_write
from tournaments.models import Round, Tournament
from tournaments.params import parse_int
from tournaments.printables import PRINTABLES
from tournaments.selectors.printing import DEFAULT_URL_BASE


class Command(BaseCommand):
    help = "Write the print pack of a round (seat lists, table cards, score sheets) as one PDF."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug", help="the tournament's short name")
        parser.add_argument("round", help="the round's number")
        parser.add_argument("--output", "-o", required=True, help="the PDF file to write")
        parser.add_argument("--blank", action="store_true", help="blank score sheets (to play on paper)")
        parser.add_argument(
            "--base-url",
            default=DEFAULT_URL_BASE,
            help=f"the site's address for the QR codes' entry links (default {DEFAULT_URL_BASE})",
        )

    def handle(self, *args, slug: str, round: str, output: str, blank: bool, base_url: str, **options) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"slug: no tournament {slug!r}")
        number = parse_int(round, min_value=1)
        if number is None:
            raise CommandError(f"round: a round number 1, 2, ... is needed, not {round!r}")
        rnd = Round.objects.filter(tournament=tournament, number=number).select_related("tournament").first()
        if rnd is None:
            drawn = tournament.rounds.count()
            raise CommandError(f"round: {tournament.slug} has no round {round} ({drawn} drawn)")
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise CommandError(f"base-url: an address like http://127.0.0.1:8000 is needed, not {base_url!r}")
        pdf = pdf_write(output, lambda: PRINTABLES["pack"].render(rnd, url_base=base_url, blank=blank))
        self.stderr.write(f"Wrote {output} ({len(pdf) // 1024} KB, round {rnd.number}, {rnd.tables.count()} tables)")
