"""The check every standings test makes: each registration's total straight from its seats' stored points."""

from tournaments.models import Hand, Seat, Tournament


def points_from_hands(tournament: Tournament) -> dict[int, int]:
    """registration id -> the sum of the stored points of every game at its seats."""
    seat_of = {(s.table_id, s.number): s.registration_id for s in Seat.objects.filter(round__tournament=tournament)}
    totals: dict[int, int] = {}
    for hand in Hand.objects.filter(table__round__tournament=tournament):
        for seat, points in hand.points.items():
            reg = seat_of[(hand.table_id, int(seat))]
            totals[reg] = totals.get(reg, 0) + points
    return totals
