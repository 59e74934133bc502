"""The pure statistics of an evening: contract mix, solo win rate, biggest game, Schneider, per player."""

from scoring.rules.statistics import GameFact, category, game_statistics, is_schneider, leaders

P = (1, 2, 3, 4)


def game(contract, declarer=1, won=True, augen=70, points=None, **extra):
    if points is None:
        points = {1: 3, 2: -1, 3: -1, 4: -1} if won else {1: -3, 2: 1, 3: 1, 4: 1}
    return GameFact(
        tournament="t",
        round=1,
        table=1,
        number=1,
        contract=contract,
        players=P,
        points=points,
        declarer=declarer,
        declarer_won=won,
        augen=augen,
        **extra,
    )


def test_categories():
    assert category(game("rufspiel")) == "rufspiel"
    assert category(game("rufspiel", muss=True)) == "muss"
    assert category(game("solo")) == "farbsolo"
    assert category(game("wenz", tout=True)) == "tout"
    assert category(game("solo", sie=True)) == "sie"
    assert category(game("kreuz")) == "kreuz"  # a contract this module does not know keeps its name


def test_schneider_and_schwarz():
    assert is_schneider(game("rufspiel", augen=91)) and is_schneider(game("rufspiel", augen=30))
    assert not is_schneider(game("rufspiel", augen=90)) and not is_schneider(game("rufspiel", augen=31))
    assert is_schneider(game("solo", augen=120, schwarz=True))
    assert not is_schneider(game("solo", augen=None, tout=True))
    assert is_schneider(game("rufspiel", muss=True, augen=90, win_line=60))


def test_an_evening():
    games = [
        game("rufspiel", declarer=1, won=True, augen=95, points={1: 2, 2: -2, 3: 2, 4: -2}),
        game("solo", declarer=2, won=True, augen=80, points={1: -5, 2: 15, 3: -5, 4: -5}),
        game("wenz", declarer=2, won=False, augen=40, points={1: 4, 2: -12, 3: 4, 4: 4}),
        game("solo", declarer=3, won=True, augen=None, tout=True, points={1: -20, 2: -20, 3: 60, 4: -20}),
        game("weiter", declarer=None, won=None, augen=None, points={1: 0, 2: 0, 3: 0, 4: 0}),
        game("solo", declarer=1, won=True, augen=120, schwarz=True, points={1: 21, 2: -7, 3: -7, 4: -7}),
    ]
    stats = game_statistics(games)
    assert stats.games == 6
    assert [(m.category, m.games, m.won) for m in stats.mix] == [
        ("rufspiel", 1, 1),
        ("wenz", 1, 0),
        ("farbsolo", 2, 2),
        ("tout", 1, 1),
        ("weiter", 1, 0),
    ]
    assert (stats.solo_games, stats.solo_won) == (4, 3) and stats.solo_win_rate == 0.75
    assert (stats.schneider, stats.schwarz) == (2, 1)
    assert stats.biggest is games[3]
    two = stats.players[2]
    assert (two.games, two.declared, two.won) == (6, 2, 1) and round(two.declarer_share, 3) == 0.333
    assert [(s.category, s.games, s.won) for s in two.by_category] == [("wenz", 1, 0), ("farbsolo", 1, 1)]
    assert stats.players[4].declared == 0


def test_leaders():
    assert leaders({1: 2, 2: 3, 3: 3}) == ((2, 3), 3)
    assert leaders({}) == ((), 0)


def test_a_thrown_in_kreuz_counts_as_played_but_not_as_a_game_won_or_lost():
    replayed = game("kreuz", declarer=None, won=None, augen=60, thrown_in=True, points={1: 0, 2: 0, 3: 0, 4: 0})
    stats = game_statistics(
        [replayed, game("kreuz", declarer=None, won=None, augen=None, points={1: 2, 2: -2, 3: 2, 4: -2})]
    )
    assert [(m.category, m.games, m.won) for m in stats.mix] == [("kreuz", 2, 0)]
    assert stats.schneider == 0 and stats.biggest is not replayed


def test_the_stored_schneider_wins_over_the_augen():
    assert not is_schneider(game("rufspiel", augen=95, schneider=False))
    assert is_schneider(game("rufspiel", augen=70, schneider=True))
