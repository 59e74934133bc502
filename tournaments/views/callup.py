"""The prize table call-up: the desk's phone page (next place, name, "hat gewählt") and its projector view."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from .. import access
from ..forms_setup import PrizeCallUpForm
from ..selectors.callup import prize_call_up
from ..selectors.public import tournament_for_slug
from ..services.errors import ServiceError
from ..services.prizes import prize_hand_over


@login_required
def desk(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the place called now; POST ``start_number`` + ``goods`` ("hat gewählt") or ``undo``."""
    tournament = access.tournament_for(request.user, slug, access.DESK)
    error = ""
    if request.method == "POST":
        form = PrizeCallUpForm(request.POST)
        try:
            if not form.is_valid():
                field, errors = next(iter(form.errors.items()))
                raise ServiceError(field, f"{form.fields[field].label}: {errors[0]}")
            prize_hand_over(
                tournament=tournament,
                start_number=form.cleaned_data["start_number"],
                handed_over=not form.cleaned_data["undo"],
                chosen=form.cleaned_data["goods"],
                by=request.user,
            )
        except ServiceError as err:
            error = err.message
        else:
            return redirect("tournaments:prize_callup", slug=slug)
    template = "prizes/_callup_desk.html" if request.headers.get("HX-Request") else "prizes/callup.html"
    return render(
        request,
        template,
        {"tournament": tournament, "call": prize_call_up(tournament), "error": error},
        status=400 if error else 200,
    )


def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """Big letters for the hall: "Platz 17: Hans Meier (24) – bitte zum Preistisch"; public once the standings are."""
    tournament = tournament_for_slug(slug)
    if tournament is None:
        raise Http404("No such tournament")
    if not (tournament.standings_public or access.has_role(request.user, tournament, access.ANY_ROLE)):
        return render(request, "standings/hidden.html", {"tournament": tournament})
    template = "prizes/_callup_projector.html" if request.headers.get("HX-Request") else "prizes/callup_projector.html"
    return render(request, template, {"tournament": tournament, "call": prize_call_up(tournament, done=3)})
