"""A player's personal data: anonymising him keeps his results and forgets who he was."""

import json
import re

from django.db import transaction
from django.db.models import Q

from schafkopfrennen.forget import names_forget
from scoring.models import StandingsSnapshot

from ..models import AuditEntry, Club, Player, PrintPack, Registration, SeatSwap, SignUp
from .audit import audit_record
from .standings import standings_recompute


def anonymous_name(player: Player) -> str:
    return f"Spieler {player.pk}"


@transaction.atomic
def player_anonymise(*, player: Player, club: Club, by=None) -> Player:
    """His name becomes "Spieler <id>", his contact details are deleted; registrations, seats, games and
    points stay as they are. The log's and the seat swaps' texts that named him name "Spieler <id>" now."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    new = anonymous_name(player)
    old_names = {n for n in (player.name, player.sort_name) if n and n != new}
    labels = {
        f"{r.start_number}: {player.sort_name}": f"{r.start_number}: {new}"
        for r in Registration.objects.filter(player=player)
    }
    player.first_name, player.last_name, player.contact = "", new, ""
    player.save(update_fields=["first_name", "last_name", "contact"])
    # His online sign-ups held his name, club as typed and contact: forgotten as well.
    SignUp.objects.filter(registration__player=player).update(
        first_name="", last_name=new, club_name="", email="", phone=""
    )
    # What he gave for category prizes (year of birth, gender, local): forgotten too.
    Registration.objects.filter(player=player).update(birth_year=None, gender="", local=None)
    tournaments = Registration.objects.filter(player=player).values("tournament_id")

    def scrub(text: str) -> str:
        for old_label, new_label in labels.items():
            text = text.replace(old_label, new_label)
        for name in sorted(old_names, key=len, reverse=True):  # whole names only: "Huber, Ann" is not "Huber, Anna"
            text = re.sub(r"(?<!\w)" + re.escape(name) + r"(?!\w)", new, text)
        return text

    # The log of his tournaments, and his club's own log (an export of his data names him: "player.export").
    log = AuditEntry.objects.filter(Q(tournament__in=tournaments) | Q(club=club, tournament=None))
    for entry in log.select_for_update():
        fields = {"subject": scrub(entry.subject), "reason": scrub(entry.reason)}
        for name in ("before", "after"):
            value = getattr(entry, name)
            if value is not None:
                fields[name] = json.loads(scrub(json.dumps(value, ensure_ascii=False)))
        if any(getattr(entry, k) != v for k, v in fields.items()):
            AuditEntry.objects.filter(pk=entry.pk).update(**fields)
    for swap in SeatSwap.objects.filter(round__tournament__in=tournaments).select_for_update():
        description = scrub(swap.description)
        if description != swap.description:
            SeatSwap.objects.filter(pk=swap.pk).update(description=description)
    audit_record(action="player.anonymise", by=by, club=club, subject=new)
    # The print packs of his tournaments' rounds print his name: their files go (a pack is built again on request).
    packs = PrintPack.objects.filter(round__tournament__in=tournaments).select_for_update()
    files = [(pack.file.storage, pack.file.name) for pack in packs if pack.file]
    packs.delete()
    transaction.on_commit(lambda: [storage.delete(name) for storage, name in files])
    # The standings snapshots carry names: recompute those of his tournaments (same points, the new name).
    for tournament_id in StandingsSnapshot.objects.filter(tournament__in=tournaments).values_list(
        "tournament_id", flat=True
    ):
        standings_recompute(tournament_id=tournament_id)
    # What the processes keep of names (lists, rendered rows, pages' tags): forgotten now, and again once
    # committed (a page read meanwhile read the old name).
    names_forget()
    transaction.on_commit(names_forget)
    return player
