"""Everything the system keeps about one player, as one JSON-ready document (the right of access)."""

from typing import Any

from django.utils import timezone

from scoring.storage import POINTS_COLUMNS

from ..models import AuditEntry, Hand, Player, Registration, Seat, SignUp


def player_data_export(player: Player) -> dict[str, Any]:
    registrations = list(
        Registration.objects.filter(player=player)
        .select_related("tournament__club", "substitute_for")
        .order_by("tournament__date", "pk")
    )
    seats = list(
        Seat.objects.filter(registration__player=player)
        .select_related("table", "round")
        .order_by("round__tournament_id", "round__number")
    )
    hands: dict[int, list[Hand]] = {}
    for hand in Hand.objects.filter(table__in={s.table_id for s in seats}).only("table_id", *POINTS_COLUMNS.values()):
        hands.setdefault(hand.table_id, []).append(hand)
    rounds: dict[int, list[dict]] = {}
    for seat in seats:
        played = hands.get(seat.table_id, [])
        rounds.setdefault(seat.registration_id, []).append(
            {
                "round": seat.round.number,
                "table": seat.table.number,
                "seat": seat.number,
                "games": len(played),
                "points": sum((h.points or {}).get(str(seat.number), 0) for h in played),
            }
        )
    labels = [f"{r.start_number}: {player.sort_name}" for r in registrations]
    log = AuditEntry.objects.filter(
        tournament__in=[r.tournament_id for r in registrations], subject__in=labels
    ).order_by("at", "id")
    return {
        "exported_at": timezone.localtime().isoformat(timespec="seconds"),
        "player": {
            "id": player.pk,
            "first_name": player.first_name,
            "last_name": player.last_name,
            "club": player.club.name if player.club else None,
            "contact": player.contact,
        },
        "registrations": [
            {
                "tournament": {
                    "slug": r.tournament.slug,
                    "name": r.tournament.name,
                    "date": r.tournament.date.isoformat(),
                    "club": r.tournament.club.name,
                },
                "start_number": r.start_number,
                "registered_at": timezone.localtime(r.created_at).isoformat(),
                "paid": r.paid,
                "checked_in": r.checked_in,
                "withdrawn_after_round": r.withdrawn_after_round,
                "substitute_for": r.substitute_for.start_number if r.substitute_for else None,
                # given for category prizes; what he took at the prize table
                "birth_year": r.birth_year,
                "gender": r.gender,
                "local": r.local,
                "prize_chosen": r.prize_chosen,
                "rounds": rounds.get(r.pk, []),
            }
            for r in registrations
        ],
        "online_signups": [
            {
                "tournament": s.tournament.slug,
                "first_name": s.first_name,
                "last_name": s.last_name,
                "club": s.club_label,
                "email": s.email,
                "phone": s.phone,
                "status": s.status,
                "signed_up_at": timezone.localtime(s.created_at).isoformat(),
                "consent_text": s.consent_text,
                "consent_at": timezone.localtime(s.consent_at).isoformat(),
                "consent_withdrawn_at": timezone.localtime(s.consent_withdrawn_at).isoformat()
                if s.consent_withdrawn_at
                else None,
            }
            for s in SignUp.objects.filter(registration__player=player)
            .select_related("tournament", "club")
            .order_by("created_at")
        ],
        "log": [
            {
                "at": timezone.localtime(e.at).isoformat(),
                "tournament": e.tournament.slug if e.tournament_id else None,
                "action": e.action,
                "by": e.by_name or None,
                "before": e.before,
                "after": e.after,
                "reason": e.reason,
            }
            for e in log.select_related("tournament")
        ],
    }
