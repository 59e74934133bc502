"""The organiser's print page of a round: the print pack (built in the background) and single documents."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from .. import selectors_print
from ..access import DESK, tournament_for
from ..models import Round, Table
from ..pdf.score_sheet import render_score_sheets
from ..pdf.seat_list import render_seat_list
from ..pdf.table_cards import render_table_cards
from ..services.printing import round_print_pack_request, round_print_pack_state

# The round's single documents, as named in their URLs (o/<slug>/runde/<n>/druck/<doc>.pdf).
DOCUMENTS = ("spielliste-leer", "spielliste", "sitzplan", "tischkarten")
TABLE_DOCUMENTS = ("spielliste-leer", "spielliste")


def _round(request: HttpRequest, slug: str, number: int) -> Round:
    tournament = tournament_for(request.user, slug, DESK)
    return get_object_or_404(Round.objects.select_related("tournament"), tournament=tournament, number=number)


def _url_base(request: HttpRequest) -> str:
    return request.build_absolute_uri("/")


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"  # the QR codes hold the tables' private entry links
    return response


def _context(rnd: Round, state) -> dict:
    return {"tournament": rnd.tournament, "round": rnd, "pack": state, "documents": DOCUMENTS,
            "tables": rnd.tables.count()}


@login_required
@require_http_methods(["GET", "POST"])
def print_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """GET: the page; POST ("Build print pack"): enqueue the pack, then show its state."""
    rnd = _round(request, slug, number)
    if request.method == "POST":
        state = round_print_pack_request(round=rnd, url_base=_url_base(request))
        if request.htmx:
            return render(request, "printing/_pack.html", _context(rnd, state))
        return redirect("tournaments:print_round", slug=slug, number=number)
    state = round_print_pack_state(round=rnd, url_base=_url_base(request))
    return render(request, "printing/round.html", _context(rnd, state))


@login_required
@require_GET
def print_status(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The pack's state as a fragment (htmx polls it every second while the pack is being built)."""
    rnd = _round(request, slug, number)
    state = round_print_pack_state(round=rnd, url_base=_url_base(request))
    return render(request, "printing/_pack.html", _context(rnd, state))


@login_required
@require_GET
def print_pack(request: HttpRequest, slug: str, number: int) -> FileResponse:
    rnd = _round(request, slug, number)
    state = round_print_pack_state(round=rnd, url_base=_url_base(request))
    if state.path is None:
        raise Http404("The print pack is not ready.")
    response = FileResponse(state.path.open("rb"), content_type="application/pdf", as_attachment=True,
                            filename=f"druckpaket-{slug}-runde-{number}.pdf")
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_GET
def print_document(request: HttpRequest, slug: str, number: int, doc: str) -> HttpResponse:
    """One document of the whole round, rendered on request."""
    if doc not in DOCUMENTS:
        raise Http404("No such document.")
    rnd = _round(request, slug, number)
    url_base = _url_base(request)
    if doc == "sitzplan":
        content = render_seat_list(selectors_print.seat_list_data(rnd))
    elif doc == "tischkarten":
        content = render_table_cards(selectors_print.table_cards_data(rnd, url_base=url_base))
    else:
        sheets = selectors_print.score_sheets_data(rnd, filled=doc == "spielliste", url_base=url_base)
        content = render_score_sheets(sheets)
    return _pdf(content, f"{doc}-{slug}-runde-{number}.pdf")


@login_required
@require_GET
def print_table_pick(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The table form of the print page: ?table=7&doc=spielliste leads to that table's sheet."""
    rnd = _round(request, slug, number)
    doc = request.GET.get("doc", "spielliste")
    try:
        table = int(request.GET.get("table", ""))
    except ValueError:
        table = 0
    if doc not in TABLE_DOCUMENTS or not rnd.tables.filter(number=table).exists():
        state = round_print_pack_state(round=rnd, url_base=_url_base(request))
        context = _context(rnd, state) | {"table_error": _("Round %(round)d has no table %(table)s.") % {
            "round": rnd.number, "table": request.GET.get("table", "") or "?"}}
        return render(request, "printing/round.html", context, status=400)
    return redirect(reverse("tournaments:print_table_document", kwargs={
        "slug": slug, "number": number, "table": table, "doc": doc}))


@login_required
@require_GET
def print_table_document(request: HttpRequest, slug: str, number: int, table: int, doc: str) -> HttpResponse:
    """One table's score sheet, as entered (spielliste) or blank (spielliste-leer)."""
    if doc not in TABLE_DOCUMENTS:
        raise Http404("No such document.")
    rnd = _round(request, slug, number)
    table_obj = get_object_or_404(Table, round=rnd, number=table)
    sheet = selectors_print.score_sheet_data(table_obj, filled=doc == "spielliste", url_base=_url_base(request))
    return _pdf(render_score_sheets([sheet]), f"{doc}-{slug}-runde-{number}-tisch-{table}.pdf")
