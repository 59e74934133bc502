"""A player's personal data on the club's player page: export as JSON, anonymise (organisers only)."""

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import access
from ..models import Player
from ..selectors.personal import player_data_export
from ..services.audit import audit_record
from ..services.personal_data import player_anonymise


def _organisers_player(request: HttpRequest, player_id: int) -> Player:
    player = (
        Player.objects.filter(pk=player_id, club__in=access.clubs_for(request.user, access.ORGANISER))
        .select_related("club")
        .first()
    )
    if player is None:
        raise Http404("No such player")
    return player


@login_required
def player_export(request: HttpRequest, player_id: int) -> HttpResponse:
    player = _organisers_player(request, player_id)
    data = player_data_export(player)
    audit_record(action="player.export", by=request.user, club=player.club, subject=player.name)
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="spieler-{player.pk}.json"'
    return response


@login_required
@require_POST
def player_anonymise_view(request: HttpRequest, player_id: int) -> HttpResponse:
    player = _organisers_player(request, player_id)
    if request.POST.get("confirm") != "1":
        messages.error(request, _("Tick the box to confirm: anonymising cannot be undone."))
        return redirect("tournaments:player_edit", player_id=player.pk)
    club = player.club
    player = player_anonymise(player=player, club=club, by=request.user)
    messages.success(
        request,
        _("Anonymised: the player is now called %(name)s; contact details are deleted, results stay.")
        % {"name": player.name},
    )
    return redirect("tournaments:club", club_id=club.pk)
