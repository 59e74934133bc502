"""The table cards' all-evening links: one key per table *number* of a tournament, valid in every round.

The key is ``<tournament id>-<table number>-<signature>``; the signature is an HMAC of the first two
under the site's SECRET_KEY, so no key is stored and none can be guessed or altered into another
table's. (Changing SECRET_KEY invalidates the printed table cards; the per-round links keep working.)
"""
from __future__ import annotations

import base64

from django.utils.crypto import constant_time_compare, salted_hmac

SALT = "tournaments.links.table"
SIGNATURE_LENGTH = 22  # 132 bits of the HMAC, URL-safe base64


def _signature(tournament_id: int, number: int) -> str:
    digest = salted_hmac(SALT, f"{tournament_id}:{number}", algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).decode()[:SIGNATURE_LENGTH]


def table_link_key(tournament_id: int, number: int) -> str:
    """The all-evening key of table ``number`` of the tournament."""
    return f"{tournament_id}-{number}-{_signature(tournament_id, number)}"


def table_link_parse(key: str) -> tuple[int, int] | None:
    """(tournament id, table number) of a genuine key, else None."""
    parts = key.split("-", 2)
    if len(parts) != 3 or not all(part.isascii() and part.isdigit() and len(part) <= 9 for part in parts[:2]):
        return None
    tournament_id, number = int(parts[0]), int(parts[1])
    if number < 1 or not constant_time_compare(parts[2], _signature(tournament_id, number)):
        return None
    return tournament_id, number
