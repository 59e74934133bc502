"""German name order, one algorithm for the screen and for print. Pure.

DIN 5007-1 ("phone-book" order as a German reader looks names up): umlauts sort with their base
letter (Ächter under A), ß as ss, case and accents ignored. A person sorts by last name, then first
name; the two are compared apart, so "Ab" always comes before "Ab C" whatever the first names are.
"""

from __future__ import annotations

import unicodedata


def german_fold(text: str) -> str:
    """``text`` as it compares: case-folded (ß becomes ss), accents and umlaut dots dropped."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def name_sort_key(last_name: str, first_name: str = "") -> tuple[str, str]:
    """The key a person's name sorts by: (last name, first name), each folded."""
    return german_fold(last_name), german_fold(first_name)


def name_initial(last_name: str, empty: str = "#") -> str:
    """The letter a name is listed under (A for Ächter); ``empty`` for a name without letters."""
    return (german_fold(last_name)[:1] or empty).upper()


def namesake_suffixes(people) -> dict:
    """What tells namesakes apart on every list: ``people`` are (key, name, start number, club) of one
    tournament's registrations; a name two or more of them share (compared as ``german_fold`` compares)
    gets its start number, and its club too when the namesakes' clubs differ: key -> " (12)" or
    " (12, SK Öd)". Names nobody shares get nothing (they are not in the result)."""
    groups: dict[str, list] = {}
    for person in people:
        groups.setdefault(german_fold(" ".join(person[1].split())), []).append(person)
    suffixes = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        clubs_differ = len({club for _key, _name, _number, club in group}) > 1
        for key, _name, number, club in group:
            suffixes[key] = f" ({number}, {club})" if clubs_differ and club else f" ({number})"
    return suffixes
