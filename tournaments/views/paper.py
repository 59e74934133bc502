"""The organiser's side of the tables: every table's link and QR code with its progress, and paper mode.

Paper mode is for a table without a tablet: the organiser types the sheet's games into the same form
on a laptop (each through hand_record as an organiser), or only each player's round total.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from .. import access
from ..forms_entry import PaperTotalsForm
from ..forms_tables import action_forms
from ..links import table_link_key
from ..models import Round, Table, Tournament
from ..qr import qr_svg
from ..selectors.desk import tables_overview
from ..selectors.entry import rounds_with_tables, table_of_tournament
from ..services import hands as hand_services
from ..services.errors import ServiceError
from . import entry_base as entry

TEMPLATE = "entry/paper.html"


def _tournament(request: HttpRequest, slug: str) -> Tournament:
    return access.tournament_for(request.user, slug, access.ORGANISER)


def _table(request: HttpRequest, slug: str, table_id: int) -> Table:
    table = table_of_tournament(_tournament(request, slug), table_id)
    if table is None:
        raise Http404("No such table")
    return table


def _totals_form(table: Table, data=None) -> PaperTotalsForm:
    seats = [(s.number, s.registration.player.name) for s in table.seats.select_related("registration__player")]
    initial = {f"seat_{k}": v for k, v in (table.paper_totals or {}).items()}
    return PaperTotalsForm(data, seats=seats, initial=initial)


def paper_mode(request: HttpRequest, table: Table, totals_form: PaperTotalsForm | None = None) -> entry.EntryMode:
    slug, pk = table.round.tournament.slug, table.pk
    page = reverse("tournaments:paper", args=[slug, pk])
    return entry.EntryMode(
        urls=entry.EntryUrls(
            page=page,
            record=reverse("tournaments:paper_record", args=[slug, pk]),
            preview=reverse("tournaments:paper_preview", args=[slug, pk]),
            game_prefix=f"{page}spiel/",
            storage_key=f"skr:paper:{pk}",
        ),
        organiser=True,
        user=request.user,
        extra={
            "totals_form": totals_form or _totals_form(table),
            "totals_url": reverse("tournaments:paper_totals", args=[slug, pk]),
            "tables_url": reverse("tournaments:entry_tables", args=[slug]),
            "tablet_url": reverse("tournaments:entry_table", args=[table.entry_key]),
            **action_forms(table),
        },
    )


@login_required
@require_GET
def tables(request: HttpRequest, slug: str) -> HttpResponse:
    """Every table of a round: its private link and QR code, games entered and confirmations."""
    tournament = _tournament(request, slug)
    rounds = rounds_with_tables(tournament)
    chosen = request.GET.get("round", "")
    rnd = next((r for r in rounds if str(r.number) == chosen), rounds[-1] if rounds else None)
    overview = tables_overview(rnd) if rnd else []
    rows = [
        {
            "item": item,
            "link": request.build_absolute_uri(reverse("tournaments:entry_table", args=[item.table.entry_key])),
            "qr": reverse("tournaments:entry_table_qr", args=[slug, item.table.pk]),
            "paper": reverse("tournaments:paper", args=[slug, item.table.pk]),
            # the table card's link for the whole evening (this number in whatever round is current)
            "evening": request.build_absolute_uri(
                reverse(
                    "tournaments:table_link",
                    args=[table_link_key(tournament.pk, item.table.number, tournament.table_cards_generation)],
                )
            ),
        }
        for item in overview
    ]
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "round": rnd,
        "rows": rows,
        "nav": "tables",
        "drawn_waiting": tournament.rounds.filter(status=Round.Status.DRAWN).exists(),
        "complete": sum(1 for item in overview if item.progress.complete),
    }
    return render(request, "entry/tables.html", context)


@login_required
@require_GET
def table_qr(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """The QR code of a table's private link, as SVG (segno, as in the PDFs)."""
    table = _table(request, slug, table_id)
    link = request.build_absolute_uri(reverse("tournaments:entry_table", args=[table.entry_key]))
    response = HttpResponse(qr_svg(link), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=3600"
    return response


class PaperEntry(LoginRequiredMixin, entry.EntryView):
    """The entry page's actions in paper mode: an organiser of the tournament types a table's paper sheet."""

    template_name = TEMPLATE
    closed_read_only = False  # the organiser corrects a closed round's games too (with a reason)

    def get_table(self) -> Table:
        return _table(self.request, self.kwargs["slug"], self.kwargs["table_id"])

    def get_mode(self, table: Table) -> entry.EntryMode:
        return paper_mode(self.request, table)


@login_required
@require_POST
def totals(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """Only each player's round total from the paper sheet (refused unless it sums to 0)."""
    table = _table(request, slug, table_id)
    form = _totals_form(table, request.POST)
    if form.is_valid():
        try:
            hand_services.table_paper_totals(
                table=table, totals=form.totals(), by=request.user, reason=form.cleaned_data["reason"]
            )
        except ServiceError as err:
            field = err.field.replace("totals.", "seat_")
            form.add_error(field if field in form.fields else None, err.message)
        else:
            messages.success(request, _("Round totals of table %(n)d saved.") % {"n": table.number})
            return redirect("tournaments:paper", slug, table.pk)
    return entry.render_page(request, table, paper_mode(request, table, form), template=TEMPLATE, status=400)
