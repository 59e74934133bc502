from django.core.management.base import BaseCommand, CommandError

from tournaments.management.pdf_output import pdf_write
from tournaments.models import Tournament
from tournaments.params import parse_int
from tournaments.printables import TOURNAMENT_DOCUMENTS
from tournaments.selectors.printing import MAX_CERTIFICATE_PLACES

DOCUMENTS = tuple(TOURNAMENT_DOCUMENTS)  # standings, prizes, cash, certificates


class Command(BaseCommand):
    help = (
        "Write a document of the tournament's end as PDF: the standings (overall and per round), the prize "
        "list, the cash list or the certificates."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug", help="the tournament's short name")
        parser.add_argument("--output", "-o", required=True, help="the PDF file to write")
        parser.add_argument(
            "--document", "-d", default="standings", help=f"which document: {', '.join(DOCUMENTS)} (default standings)"
        )
        parser.add_argument("--round", help="standings: only this round")
        parser.add_argument(
            "--places", help="certificates: the first N places (default: the places with a prize, or the first three)"
        )

    def handle(
        self, *args, slug: str, output: str, document: str, round: str | None, places: str | None, **options
    ) -> None:
        tournament = Tournament.objects.filter(slug=slug).select_related("club").first()
        if tournament is None:
            raise CommandError(f"slug: no tournament {slug!r}")
        if document not in DOCUMENTS:
            raise CommandError(f"document: one of {', '.join(DOCUMENTS)} is needed, not {document!r}")
        number = None
        if round is not None:
            if document != "standings":
                raise CommandError("round: only the standings can be printed for one round")
            number = parse_int(round, min_value=1)
            if number is None:
                raise CommandError(f"round: a round number 1, 2, ... is needed, not {round!r}")
            if not tournament.rounds.filter(number=number).exists():
                drawn = tournament.rounds.count()
                raise CommandError(f"round: {tournament.slug} has no round {number} ({drawn} drawn)")
        count = None
        if places is not None:
            if document != "certificates":
                raise CommandError("places: only certificates are printed for a number of places")
            count = parse_int(places, min_value=1, max_value=MAX_CERTIFICATE_PLACES)
            if count is None:
                raise CommandError(f"places: a number from 1 to {MAX_CERTIFICATE_PLACES} is needed, not {places!r}")

        pdf = pdf_write(output, lambda: TOURNAMENT_DOCUMENTS[document].render(tournament, round=number, places=count))
        self.stderr.write(f"Wrote {output} ({len(pdf) // 1024} KB, {document} of {tournament.slug})")
