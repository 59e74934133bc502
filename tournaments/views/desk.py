"""The registration desk: find or add players, register them, paid, check-in, withdrawal, substitutes.

Search-as-you-type and the paid / checked-in toggles go through htmx and update the page in place;
every form also works as a plain POST that redirects back to the desk.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import access
from ..forms import FlagForm, QuickAddForm, RegisterForm, SearchForm, SubstituteForm
from ..http import error_status
from ..models import Registration, Tournament
from ..selectors.desk import (
    club_names,
    desk_row,
    desk_rows,
    desk_summary,
    player_for_desk,
    players_search,
    registration_namesakes,
)
from ..services.errors import ServiceError
from ..services.registration import (
    registration_club,
    registration_create,
    registration_quick_add,
    registration_substitute,
    registration_substitute_new,
    registration_update,
)
from ..services.signups import registration_leave


def _desk_tournament(request: HttpRequest, slug: str) -> Tournament:
    return access.tournament_for(request.user, slug, access.DESK)


def _registration(tournament: Tournament, number: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("player", "tournament"), tournament=tournament, start_number=number
    )


def _may_create_club(request: HttpRequest, tournament: Tournament) -> bool:
    """Organisers create clubs; desk helpers pick one of the existing clubs."""
    return access.has_role(request.user, tournament, access.ORGANISER)


def _query(request: HttpRequest) -> str:
    form = SearchForm(request.GET)
    return form.cleaned_data["q"].strip() if form.is_valid() else ""


def _quick_add_initial(query: str) -> dict:
    """A search that found nobody becomes the new person's name: "Anna Huber" -> Anna / Huber."""
    words = [w for w in query.split() if not w.isdigit()]
    if not words:
        return {}
    return {"first_name": " ".join(words[:-1]), "last_name": words[-1]}


def _results_context(tournament: Tournament, query: str, quick_add: QuickAddForm | None = None) -> dict:
    """What the search box updates: matching players to register, the new-person form, the registrations."""
    return {
        "tournament": tournament,
        "q": query,
        "rows": desk_rows(tournament=tournament, query=query),
        "found": players_search(tournament=tournament, query=query),
        "quick_add": quick_add
        or QuickAddForm(initial={"club_name": tournament.club.name, **_quick_add_initial(query)}),
        "club_names": club_names(),
    }


def _render_desk(
    request: HttpRequest,
    tournament: Tournament,
    *,
    query: str = "",
    quick_add: QuickAddForm | None = None,
    error: str = "",
    status: int = 200,
    namesake: dict | None = None,
) -> HttpResponse:
    context = {
        **_results_context(tournament, query, quick_add),
        "summary": desk_summary(tournament),
        "error": error,
        "namesake": namesake,
        "can_organise": access.has_role(request.user, tournament, access.ORGANISER),
    }
    return render(request, "desk/desk.html", context, status=status)


def _back_to_desk(tournament: Tournament, anchor: str = "") -> HttpResponse:
    return redirect(reverse("tournaments:desk", args=[tournament.slug]) + anchor)


@login_required
def organiser_home(request: HttpRequest) -> HttpResponse:
    """The tournaments the user may work on (with their control panel, desk and rounds) and the clubs."""
    return render(
        request,
        "desk/home.html",
        {
            "tournaments": access.tournaments_for(request.user, access.ANY_ROLE),
            "clubs": access.clubs_for(request.user),
            "can_create": access.clubs_for(request.user, access.ORGANISER).exists(),
            "venue_desks": access.venues_for(request.user),
        },
    )


@login_required
def desk(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _desk_tournament(request, slug)
    query = _query(request)
    if request.htmx and request.htmx.target == "desk-results":
        return render(request, "desk/_results.html", _results_context(tournament, query))
    return _render_desk(request, tournament, query=query)


@login_required
@require_POST
def register(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _desk_tournament(request, slug)
    form = RegisterForm(request.POST)
    if not form.is_valid():
        return _render_desk(request, tournament, error=_("Choose a player to register."), status=400)
    player = player_for_desk(tournament=tournament, pk=form.cleaned_data["player"])
    if player is None:
        raise Http404("No such player")
    question = _namesake_question(request, tournament, player.first_name, player.last_name, exclude=player.pk)
    if question:
        return _render_desk(request, tournament, namesake=question, status=409)
    try:
        reg = registration_create(
            tournament=tournament,
            player=player,
            paid=form.cleaned_data["paid"],
            checked_in=form.cleaned_data["checked_in"],
            by=request.user,
        )
    except ServiceError as err:
        return _render_desk(request, tournament, error=err.message, status=error_status(err))
    messages.success(
        request, _("%(name)s is registered with start number %(n)d.") % {"name": player.name, "n": reg.start_number}
    )
    return _back_to_desk(tournament)


@login_required
@require_POST
def quick_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _desk_tournament(request, slug)
    form = QuickAddForm(request.POST)
    if form.is_valid():
        question = _namesake_question(
            request, tournament, form.cleaned_data["first_name"], form.cleaned_data["last_name"]
        )
        if question:
            return _render_desk(request, tournament, quick_add=form, namesake=question, status=409)
        try:
            reg = registration_quick_add(
                tournament=tournament,
                **form.cleaned_data,
                by=request.user,
                may_create_club=_may_create_club(request, tournament),
            )
        except ServiceError as err:
            form.add_service_error(err)
            return _render_desk(request, tournament, quick_add=form, status=error_status(err))
        messages.success(
            request,
            _("%(name)s is registered with start number %(n)d.") % {"name": reg.player.name, "n": reg.start_number},
        )
        return _back_to_desk(tournament)
    return _render_desk(request, tournament, quick_add=form, status=400)


def _namesake_question(
    request: HttpRequest, tournament: Tournament, first_name: str, last_name: str, *, exclude: int | None = None
) -> dict | None:
    """Someone of this name is registered already: the desk asks "the same or another?" (None: no namesake, or
    the desk answered "another" with ``namesake=another``). The form is sent again as it was, with the answer."""
    if request.POST.get("namesake") == "another":
        return None
    others = [
        r
        for r in registration_namesakes(tournament=tournament, first_name=first_name, last_name=last_name)
        if r.player_id != exclude
    ]
    if not others:
        return None
    return {
        "name": " ".join(f"{first_name} {last_name}".split()),
        "others": others,
        "action": request.path,
        "fields": [(k, v) for k, v in request.POST.items() if k not in ("csrfmiddlewaretoken", "namesake")],
    }


def _row_response(request: HttpRequest, reg: Registration, *, error: str = "", status: int = 200) -> HttpResponse:
    """htmx: the registration's row (and the desk's counts, out of band) replace what the page shows."""
    context = {
        "row": desk_row(reg),
        "tournament": reg.tournament,
        "row_error": error,
        "summary": desk_summary(reg.tournament),
        "oob": True,
    }
    return render(request, "desk/_row_update.html", context, status=status)


@login_required
@require_POST
def flag(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Paid or checked in, on or off."""
    tournament = _desk_tournament(request, slug)
    reg = _registration(tournament, number)
    form = FlagForm(request.POST)
    if not form.is_valid():
        return HttpResponse(status=400)
    try:
        reg = registration_update(
            registration=reg, by=request.user, **{form.cleaned_data["field"]: form.cleaned_data["value"]}
        )
    except ServiceError as err:
        if request.htmx:
            return _row_response(request, reg, error=err.message, status=error_status(err))
        return _render_desk(request, tournament, error=err.message, status=error_status(err))
    if request.htmx:
        return _row_response(request, reg)
    return _back_to_desk(tournament, f"#reg-{reg.start_number}")


@login_required
@require_POST
def withdraw(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The player leaves: from the next draw on he has no seat."""
    tournament = _desk_tournament(request, slug)
    reg = _registration(tournament, number)
    try:
        reg = registration_leave(registration=reg, by=request.user, url_base=request.build_absolute_uri("/"))
    except ServiceError as err:
        if request.htmx:
            return _row_response(request, reg, error=err.message, status=error_status(err))
        return _render_desk(request, tournament, error=err.message, status=error_status(err))
    if request.htmx:
        return _row_response(request, reg)
    messages.success(request, _("%(name)s is withdrawn.") % {"name": reg.player.name})
    return _back_to_desk(tournament, f"#reg-{reg.start_number}")


@login_required
def substitute(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Someone takes over a withdrawn (or leaving) player's seat and points."""
    tournament = _desk_tournament(request, slug)
    reg = _registration(tournament, number)
    query = _query(request)
    context = {
        "tournament": tournament,
        "reg": reg,
        "q": query,
        "found": players_search(tournament=tournament, query=query),
        "club_names": club_names(),
    }
    if request.method != "POST":
        if request.htmx and request.htmx.target == "substitute-results":
            return render(request, "desk/_substitute_results.html", context)
        form = SubstituteForm(initial={"club_name": tournament.club.name, **_quick_add_initial(query)})
        return render(request, "desk/substitute.html", {**context, "form": form})
    form = SubstituteForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        player = None
        if data["player"] is not None:
            player = player_for_desk(tournament=tournament, pk=data["player"])
            if player is None:
                raise Http404("No such player")
        try:
            if data["pays_fee"] is None:  # the desk is asked first: his fee is never assumed, either way
                if player is None and data["club_name"] and not _may_create_club(request, tournament):
                    registration_club(
                        tournament=tournament, name=data["club_name"], may_name_new=False
                    )  # unknown: refused first
                name = player.name if player else " ".join(p for p in (data["first_name"], data["last_name"]) if p)
                return render(request, "desk/substitute_fee.html", {**context, "form": form, "name": name})
            if player is not None:
                new = registration_substitute(withdrawn=reg, player=player, pays_fee=data["pays_fee"], by=request.user)
            else:
                new = registration_substitute_new(
                    withdrawn=reg,
                    by=request.user,
                    first_name=data["first_name"],
                    last_name=data["last_name"],
                    club_name=data["club_name"],
                    may_create_club=_may_create_club(request, tournament),
                    pays_fee=data["pays_fee"],
                )
        except ServiceError as err:
            form.add_service_error(err)
            return render(request, "desk/substitute.html", {**context, "form": form}, status=error_status(err))
        messages.success(
            request,
            _("%(new)s (start number %(n)d) takes over from %(old)s.")
            % {"new": new.player.name, "n": new.start_number, "old": reg.player.name},
        )
        return _back_to_desk(tournament, f"#reg-{new.start_number}")
    return render(request, "desk/substitute.html", {**context, "form": form}, status=400)
