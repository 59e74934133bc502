"""Statistics of an evening or a season, from the games' stored outcomes. Pure (stdlib only).

A game comes in as a ``GameFact`` (the caller maps seats to player keys); out come the contract
mix (Rufspiel, Wenz, Farbsolo, Tout, Sie, Muss, thrown-in games and any other contract under its
own name), the solo win rate, the biggest game, Schneider and Schwarz counts and, per player,
games played, declarer share and win rate by contract.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .hand import RUFSPIEL, SOLO, SOLO_CONTRACTS, WEITER, WENZ
from .scoring import SCHNEIDER_MARGIN, WIN_LINE

FARBSOLO = "farbsolo"
TOUT = "tout"
SIE = "sie"
MUSS = "muss"
#: The categories in the order pages and documents show them (others follow by name).
CATEGORIES = (RUFSPIEL, MUSS, WENZ, FARBSOLO, TOUT, SIE, WEITER)


@dataclass(frozen=True, slots=True)
class GameFact:
    tournament: str
    round: int
    table: int
    number: int
    contract: str
    players: tuple[int, ...]  # the player keys who played this game (not the one sitting out)
    points: Mapping[int, int]  # player key -> points of this game
    declarer: int | None = None  # player key
    declarer_won: bool | None = None
    tout: bool = False
    sie: bool = False
    muss: bool = False
    augen: int | None = None  # the declarer side's Augen
    schwarz: bool = False
    win_line: int = WIN_LINE  # the Augen the declarer needed (a Muss may need 60)
    thrown_in: bool = False  # no game came of it (all passed and redealt, a Kreuz replayed)
    schneider: bool | None = None  # as the engine stored it; None: derived from the Augen


def category(game: GameFact) -> str:
    """The contract as players name it: a Sie before a Tout before its base contract."""
    if game.sie:
        return SIE
    if game.tout:
        return TOUT
    if game.contract == RUFSPIEL and game.muss:
        return MUSS
    if game.contract == SOLO:
        return FARBSOLO
    return game.contract


def is_schneider(game: GameFact) -> bool:
    """One side stayed Schneider (Schwarz included); never for Tout, Sie or a thrown-in game."""
    if game.contract == WEITER or game.thrown_in or game.tout or game.sie:
        return False
    if game.schwarz:
        return True
    if game.schneider is not None:
        return game.schneider
    if game.augen is None:
        return False
    return game.augen >= game.win_line + SCHNEIDER_MARGIN or game.augen < game.win_line - SCHNEIDER_MARGIN


def game_size(game: GameFact) -> int:
    """The points that changed hands (what every winner received, summed)."""
    return sum(p for p in game.points.values() if p > 0)


@dataclass(frozen=True, slots=True)
class ContractShare:
    category: str
    games: int
    won: int  # the declarer (side) won


@dataclass(frozen=True, slots=True)
class PlayerGames:
    player: int
    games: int
    declared: int
    won: int
    by_category: tuple[ContractShare, ...]

    @property
    def declarer_share(self) -> float:
        return self.declared / self.games if self.games else 0.0


@dataclass(frozen=True)
class GameStatistics:
    games: int  # every game entered, thrown-in games included
    mix: tuple[ContractShare, ...]  # CATEGORIES order, then others by name; only those played
    solo_games: int
    solo_won: int
    schneider: int
    schwarz: int
    biggest: GameFact | None
    players: Mapping[int, PlayerGames]

    @property
    def solo_win_rate(self) -> float | None:
        return self.solo_won / self.solo_games if self.solo_games else None


def _order(name: str) -> tuple[int, str]:
    return (CATEGORIES.index(name) if name in CATEGORIES else len(CATEGORIES), name)


def game_statistics(games: Iterable[GameFact]) -> GameStatistics:
    played = Counter()
    won = Counter()
    solo_games = solo_won = schneider = schwarz = count = 0
    biggest: GameFact | None = None
    per_player_games: Counter[int] = Counter()
    per_player: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for game in games:
        count += 1
        name = category(game)
        played[name] += 1
        for player in game.players:
            per_player_games[player] += 1
        if game.contract == WEITER or game.thrown_in:
            continue
        if game.declarer_won:
            won[name] += 1
        if game.contract in SOLO_CONTRACTS:
            solo_games += 1
            solo_won += bool(game.declarer_won)
        schneider += is_schneider(game)
        schwarz += bool(game.schwarz)
        if biggest is None or game_size(game) > game_size(biggest):
            biggest = game
        if game.declarer is not None:
            tally = per_player[game.declarer][name]
            tally[0] += 1
            tally[1] += bool(game.declarer_won)
    mix = tuple(ContractShare(name, played[name], won[name]) for name in sorted(played, key=_order))
    players = {}
    for player, total in per_player_games.items():
        tallies = per_player.get(player, {})
        shares = tuple(ContractShare(name, *tallies[name]) for name in sorted(tallies, key=_order))
        players[player] = PlayerGames(
            player=player,
            games=total,
            declared=sum(s.games for s in shares),
            won=sum(s.won for s in shares),
            by_category=shares,
        )
    return GameStatistics(
        games=count,
        mix=mix,
        solo_games=solo_games,
        solo_won=solo_won,
        schneider=schneider,
        schwarz=schwarz,
        biggest=biggest,
        players=players,
    )


def leaders(counts: Mapping[int, int]) -> tuple[tuple[int, ...], int]:
    """The players with the highest count (several share) and that count; ((), 0) for none."""
    best = max(counts.values(), default=0)
    if best <= 0:
        return (), 0
    return tuple(sorted(p for p, n in counts.items() if n == best)), best


__all__ = [
    "CATEGORIES",
    "WENZ",
    "ContractShare",
    "GameFact",
    "GameStatistics",
    "PlayerGames",
    "category",
    "game_size",
    "game_statistics",
    "is_schneider",
    "leaders",
]
