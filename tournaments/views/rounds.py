"""The organiser's round control: draw, redraw, publish, close, reopen (with a reason), and seat swaps before play."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import access
from ..forms import SeatSwapForm
from ..forms_tables import ReasonForm
from ..forms_venues import VenueMixForm
from ..http import error_status
from ..models import Registration, Round, Tournament
from ..selectors.console import unpaid_registrations
from ..selectors.desk import desk_summary, rounds_overview, seat_swaps_for
from ..services.errors import ServiceError
from ..services.rounds import round_close, round_draw, round_publish, round_redraw, round_reopen, seat_swap


def _organiser_tournament(request: HttpRequest, slug: str) -> Tournament:
    return access.tournament_for(request.user, slug, access.ORGANISER)


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round.objects.select_related("tournament"), tournament=tournament, number=number)


def _render_rounds(
    request: HttpRequest,
    tournament: Tournament,
    *,
    error: str = "",
    error_round: int | None = None,
    swap_form: SeatSwapForm | None = None,
    swap_round: int | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        "tournament": tournament,
        "rules": tournament.ruleset,
        "panels": rounds_overview(tournament),
        "summary": desk_summary(tournament),
        "swaps": seat_swaps_for(tournament),
        "can_organise": access.has_role(request.user, tournament, access.ORGANISER),
        "error": error,
        "error_round": error_round,
        "swap_form": swap_form,
        "swap_round": swap_round,
        "unpaid": unpaid_registrations(tournament),
        "has_venues": tournament.venues.exists(),
    }
    return render(request, "desk/rounds.html", context, status=status)


def _back(tournament: Tournament, number: int | None = None) -> HttpResponse:
    url = reverse("tournaments:rounds", args=[tournament.slug])
    return redirect(f"{url}#round-{number}" if number else url)


@login_required
def rounds(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access.tournament_for(request.user, slug, access.DESK)
    return _render_rounds(request, tournament)


@login_required
@require_POST
def draw(request: HttpRequest, slug: str) -> HttpResponse:
    """Draw the next round (or every round, when the ruleset draws all rounds in advance)."""
    tournament = _organiser_tournament(request, slug)
    mix = VenueMixForm(request.POST)
    try:
        drawn = round_draw(
            tournament=tournament, by=request.user, mix_venues=mix.is_valid() and mix.cleaned_data["mix"]
        )
    except ServiceError as err:
        number = tournament.rounds.count() + 1
        return _render_rounds(request, tournament, error=err.message, error_round=number, status=error_status(err))
    messages.success(request, _("Drawn: round %(numbers)s.") % {"numbers": ", ".join(str(r.number) for r in drawn)})
    unpaid = unpaid_registrations(tournament)
    if unpaid:
        messages.warning(
            request,
            _("Not paid yet: %(players)s. Collect the entry fee at the desk.")
            % {"players": ", ".join(f"{r.start_number} {r.player.name}" for r in unpaid)},
        )
    return _back(tournament, drawn[0].number)


def _round_action(request: HttpRequest, slug: str, number: int, act, done: str) -> HttpResponse:
    """A round's state change through its service (``act(rnd)``): the rounds page again, with ``done``
    or the service's refusal."""
    tournament = _organiser_tournament(request, slug)
    rnd = _round(tournament, number)
    try:
        act(rnd)
    except ServiceError as err:
        return _render_rounds(request, tournament, error=err.message, error_round=number, status=error_status(err))
    messages.success(request, done % {"n": number})
    return _back(tournament, number)


@login_required
@require_POST
def redraw(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _round_action(
        request, slug, number, lambda rnd: round_redraw(round=rnd, by=request.user), _("Round %(n)d is drawn again.")
    )


@login_required
@require_POST
def publish(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _round_action(
        request,
        slug,
        number,
        lambda rnd: round_publish(round=rnd, by=request.user),
        _("Round %(n)d is published: seat lists and table entry are open."),
    )


@login_required
@require_POST
def close(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _round_action(
        request, slug, number, lambda rnd: round_close(round=rnd, by=request.user), _("Round %(n)d is closed.")
    )


@login_required
@require_POST
def reopen(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The last round played is unlocked again, with a reason (logged); it is closed again the usual way."""
    form = ReasonForm(request.POST)

    def act(rnd):
        if not form.is_valid():
            raise form.refusal()
        round_reopen(round=rnd, reason=form.cleaned_data["reason"], by=request.user)

    return _round_action(
        request,
        slug,
        number,
        act,
        _(
            "Round %(n)d is open again: its tables can correct games and confirm anew; "
            "close it again when they are done."
        ),
    )


@login_required
@require_POST
def swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Two players, by start number, exchange their seats (before play at their tables)."""
    tournament = _organiser_tournament(request, slug)
    rnd = _round(tournament, number)
    form = SeatSwapForm(request.POST)
    if form.is_valid():
        regs = {
            r.start_number: r
            for r in Registration.objects.select_related("player").filter(
                tournament=tournament, start_number__in=[form.cleaned_data["first"], form.cleaned_data["second"]]
            )
        }
        for field in ("first", "second"):
            if form.cleaned_data[field] not in regs:
                form.add_error(field, _("No player has start number %(n)d.") % {"n": form.cleaned_data[field]})
    if not form.is_valid():
        return _render_rounds(request, tournament, swap_form=form, swap_round=number, status=400)
    try:
        done = seat_swap(
            round=rnd, first=regs[form.cleaned_data["first"]], second=regs[form.cleaned_data["second"]], by=request.user
        )
    except ServiceError as err:
        form.add_service_error(err)
        return _render_rounds(request, tournament, swap_form=form, swap_round=number, status=error_status(err))
    messages.success(request, _("Seats swapped: %(what)s") % {"what": done.description})
    return _back(tournament, number)
