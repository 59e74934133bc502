"""The statistics of an evening and of a season, from the database, equal counts made here from each
tournament's archive: contract mix, solo win rate, Schneider and Schwarz, the biggest game, the most
frequent Tischbester, and per player games, declarer share and wins by contract.

The archive is read with the rules of rules.md (win line 61, a Muss wins with 60; Schneider at 91 / 30,
for a Muss 90 / under 30), so the database's mapping of seats, dealers and stored outcomes is checked
against an independent reading, not against itself.
"""

from collections import Counter, defaultdict

import pytest
from django.urls import reverse
from django.utils import translation

from tournaments.archive import archive_build
from tournaments.selectors.series import (
    player_games,
    player_history,
    series_standings,
    series_statistics,
    statistics_facts,
    tournament_statistics,
)

from .conftest import make_series

pytestmark = pytest.mark.django_db

SOLOS = {"wenz", "solo"}


def category(hand: dict) -> str:
    if hand.get("sie"):
        return "sie"
    if hand.get("tout"):
        return "tout"
    if hand.get("muss"):
        return "muss"
    return {"solo": "farbsolo"}.get(hand["contract"], hand["contract"])


def schneider(hand: dict, muss_win: int) -> bool:
    if hand["contract"] == "weiter" or hand.get("tout") or hand.get("sie") or "points" not in hand:
        return False
    if hand.get("schwarz"):
        return True
    augen = hand["augen"]
    if hand.get("muss") and muss_win == 60:
        return augen >= 90 or augen < 30
    return augen >= 91 or augen <= 30


def count(archives: list[dict]) -> dict:
    """Everything the statistics show, counted from the archives (names as keys)."""
    mix: Counter[str] = Counter()
    solo_games = solo_won = schneider_count = schwarz = 0
    biggest = (0, None)
    games: Counter[str] = Counter()
    declared: dict[str, Counter[str]] = defaultdict(Counter)
    won: dict[str, Counter[str]] = defaultdict(Counter)
    tischbester: Counter[str] = Counter()
    won_solos: Counter[tuple[str, str]] = Counter()
    for archive in archives:
        names = {p["start_number"]: p["name"] for p in archive["players"]}
        muss_win = archive["rules"].get("muss_win", 60)
        slug = archive["tournament"]["slug"]
        for rnd in archive["rounds"]:
            for table in rnd["tables"]:
                seat_name = {int(seat): names[start] for seat, start in table["seats"].items()}
                totals: Counter[int] = Counter()
                for hand in table["hands"]:
                    kind = category(hand)
                    mix[kind] += 1
                    for seat, name in seat_name.items():
                        if not (len(seat_name) == 5 and seat == hand["dealer"]):
                            games[name] += 1
                    if "points" not in hand:  # thrown in
                        continue
                    for seat, value in hand["points"].items():
                        totals[int(seat)] += value
                    declarer = seat_name[hand["declarer"]]
                    declarer_won = hand["points"][str(hand["declarer"])] > 0  # plus-minus scoring
                    declared[declarer][kind] += 1
                    won[declarer][kind] += declarer_won
                    if hand["contract"] in SOLOS:
                        solo_games += 1
                        solo_won += declarer_won
                        won_solos[(declarer, slug)] += declarer_won
                    schneider_count += schneider(hand, muss_win)
                    schwarz += bool(hand.get("schwarz"))
                    size = sum(v for v in hand["points"].values() if v > 0)
                    if size > biggest[0]:
                        biggest = (size, declarer)
                best = max(totals[seat] for seat in seat_name)
                for seat, name in seat_name.items():
                    if totals[seat] == best:
                        tischbester[name] += 1
    return {
        "mix": dict(mix),
        "solo": (solo_games, solo_won),
        "schneider": schneider_count,
        "schwarz": schwarz,
        "biggest": biggest,
        "games": dict(games),
        "declared": {n: dict(c) for n, c in declared.items()},
        "won": {n: dict(c) for n, c in won.items()},
        "tischbester": dict(tischbester),
        "won_solos": won_solos,
    }


def shown(stats) -> dict:
    """The same figures as the selectors give them (names as keys)."""
    games = stats.games
    by_player = {stats.name(p): g for p, g in games.players.items()}
    return {
        "mix": {m.category: m.games for m in games.mix},
        "solo": (games.solo_games, games.solo_won),
        "schneider": games.schneider,
        "schwarz": games.schwarz,
        "biggest": (stats.biggest_size, stats.biggest_declarer),
        "games": {name: g.games for name, g in by_player.items()},
        "declared": {name: {s.category: s.games for s in g.by_category} for name, g in by_player.items() if g.declared},
        "won": {name: {s.category: s.won for s in g.by_category} for name, g in by_player.items() if g.declared},
    }


def leaders(tischbester: dict[str, int]) -> tuple[tuple[str, ...], int]:
    best = max(tischbester.values())
    return tuple(sorted(n for n, c in tischbester.items() if c == best)), best


def compare(stats, expected: dict) -> None:
    got = shown(stats)
    for key in ("mix", "solo", "schneider", "schwarz", "games", "declared", "won"):
        assert got[key] == expected[key], key
    assert got["biggest"][0] == expected["biggest"][0]
    assert sorted(stats.tischbester_leaders[0]) == list(leaders(expected["tischbester"])[0])
    assert stats.tischbester_leaders[1] == leaders(expected["tischbester"])[1]


def test_each_evenings_statistics_equal_the_archive(season_tournaments):
    for tournament in season_tournaments:
        archive = archive_build(tournament)
        expected = count([archive])
        stats = tournament_statistics(tournament)
        compare(stats, expected)
        assert sum(expected["mix"].values()) == stats.games.games == 2 * 2 * 8  # two rounds, two tables, 8 games
        assert stats.steps == ["1", "2"]  # the progression goes round by round
        placings = {row["start_number"]: row for row in archive["standings"]}
        names = {p["start_number"]: p["name"] for p in archive["players"]}
        top = sorted(placings.values(), key=lambda r: r["rank"])[: len(stats.progression)]
        assert [name for name, _line in stats.progression] == [names[r["start_number"]] for r in top]
        assert [line[-1] for _name, line in stats.progression] == [r["points"] for r in top]


def test_the_seasons_statistics_equal_the_archives(club, season_tournaments, client):
    series = make_series(club, season_tournaments, public=True)
    data = series_standings(series)
    stats = series_statistics(data)
    archives = [archive_build(t) for t in season_tournaments]
    expected = count(archives)
    compare(stats, expected)
    assert stats.games.solo_games == expected["solo"][0] > 0  # the simulation plays solos
    assert stats.steps == [t.name for t in season_tournaments]  # the progression goes tournament by tournament
    # the biggest game of a season names its evening as well as its round and table
    big = stats.games.biggest
    evening = next(t for t in season_tournaments if t.slug == big.tournament)
    with translation.override("en"):
        biggest = dict(statistics_facts(stats))["Biggest game"]
        assert biggest.endswith(f"({evening.name}, round {big.round}, table {big.table})")
        alone = dict(statistics_facts(tournament_statistics(evening)))["Biggest game"]
        assert alone.endswith(f"(round {big.round}, table {big.table})")  # an evening's own page needs no name

    html = client.get(reverse("tournaments:series", args=[series.slug]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    solo_games, solo_won = expected["solo"]
    assert f"{round(100 * solo_won / solo_games)} % ({solo_won}/{solo_games})" in html
    names, most = leaders(expected["tischbester"])
    assert f"{', '.join(names)} ({most}\u00d7)" in html
    # The per-player table: games, declarer share and wins by contract of a player who declared.
    name = max(expected["declared"], key=lambda n: sum(expected["declared"][n].values()))
    share = round(100 * sum(expected["declared"][name].values()) / expected["games"][name])
    assert f'<tr><td>{name}</td><td class="num">{expected["games"][name]}</td><td class="num">{share} %</td>' in html


def test_a_players_own_games_and_his_history_equal_the_archives(people, season_tournaments):
    archives = [archive_build(t) for t in season_tournaments]
    expected = count(archives)
    for person in people:
        history = player_history(person)
        games = player_games(person, history)
        name = person.name
        assert games["games"] == expected["games"][name]
        declared = expected["declared"].get(name, {})
        assert games["declared"] == sum(declared.values())
        assert games["won"] == sum(expected["won"].get(name, {}).values())
        assert games["share"] == round(100 * games["declared"] / games["games"])
        by_contract = {label: (played, won) for label, played, won in games["by_category"]}
        assert sum(played for played, _won in by_contract.values()) == games["declared"]
        for row in history.rows:  # won solos and Tischbester per evening, counted in the archive's games
            assert row.won_solos == expected["won_solos"][(name, row.tournament.slug)]
        tables_won = {}
        for archive in archives:
            names = {p["start_number"]: p["name"] for p in archive["players"]}
            tables_won[archive["tournament"]["slug"]] = sum(
                1
                for rnd in archive["rounds"]
                for table in rnd["tables"]
                if name in {names[s] for s in table["seats"].values()} and _table_best(table, names, name)
            )
        assert {r.tournament.slug: r.tischbester for r in history.rows} == {
            slug: n for slug, n in tables_won.items() if slug in {r.tournament.slug for r in history.rows}
        }
    assert sum(expected["tischbester"].values()) >= 4 * 2 * 2  # every table of every round has one at least


def _table_best(table: dict, names: dict, name: str) -> bool:
    totals: Counter[str] = Counter()
    for hand in table["hands"]:
        for seat, value in hand.get("points", {}).items():
            totals[names[table["seats"][seat]]] += value
    for start in table["seats"].values():
        totals.setdefault(names[start], 0)
    return totals[name] == max(totals.values())


def test_at_a_table_of_five_the_dealer_sitting_out_has_not_played_the_game(club, people):
    import datetime

    from tournaments.services.registration import registration_create
    from tournaments.services.simulation import tournament_play
    from tournaments.services.tournament import tournament_create

    tournament = tournament_create(
        club=club,
        name="Neunerrennen",
        slug="neuner",
        date=datetime.date(2026, 6, 1),
        rules={"rounds": 2, "games_per_round": 8},
    )
    for person in people[:9]:
        registration_create(tournament=tournament, player=person, paid=True, checked_in=True)
    tournament = tournament_play(tournament=tournament, seed=99)
    archive = archive_build(tournament)
    assert sorted(len(t["seats"]) for t in archive["rounds"][0]["tables"]) == [4, 5]
    expected = count([archive])
    compare(tournament_statistics(tournament), expected)
    # a table of five deals 10 games, each player sits 2 of them out: 8 games a round for everyone
    assert set(expected["games"].values()) == {16}
