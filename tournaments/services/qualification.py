"""A qualifier series' final: its settings, wildcards, invitations from the qualification list, declines."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Invitation, Player, Registration, Series, Tournament, Wildcard
from ..selectors.qualification import qualification_result, wildcard_candidates
from .audit import audit_record
from .errors import ServiceError, StateConflict
from .registration import registration_create, registration_withdraw


def _locked(series: Series) -> Series:
    return Series.objects.select_for_update().select_related("club").get(pk=series.pk)


@transaction.atomic
def qualification_settings(
    *,
    series: Series,
    per_evening: int,
    mode: str,
    lottery_places: int,
    lottery_min_evenings: int,
    final: Tournament | None,
    invitation_deadline=None,
    by=None,
) -> Series:
    """Make the series a qualification: who of each evening goes on, the lottery, the final (a tournament of
    the series' own club) and the day to answer by."""
    locked = _locked(series)
    before = {
        "per_evening": locked.qualify_per_evening,
        "mode": locked.qualify_mode,
        "lottery_places": locked.lottery_places,
        "lottery_min_evenings": locked.lottery_min_evenings,
        "final": locked.final.slug if locked.final else None,
    }
    locked.kind = Series.Kind.QUALIFIER
    locked.qualify_per_evening, locked.qualify_mode = per_evening, mode
    locked.lottery_places, locked.lottery_min_evenings = lottery_places, lottery_min_evenings
    locked.final, locked.invitation_deadline = final, invitation_deadline
    try:
        locked.full_clean()
    except ValidationError as err:
        field, messages = next(iter(err.message_dict.items()))
        raise ServiceError(field, messages[0]) from err
    locked.save()
    audit_record(
        action="series.qualification",
        by=by,
        club=locked.club,
        subject=locked.name,
        before=before,
        after={
            "per_evening": per_evening,
            "mode": mode,
            "lottery_places": lottery_places,
            "lottery_min_evenings": lottery_min_evenings,
            "final": final.slug if final else None,
        },
    )
    return locked


@transaction.atomic
def wildcard_give(*, series: Series, player: Player, reason: str, by=None) -> Wildcard:
    locked = _locked(series)
    reason = " ".join(reason.split())
    if not reason:
        raise ServiceError("reason", _("A wildcard is given with a reason."), code="reason_required")
    if not wildcard_candidates(locked).filter(pk=player.pk).exists():
        raise ServiceError("player", _("Choose a player of the club or of one of the evenings."))
    if locked.wildcards.filter(player=player).exists():
        raise StateConflict("player", _("%(name)s has a wildcard already.") % {"name": player.name})
    card = Wildcard.objects.create(series=locked, player=player, reason=reason[:200])
    audit_record(
        action="series.wildcard", by=by, club=locked.club, subject=player.name, after=locked.name, reason=card.reason
    )
    return card


@transaction.atomic
def final_fill(*, series: Series, by=None) -> list[Invitation]:
    """Invite everyone on the qualification list who is not invited yet: each is registered for the final (his
    start card is his invitation). Run again after a decline, it invites the next in line."""
    locked = _locked(series)
    if locked.kind != Series.Kind.QUALIFIER or locked.final_id is None:
        raise StateConflict("final", _("Choose the final first."), code="no_final")
    final = Tournament.objects.select_for_update().get(pk=locked.final_id)
    if final.status == Tournament.Status.FINISHED:
        raise StateConflict("final", _("The final is finished."))
    result = qualification_result(locked)
    known = set(locked.invitations.values_list("player_id", flat=True))
    players = Player.objects.in_bulk(result.players)
    made = []
    for q in result.qualified:
        if q.player in known:
            continue
        registration = Registration.objects.filter(tournament=final, player_id=q.player).first()
        if registration is None:
            registration = registration_create(tournament=final, player=players[q.player], by=by)
        made.append(
            Invitation.objects.create(series=locked, player=players[q.player], registration=registration, how=q.how)
        )
    if made:
        audit_record(
            action="series.invite", by=by, club=locked.club, subject=locked.name, after=[i.player.name for i in made]
        )
    return made


@transaction.atomic
def invitation_decline(*, invitation: Invitation, by=None) -> list[Invitation]:
    """He does not play the final: his registration there is withdrawn and the next in line is invited."""
    invitation = (
        Invitation.objects.select_for_update(of=("self",))
        .select_related("series", "registration", "player")
        .get(pk=invitation.pk)
    )
    if invitation.status == Invitation.Status.DECLINED:
        raise StateConflict("invitation", _("%(name)s has declined already.") % {"name": invitation.player.name})
    invitation.status = Invitation.Status.DECLINED
    invitation.save(update_fields=["status"])
    if invitation.registration is not None and not invitation.registration.withdrawn:
        registration_withdraw(registration=invitation.registration, by=by)
    audit_record(
        action="series.decline",
        by=by,
        club=invitation.series.club,
        subject=invitation.player.name,
        after=invitation.series.name,
    )
    return final_fill(series=invitation.series, by=by)
