"""The night's rules in sentences, as the tournament prints them (the rules sheet): rules.md section 2's
cases of a player who leaves and a table that cannot finish, each in the wording of the option chosen."""

from django.utils.translation import gettext as _

from scoring.rules.ruleset import Ruleset


def night_rules(rules: Ruleset) -> tuple[str, ...]:
    """What happens when a player leaves or a table stops early, under this ruleset (German or English)."""
    games, five = rules.games_per_round, rules.games_per_round * 5 // 4
    if rules.substitute_points == "frozen":
        substitute = _(
            "A player who leaves may be replaced by a substitute. The leaving player's points are "
            'frozen: he stays in the standings with the games he played, marked "left in round r". '
            "The substitute's games count for his table (the other players' points stand) but give "
            "him no place of his own."
        )
    else:
        substitute = _(
            "A player who leaves may be replaced by a substitute, who takes over his seat and his "
            'points; every list shows the row as "<substitute> (for <player>)". Whether the '
            "substitute pays an entry fee is asked at the desk (usually not: the seat was paid)."
        )
    if rules.closed_table_points == "scaled":
        closed = _(
            "A table the organiser closes early (a player fell ill, the hall closes) keeps the games it "
            "played. Its players' points of that round are scaled to the full round (points × %(games)d / "
            "games played, rounded half away from zero); the standings say so."
        ) % {"games": games}
    else:
        closed = _(
            "A table the organiser closes early (a player fell ill, the hall closes) keeps the games it "
            'played; they count as played. The standings and the score sheet say "24 of %(games)d '
            'games" and why.'
        ) % {"games": games}
    four = _(
        "A table of five that loses a player plays on with the four others from the next game, nobody "
        "sitting out; the deal passes on clockwise over the four. It plays until each of the four has "
        "played %(games)d games in the round (the one who played most so far exactly %(games)d, the others "
        "at most one fewer), instead of %(five)d games. The leaving player keeps the games he played."
    ) % {"games": games, "five": five}
    return substitute, closed, four
