"""Plausible random games for rehearsals and benchmarks. Pure: randomness comes in as random.Random."""

import random
from typing import Any

from scoring.rules.seats import active_seats
from scoring.rules.table import sits_out

SUITS_CALLABLE = ("eichel", "gras", "schellen")
SUITS = ("eichel", "gras", "herz", "schellen")


def _augen(rng: random.Random, mean: float, spread: float) -> int:
    return max(0, min(120, round(rng.gauss(mean, spread))))


def random_hand(
    rng: random.Random,
    *,
    table_size: int,
    dealer: int,
    muss_allowed: bool = True,
    tout_allowed: bool = True,
    sie_allowed: bool = True,
    all_pass: str | None = None,
) -> dict[str, Any]:
    """One game as a table would enter it: mostly Rufspiele, some solos, the odd Muss and Tout.

    When all passed (about one game in 25): a Muss, or with ``all_pass`` "kreuz" a game über Kreuz
    (the Vorhand's pair mostly, now and then 60:60) and with "redeal" a thrown-in game.
    """
    active = list(active_seats(table_size, sits_out(dealer, table_size)))
    declarer = rng.choice(active)
    roll = rng.random()
    if all_pass in ("kreuz", "redeal") and 0.70 <= roll < 0.74:
        if all_pass == "redeal":
            return {"contract": "weiter"}
        vorhand = dealer % table_size + 1
        augen = 60 if rng.random() < 0.15 else _augen(rng, 62, 22)
        hand = {
            "contract": "kreuz",
            "declarer": vorhand if rng.random() < 0.8 else declarer,
            "augen": augen,
            "laufende": rng.choice((0, 0, 0, 3, 4)),
        }
        if augen in (0, 120) and rng.random() < 0.5:
            hand["schwarz"] = True
        return hand
    if roll < 0.70 or (roll < 0.74 and not muss_allowed):
        partner = rng.choice([s for s in active if s != declarer])
        hand = {
            "contract": "rufspiel",
            "declarer": declarer,
            "partner": partner,
            "called": rng.choice(SUITS_CALLABLE),
            "augen": _augen(rng, 68, 22),
        }
        hand["laufende"] = rng.choice((0, 0, 0, 0, 0, 1, 2, 3, 3, 4))
    elif roll < 0.74:
        partner = rng.choice([s for s in active if s != declarer])
        hand = {
            "contract": "rufspiel",
            "declarer": declarer,
            "partner": partner,
            "muss": True,
            "called": rng.choice(SUITS_CALLABLE),
            "called_card": "sau",
            "renonce": rng.random() < 0.2,
            "augen": _augen(rng, 55, 20),
            "laufende": rng.choice((0, 0, 0, 3)),
        }
    elif roll < 0.84:
        hand = {
            "contract": "wenz",
            "declarer": declarer,
            "augen": _augen(rng, 78, 20),
            "laufende": rng.choice((0, 1, 2, 2, 3, 4)),
        }
    elif tout_allowed and roll < 0.855:
        contract = rng.choice(("wenz", "solo"))
        hand = {
            "contract": contract,
            "declarer": declarer,
            "tout": True,
            "won": rng.random() < 0.8,
            "laufende": rng.choice((2, 3, 4)) if contract == "wenz" else rng.choice((3, 4, 5, 6)),
        }
        if contract == "solo":
            hand["trump"] = rng.choice(SUITS)
    elif sie_allowed and roll < 0.8555:
        hand = {"contract": "solo", "declarer": declarer, "trump": rng.choice(SUITS), "sie": True}
    else:
        hand = {
            "contract": "solo",
            "declarer": declarer,
            "trump": rng.choice(SUITS),
            "augen": _augen(rng, 76, 20),
            "laufende": rng.choice((0, 1, 2, 3, 3, 4, 5)),
        }
    augen = hand.get("augen")
    if augen in (0, 120) and rng.random() < 0.5:
        hand["schwarz"] = True
    return hand


FIRST_NAMES = (
    "Anna",
    "Josef",
    "Maria",
    "Franz",
    "Theresa",
    "Michael",
    "Johanna",
    "Georg",
    "Resi",
    "Sepp",
    "Barbara",
    "Xaver",
    "Kathrin",
    "Alois",
    "Monika",
    "Ludwig",
    "Veronika",
    "Korbinian",
    "Elisabeth",
    "Andreas",
    "Magdalena",
    "Quirin",
    "Martin",
    "Rosa",
    "Florian",
    "Gertraud",
    "Benedikt",
    "Walburga",
)
LAST_NAMES = (
    "Huber",
    "Bauer",
    "Maier",
    "Wimmer",
    "Gruber",
    "Hofer",
    "Brandl",
    "Reiter",
    "Lechner",
    "Kainz",
    "Moser",
    "Obermeier",
    "Pichler",
    "Stadler",
    "Fischer",
    "Schuster",
    "Eder",
    "Zehetmair",
    "Weiß",
    "Strobl",
    "Rieder",
    "Ächter",
    "Hartl",
    "Schmid",
    "Forster",
    "Aigner",
    "Lindner",
    "Brunner",
    "Sedlmeier",
)


def random_name(rng: random.Random) -> tuple[str, str]:
    return rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
