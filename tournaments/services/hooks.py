"""What follows a committed change to a tournament's games."""
from scoring.schedule import standings_schedule_on_commit


def tournament_changed(tournament_id: int) -> None:
    """Called inside a service's transaction whenever games, totals or seats of a tournament change.

    After the commit one standings recompute is scheduled (coalesced with others of the same burst).
    """
    standings_schedule_on_commit(tournament_id)
