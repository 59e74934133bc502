"""An evening in several venues: the organiser sets up the venues and their desk helpers (o/<slug>/orte/);
each venue's desk (o/<slug>/ort/<id>/) checks its players in, types its tables' paper totals, prints its
seat list and print pack and shows its projector — and sees no other venue (``access.venue_for``)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from .. import access
from ..forms_entry import PaperTotalsForm
from ..forms_venues import VenueCheckinForm, VenueForm, VenueHelperForm
from ..http import error_status, form_status
from ..models import Round, Table, Venue
from ..pdf.pack import render_pack
from ..selectors.printing import print_pack_data
from ..selectors.standings import standings_view
from ..selectors.venues import (
    current_round,
    venue_players,
    venue_progress,
    venue_seats,
    venue_start_numbers,
    venue_tables,
)
from ..services import hands as hand_services
from ..services.errors import ServiceError
from ..services.venues import venue_checkin, venue_create, venue_helper_add


def _manage_context(tournament, form=None, helper_form=None):
    return {
        "tournament": tournament,
        "progress": venue_progress(tournament),
        "form": form or VenueForm(),
        "helper_form": helper_form or VenueHelperForm(),
        "venues": list(tournament.venues.prefetch_related("helpers")),
    }


@login_required
@require_http_methods(["GET", "POST"])
def venues_manage(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser's list of venues: add one (name, address, contact, its tables) and each venue's progress."""
    tournament = access.tournament_for(request.user, slug, access.ORGANISER)
    form = VenueForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                venue = venue_create(tournament=tournament, by=request.user, **form.cleaned_data)
            except ServiceError as err:
                form.add_service_error(err)
            else:
                messages.success(request, _("Venue %(name)s added.") % {"name": venue.name})
                return redirect("tournaments:venues", slug=slug)
        return render(
            request, "venues/manage.html", _manage_context(tournament, form), status=form_status(request, form)
        )
    return render(request, "venues/manage.html", _manage_context(tournament))


@login_required
@require_POST
def venue_helper(request: HttpRequest, slug: str, venue_id: int) -> HttpResponse:
    tournament = access.tournament_for(request.user, slug, access.ORGANISER)
    venue = tournament.venues.filter(pk=venue_id).first()
    if venue is None:
        raise Http404("No such venue")
    form = VenueHelperForm(request.POST)
    if form.is_valid():
        try:
            user = venue_helper_add(venue=venue, username=form.cleaned_data["username"], by=request.user)
        except ServiceError as err:
            form.add_service_error(err)
        else:
            messages.success(
                request,
                _("%(who)s now runs the desk at %(venue)s.") % {"who": user.get_username(), "venue": venue.name},
            )
            return redirect("tournaments:venues", slug=slug)
    return render(
        request, "venues/manage.html", _manage_context(tournament, helper_form=form), status=form_status(request, form)
    )


def _desk_context(request, venue: Venue, checkin_form=None):
    tournament = venue.tournament
    rnd = current_round(tournament)
    progress = next((p for p in venue_progress(tournament, rnd) if p.venue.pk == venue.pk), None)
    return {
        "tournament": tournament,
        "venue": venue,
        "round": rnd,
        "progress": progress,
        "players": venue_players(venue),
        "checkin_form": checkin_form or VenueCheckinForm(),
        "central": access.has_role(request.user, tournament, access.DESK),
    }


@login_required
@require_GET
def venue_desk(request: HttpRequest, slug: str, venue_id: int) -> HttpResponse:
    """The venue's desk: check in here, this round's tables here (done, missing), its lists and projector."""
    venue = access.venue_for(request.user, slug, venue_id)
    return render(request, "venues/desk.html", _desk_context(request, venue))


@login_required
@require_POST
def venue_checkin_view(request: HttpRequest, slug: str, venue_id: int) -> HttpResponse:
    venue = access.venue_for(request.user, slug, venue_id)
    form = VenueCheckinForm(request.POST)
    if form.is_valid():
        try:
            reg = venue_checkin(venue=venue, start_number=form.cleaned_data["start_number"], by=request.user)
        except ServiceError as err:
            form.add_service_error(err)
            return render(request, "venues/desk.html", _desk_context(request, venue, form), status=error_status(err))
        messages.success(
            request,
            _("%(name)s (%(n)d) checked in at %(venue)s.")
            % {"name": reg.player.name, "n": reg.start_number, "venue": venue.name},
        )
        return redirect("tournaments:venue_desk", slug=slug, venue_id=venue.pk)
    return render(request, "venues/desk.html", _desk_context(request, venue, form), status=400)


def _venue_table(venue: Venue, table_id: int) -> Table:
    """A table of this venue (any round); another venue's or tournament's table is not found."""
    table = (
        Table.objects.select_related("round__tournament")
        .filter(
            pk=table_id,
            round__tournament_id=venue.tournament_id,
            number__gte=venue.first_table,
            number__lte=venue.last_table,
        )
        .first()
    )
    if table is None:
        raise Http404("No such table")
    return table


def _totals_form(table: Table, data=None) -> PaperTotalsForm:
    seats = [
        (s.number, s.registration.player.name)
        for s in table.seats.select_related("registration__player").order_by("number")
    ]
    initial = {f"seat_{k}": v for k, v in (table.paper_totals or {}).items()}
    return PaperTotalsForm(data, seats=seats, initial=initial)


@login_required
@require_http_methods(["GET", "POST"])
def venue_totals(request: HttpRequest, slug: str, venue_id: int, table_id: int) -> HttpResponse:
    """The paper totals of one of this venue's tables, typed at the venue's desk (each seat's round total)."""
    venue = access.venue_for(request.user, slug, venue_id)
    table = _venue_table(venue, table_id)
    form = _totals_form(table, request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                hand_services.table_paper_totals(
                    table=table, totals=form.totals(), by=request.user, reason=form.cleaned_data["reason"]
                )
            except ServiceError as err:
                field = err.field.replace("totals.", "seat_")
                form.add_error(field if field in form.fields else None, err.message)
                status = error_status(err)
            else:
                messages.success(request, _("Round totals of table %(n)d saved.") % {"n": table.number})
                return redirect("tournaments:venue_desk", slug=slug, venue_id=venue.pk)
        else:
            status = 400
    return render(
        request,
        "venues/totals.html",
        {"tournament": venue.tournament, "venue": venue, "table": table, "form": form},
        status=status,
    )


def _round_of(venue: Venue, number: int) -> Round:
    rnd = venue.tournament.rounds.filter(number=number).first()
    if rnd is None:
        raise Http404("No such round")
    return rnd


@login_required
@require_GET
def venue_seatlist(request: HttpRequest, slug: str, venue_id: int, number: int) -> HttpResponse:
    """This venue's seat list of a round, by table (for the wall of the inn)."""
    venue = access.venue_for(request.user, slug, venue_id)
    rnd = _round_of(venue, number)
    return render(
        request,
        "venues/seatlist.html",
        {"tournament": venue.tournament, "venue": venue, "round": rnd, "tables": venue_seats(venue, rnd)},
    )


@login_required
@require_GET
def venue_print_pack(request: HttpRequest, slug: str, venue_id: int, number: int) -> HttpResponse:
    """This venue's print pack of a round: its seat list, table cards and score sheets (its tables only)."""
    venue = access.venue_for(request.user, slug, venue_id)
    rnd = _round_of(venue, number)
    tables = list(venue_tables(venue, rnd))
    if not tables:
        raise Http404("No tables here in this round")
    url_base = request.build_absolute_uri("/")
    pdf = render_pack(print_pack_data(rnd, url_base=url_base, tables=tables))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{slug}-runde-{number}-ort-{venue.pk}.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_GET
def venue_projector(request: HttpRequest, slug: str, venue_id: int) -> HttpResponse:
    """This venue's projector: the joint standings' rows of its players, with their places in the whole field."""
    venue = access.venue_for(request.user, slug, venue_id)
    view = standings_view(venue.tournament, start_numbers=venue_start_numbers(venue))
    context = {"tournament": venue.tournament, "view": view, "projector": True, "venue": venue}
    template = "standings/_table.html" if request.htmx else "standings/projector.html"
    return render(request, template, context)
