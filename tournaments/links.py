"""The table cards' all-evening links: one key per table *number* of a tournament, valid in every round.

The key is ``<tournament id>-<table number>-<signature>``; the signature is an HMAC of the first two
under the site's SECRET_KEY, so no key is stored and none can be guessed or altered into another
table's. (Changing SECRET_KEY invalidates the printed table cards; the per-round links keep working.)

"Neue Tischkarten" raises the tournament's ``table_cards_generation``: the keys of a later
generation carry it, ``<tournament id>-<table number>-<generation>-<signature>``, signed with it, and the
cards of an earlier generation are revoked (the selector compares). Generation 0 keeps the first form,
so cards printed before stay valid until renewed.
"""

from __future__ import annotations

import base64

from django.utils.crypto import constant_time_compare, salted_hmac

SALT = "tournaments.links.table"
SIGNATURE_LENGTH = 22  # 132 bits of the HMAC, URL-safe base64


def _signature(tournament_id: int, number: int, generation: int = 0) -> str:
    text = f"{tournament_id}:{number}" + (f":{generation}" if generation else "")
    digest = salted_hmac(SALT, text, algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).decode()[:SIGNATURE_LENGTH]


def table_link_key(tournament_id: int, number: int, generation: int = 0) -> str:
    """The all-evening key of table ``number`` of the tournament, on the cards of ``generation``."""
    if generation:
        return f"{tournament_id}-{number}-{generation}-{_signature(tournament_id, number, generation)}"
    return f"{tournament_id}-{number}-{_signature(tournament_id, number)}"


def _number(part: str) -> int | None:
    return int(part) if part.isascii() and part.isdigit() and len(part) <= 9 else None


def table_link_parse(key: str) -> tuple[int, int, int] | None:
    """(tournament id, table number, cards' generation) of a genuine key, else None."""
    parts = key.split("-", 3)
    if len(parts) < 3:
        return None
    tournament_id, number = _number(parts[0]), _number(parts[1])
    if tournament_id is None or number is None or number < 1:
        return None
    # a later generation's key; or the first form (whose signature may hold a "-" itself)
    generation = _number(parts[2]) if len(parts) == 4 else None
    if generation and constant_time_compare(parts[3], _signature(tournament_id, number, generation)):
        return tournament_id, number, generation
    if constant_time_compare(key.split("-", 2)[2], _signature(tournament_id, number)):
        return tournament_id, number, 0
    return None
