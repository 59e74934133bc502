"""Two devices at one table entered the same game number differently: the table keeps one version.

The device whose game was refused (409, the number was taken) shows both versions side by side;
a tap keeps one. The version set aside is never lost: it is a revision of the game (action
``conflict``, ``old`` the version set aside, ``new`` the one kept), and keeping the device's own
version changes the game as a correction would (points recomputed by the rules engine).
"""

import uuid
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from scoring.storage import hand_columns, outcome_columns

from ..models import Hand, HandRevision
from .errors import ServiceError
from .hands import _clean_record, _locked_table, _require_open, _score, _snapshot, _unconfirm
from .hooks import tournament_changed


@transaction.atomic
def hand_conflict_resolve(
    *, hand: Hand, record: dict[str, Any], keep: str, client_id: uuid.UUID, device: str = "", by=None
) -> Hand:
    """Keep ``"stored"`` (the game as the server has it) or ``"rival"`` (``record``, the refused version).

    A second call with the same ``client_id`` (a retry) changes nothing and returns the game.
    """
    if keep not in ("stored", "rival"):
        raise ServiceError("keep", _("Choose which version to keep."))
    table = _locked_table(hand.table)
    hand = Hand.objects.select_related("table").get(pk=hand.pk)
    cid = str(client_id)
    if HandRevision.objects.filter(
        Q(old__client_id=cid) | Q(new__client_id=cid),
        table=table,
        number=hand.number,
        action=HandRevision.Action.CONFLICT,
    ).exists():
        return hand
    _require_open(table, organiser=False, reason="")
    record = _clean_record(record, table.size)
    try:  # thrown in: a "weiter", or a Kreuz replayed after 60:60 (the engine says which)
        rival_thrown_in = _score(table, record, hand.dealer).thrown_in
    except ServiceError:
        rival_thrown_in = record.get("contract") == Hand.Contract.WEITER
    swapped = rival_thrown_in != hand.thrown_in
    if keep == "rival" and swapped:  # the deal after a thrown-in game depends on it
        raise ServiceError(
            "contract", _("A thrown-in game and a played game cannot be swapped; delete the game and enter it anew.")
        )
    stored = _snapshot(hand)
    rival = {"number": hand.number, "dealer": hand.dealer, **record, "client_id": cid}
    if keep == "rival":
        score = _score(table, record, hand.dealer)  # a rule error names its field; nothing is written
        for name, value in hand_columns(record).items():
            setattr(hand, name, value)
        for name, value in outcome_columns(score).items():
            setattr(hand, name, value)
        hand.save()
        old, new = stored, {**_snapshot(hand), "client_id": cid}
        _unconfirm(table, changed=hand.number)  # the table is told "game N was changed – please confirm again"
        tournament_changed(table.round.tournament_id, table.pk)
    else:
        try:
            rival["points"] = {str(k): v for k, v in _score(table, record, hand.dealer).points.items()}
        except ServiceError:
            pass  # a version the rules refuse is still kept as it was entered
        old, new = rival, stored
    HandRevision.objects.create(
        table=table,
        hand=hand,
        number=hand.number,
        action=HandRevision.Action.CONFLICT,
        old=old,
        new=new,
        by=by if getattr(by, "is_authenticated", False) else None,
        device=device[:200],
    )
    return hand
