"""Public pages: the tournament and "Wo sitze ich?" — the newest published round's seats."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from schafkopfrennen.polling import polled_page

from .. import access
from ..models import Tournament
from ..params import parse_int
from ..selectors.public import public_tournaments, round_current_public, seat_list_state, seat_rows, seats_by_table
from ..selectors.signup import signup_form_state


def _public_tournament(slug: str) -> Tournament:
    return get_object_or_404(public_tournaments(), slug=slug)


def _refresh(request: HttpRequest) -> int | None:
    """?refresh=60 reloads the page every minute (a projector that follows the rounds)."""
    value = parse_int(request.GET.get("refresh"))
    return None if value is None else max(15, min(value, 3600))


def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _public_tournament(slug)
    context = {
        "tournament": tournament,
        "round": round_current_public(tournament),
        "can_desk": access.has_role(request.user, tournament, access.DESK),
        "signup": signup_form_state(tournament),
    }
    return render(request, "public/tournament.html", context)


def _seat_list(request: HttpRequest, slug: str, *, by_table: bool) -> HttpResponse:
    tournament = _public_tournament(slug)
    rnd = round_current_public(tournament)
    context = {"tournament": tournament, "round": rnd, "by_table": by_table, "refresh": _refresh(request)}
    if rnd is None:
        return render(request, "public/seatlist_pending.html", context, status=404)
    if by_table:
        context["tables"] = seats_by_table(rnd)
    else:
        context["rows"] = seat_rows(rnd)
    return render(request, "public/seatlist.html", context)


@polled_page(seat_list_state)  # an unchanged look is a 304 before anything is rendered
def seatlist(request: HttpRequest, slug: str) -> HttpResponse:
    """Everyone alphabetically by last name with table and seat, with a search box."""
    return _seat_list(request, slug, by_table=False)


@polled_page(seat_list_state)
def seatlist_tables(request: HttpRequest, slug: str) -> HttpResponse:
    """The same round, table by table."""
    return _seat_list(request, slug, by_table=True)
