"""How a game is described ("Rufspiel mit der Gras-Sau", "Herz-Solo Tout", "1+3 über Kreuz"), as codes. Pure.

``describe_hand`` says what kind of game a stored or entered game was and which of its details a
reader is told; the words come from the Django layer (``scoring.describe``), which renders the
same description on the tablet's sheet and on the printed score sheet.
"""

from __future__ import annotations

from dataclasses import dataclass

from .hand import KREUZ, RUFSPIEL, SOLO, WEITER, WENZ

#: The kinds of game a description names.
GAMES = ("rufspiel", "muss", "kreuz", "wenz", "solo", "sie", "weiter", "kreuz_replay")


@dataclass(frozen=True, slots=True)
class HandDescription:
    """What a reader is told about a game; every value is a code, never text."""

    game: str  # one of GAMES; "weiter" and "kreuz_replay" are Striche (thrown in)
    suit: str | None = None  # the called Sau (Rufspiel, Muss) or the trump suit (Farbsolo; a Sie's if entered)
    tout: bool = False
    renonce: bool = False
    schwarz: bool = False
    kontra: int = 0  # 1 = Kontra, 2 = Kontra and Re
    pair: tuple[int, ...] = ()  # über Kreuz: the declaring pair's seats as entered, lower seat first
    augen: int | None = None  # a replayed Kreuz: its Augen (60:60)

    @property
    def thrown_in(self) -> bool:
        return self.game in ("weiter", "kreuz_replay")

    @property
    def kontra_factor(self) -> int:
        return 2**self.kontra


def describe_hand(
    *,
    contract: str,
    muss: bool | None = False,
    called: str | None = None,
    trump: str | None = None,
    tout: bool | None = False,
    sie: bool | None = False,
    renonce: bool | None = False,
    schwarz: bool | None = False,
    kontra: int | None = 0,
    declarer: int | None = None,
    partner: int | None = None,
    augen: int | None = None,
    thrown_in: bool = False,
) -> HandDescription:
    """The description of a game from its record's fields (``partner`` über Kreuz: the seat opposite)."""
    if contract == WEITER:
        return HandDescription(game="weiter")
    extra = {"schwarz": bool(schwarz), "kontra": kontra or 0}
    if contract == KREUZ:
        if thrown_in:
            return HandDescription(game="kreuz_replay", augen=augen)
        pair = tuple(sorted(seat for seat in (declarer, partner) if seat))
        return HandDescription(game="kreuz", pair=pair, **extra)
    if contract == RUFSPIEL:
        return HandDescription(game="muss" if muss else "rufspiel", suit=called, renonce=bool(renonce), **extra)
    if contract == WENZ:
        return HandDescription(game="wenz", tout=bool(tout), **extra)
    if contract == SOLO:
        return HandDescription(game="sie" if sie else "solo", suit=trump, tout=bool(tout) and not sie, **extra)
    return HandDescription(game=contract, **extra)  # not a contract of the ruleset: named as entered
