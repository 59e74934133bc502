"""What follows a committed change to a tournament's games."""

from .schedule import standings_schedule_on_commit


def tournament_changed(tournament_id: int, table_id: int | None = None) -> None:
    """Called inside a service's transaction whenever games, totals or seats of a tournament change.

    With ``table_id`` (a game or a paper sheet at that table) the table is merged into the standings
    after the commit; without it (the players changed) the standings are recomputed.
    """
    standings_schedule_on_commit(tournament_id, None if table_id is None else [table_id])
