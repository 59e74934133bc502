"""The organiser's printed documents: a round's print page (the print pack, built in the background, and
single documents), and the documents of the tournament's end (standings, prize list, cash list, certificates)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ..access import DESK, ORGANISER, has_role, tournament_for
from ..models import Round, Table, Tournament
from ..params import parse_int
from ..printables import PRINTABLES, ROUND_DOCUMENTS, TABLE_DOCUMENTS
from ..selectors import printing as print_selectors
from ..services.printing import round_print_pack_request, round_print_pack_state
from ..services.tournament import table_cards_renew

# The round's single documents, as named in their URLs (o/<slug>/runde/<n>/druck/<doc>.pdf).
DOCUMENTS = tuple(ROUND_DOCUMENTS)


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
    return {
        "tournament": rnd.tournament,
        "round": rnd,
        "pack": state,
        "documents": DOCUMENTS,
        "tables": rnd.tables.count(),
    }


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
    return render(
        request,
        "printing/round.html",
        {**_context(rnd, state), "can_renew_cards": has_role(request.user, rnd.tournament, ORGANISER)},
    )


@login_required
@require_POST
def table_cards_renew_view(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """ "Neue Tischkarten" (organisers): new keys on every table card; the old cards stop working."""
    tournament_for(request.user, slug, ORGANISER)  # 404 for anyone else
    rnd = _round(request, slug, number)
    table_cards_renew(tournament=rnd.tournament, by=request.user)
    messages.success(request, _("New table cards: print them now. The cards printed before no longer work."))
    return redirect("tournaments:print_round", slug=slug, number=number)


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
    response = FileResponse(
        state.path.open("rb"),
        content_type="application/pdf",
        as_attachment=True,
        filename=PRINTABLES["pack"].filename(slug, round=number),
    )
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_GET
def print_document(request: HttpRequest, slug: str, number: int, doc: str) -> HttpResponse:
    """One document of the whole round, rendered on request."""
    document = ROUND_DOCUMENTS.get(doc)
    if document is None:
        raise Http404("No such document.")
    rnd = _round(request, slug, number)
    return _pdf(document.render(rnd, url_base=_url_base(request)), document.filename(slug, round=number))


@login_required
@require_GET
def print_table_pick(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The table form of the print page: ?table=7&doc=spielliste leads to that table's sheet."""
    rnd = _round(request, slug, number)
    doc = request.GET.get("doc", "spielliste")
    table = parse_int(request.GET.get("table"), min_value=1) or 0
    if doc not in TABLE_DOCUMENTS or not rnd.tables.filter(number=table).exists():
        state = round_print_pack_state(round=rnd, url_base=_url_base(request))
        context = _context(rnd, state) | {
            "table_error": _("Round %(round)d has no table %(table)s.")
            % {"round": rnd.number, "table": request.GET.get("table", "") or "?"}
        }
        return render(request, "printing/round.html", context, status=400)
    return redirect(
        reverse("tournaments:print_table_document", kwargs={"slug": slug, "number": number, "table": table, "doc": doc})
    )


@login_required
@require_GET
def print_table_document(request: HttpRequest, slug: str, number: int, table: int, doc: str) -> HttpResponse:
    """One table's score sheet, as entered (spielliste) or blank (spielliste-leer)."""
    document = TABLE_DOCUMENTS.get(doc)
    if document is None:
        raise Http404("No such document.")
    rnd = _round(request, slug, number)
    table_obj = get_object_or_404(Table, round=rnd, number=table)
    content = document.render(rnd, url_base=_url_base(request), tables=[table_obj])
    return _pdf(content, document.filename(slug, round=number, table=table))


# --- the tournament's end: o/<slug>/druck/<document>.pdf -------------------------------------


def _tournament(request: HttpRequest, slug: str) -> Tournament:
    return tournament_for(request.user, slug, DESK)


def _tournament_document(
    request: HttpRequest, slug: str, key: str, tournament: Tournament | None = None, **options
) -> HttpResponse:
    document = PRINTABLES[key]
    tournament = tournament or _tournament(request, slug)
    return _pdf(document.render(tournament, **options), document.filename(slug))


@login_required
@require_GET
def print_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings: overall and every round, or with ?runde=N that round only."""
    tournament = _tournament(request, slug)
    value = request.GET.get("runde", "")
    number = None
    if value:
        number = parse_int(value, min_value=1)
        if number is None or not tournament.rounds.filter(number=number).exists():
            raise Http404("No such round.")
    document = PRINTABLES["standings"]
    return _pdf(document.render(tournament, round=number), document.filename(slug, round=number))


@login_required
@require_GET
def print_prizes(request: HttpRequest, slug: str) -> HttpResponse:
    return _tournament_document(request, slug, "prizes")


@login_required
@require_GET
def print_cash(request: HttpRequest, slug: str) -> HttpResponse:
    return _tournament_document(request, slug, "cash")


@login_required
@require_GET
def print_certificates(request: HttpRequest, slug: str) -> HttpResponse:
    """A certificate per prize place (or the first three); ?plaetze=N for the first N places."""
    tournament = _tournament(request, slug)
    value = request.GET.get("plaetze", "")
    places = parse_int(value, min_value=1, max_value=print_selectors.MAX_CERTIFICATE_PLACES)
    if value and places is None:
        return HttpResponseBadRequest(
            _("plaetze: a number of places from 1 to %(max)d is needed.")
            % {"max": print_selectors.MAX_CERTIFICATE_PLACES},
            content_type="text/plain; charset=utf-8",
        )
    return _tournament_document(request, slug, "certificates", tournament=tournament, places=places)
