import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.rules import PRESETS

from ..models import Club, Prize, Round, Tournament
from .audit import audit_record, changed
from .clubs import postcode_clean
from .errors import ServiceError, StateConflict


def _full_clean(tournament: Tournament) -> None:
    try:
        tournament.full_clean()
    except ValidationError as err:
        field, messages = next(iter(err.message_dict.items()))
        raise ServiceError(field, messages[0]) from err


@transaction.atomic
def tournament_create(
    *,
    club: Club,
    name: str,
    slug: str,
    date: datetime.date,
    venue: str = "",
    postcode: str = "",
    listed: bool = False,
    entry_fee_cents: int = 1000,
    payout_percent: int = 100,
    rules: dict | None = None,
    preset: str | None = None,
) -> Tournament:
    """Create a tournament; its ruleset (a preset and/or keys) is validated and completed with the DEFAULT."""
    if preset is not None and preset not in PRESETS:
        raise ServiceError("preset", _("Unknown ruleset preset."))
    merged = {**PRESETS.get(preset or "default", {}), **(rules or {})}
    tournament = Tournament(
        club=club,
        name=name,
        slug=slug,
        date=date,
        venue=venue,
        postcode=postcode_clean(postcode),
        listed=listed,
        entry_fee_cents=entry_fee_cents,
        payout_percent=payout_percent,
        rules=merged,
    )
    _full_clean(tournament)
    tournament.save()
    return tournament


def rules_locked(tournament: Tournament) -> bool:
    """The rules stay as they are once a round is published: the games were scored with them."""
    return tournament.rounds.exclude(status=Round.Status.DRAWN).exists()


@transaction.atomic
def tournament_update(*, tournament: Tournament, rules: dict | None = None, by=None, **fields) -> Tournament:
    tournament = Tournament.objects.select_for_update().select_related("club").get(pk=tournament.pk)
    old_rules = dict(tournament.rules)
    old_fields = {name: _jsonable(getattr(tournament, name)) for name in fields}
    if rules is not None and rules != tournament.rules:
        if rules_locked(tournament):
            raise StateConflict("rules", _("Play has started: the rules can no longer change."))
        tournament.rules = rules
    if "postcode" in fields:
        fields["postcode"] = postcode_clean(fields["postcode"])
    for name, value in fields.items():
        setattr(tournament, name, value)
    _full_clean(tournament)
    tournament.save()
    if tournament.rules != old_rules:
        before, after = changed(old_rules, tournament.rules)
        audit_record(action="tournament.rules", by=by, tournament=tournament, before=before, after=after)
    before, after = changed(old_fields, {name: _jsonable(getattr(tournament, name)) for name in fields})
    if after:
        audit_record(action="tournament.details", by=by, tournament=tournament, before=before, after=after)
    return tournament


def _jsonable(value):
    """A field's value as the log stores it (dates as ISO text)."""
    return value.isoformat() if hasattr(value, "isoformat") else value


@transaction.atomic
def tournament_copy(*, source: Tournament, name: str, slug: str, date: datetime.date) -> Tournament:
    """Next year's tournament: same club, venue, fee, rules and prizes; no players, no rounds."""
    copy = tournament_create(
        club=source.club,
        name=name,
        slug=slug,
        date=date,
        venue=source.venue,
        entry_fee_cents=source.entry_fee_cents,
        payout_percent=source.payout_percent,
        rules=dict(source.rules),
    )
    Prize.objects.bulk_create(
        Prize(tournament=copy, place=p.place, amount_cents=p.amount_cents, goods=p.goods) for p in source.prizes.all()
    )
    return copy


@transaction.atomic
def table_cards_renew(*, tournament: Tournament, by=None) -> Tournament:
    """ "Neue Tischkarten": new all-evening keys for every table; the cards printed before answer 410."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = locked.table_cards_generation
    locked.table_cards_generation = before + 1
    locked.save(update_fields=["table_cards_generation"])
    audit_record(
        action="tournament.table_cards_renew",
        by=by,
        tournament=locked,
        before={"generation": before},
        after={"generation": locked.table_cards_generation},
    )
    return locked


@transaction.atomic
def tournament_finish(*, tournament: Tournament, by=None) -> Tournament:
    """End the evening once every round is played and closed: the standings are final ("Endstand"), the prize
    and cash lists are the evening's last word, and no game is written any more (``hands._require_open``)
    until the organiser reopens the last round with a reason (``round_reopen``). ``Tournament.status`` is
    the one home of "finished"."""
    locked = Tournament.objects.select_for_update().select_related("club").get(pk=tournament.pk)
    if locked.status == Tournament.Status.FINISHED:
        raise StateConflict("tournament", _("The tournament is finished already."), code="finished")
    planned = locked.ruleset.rounds
    closed = locked.rounds.filter(status=Round.Status.CLOSED, number__lte=planned).count()
    if closed < planned:
        raise StateConflict(
            "tournament",
            _("Only %(closed)d of %(planned)d rounds are closed: close every round first.")
            % {"closed": closed, "planned": planned},
            code="rounds_open",
        )
    before = locked.status
    locked.status = Tournament.Status.FINISHED
    locked.save(update_fields=["status"])
    audit_record(
        action="tournament.finish", by=by, tournament=locked, before={"status": before}, after={"status": locked.status}
    )
    tournament.status = locked.status
    return locked
