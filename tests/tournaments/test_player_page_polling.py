"""The player's own page is polled by every phone in the hall: unchanged, it is a 304 before rendering."""

import uuid

import pytest

from tests.tournaments.test_links import draw_and_publish, play_round, player_url, tournament  # noqa: F401
from tournaments.services.hands import dealer_for, hand_record
from tournaments.simulation import random_hand

pytestmark = pytest.mark.django_db


def test_an_unchanged_player_page_is_a_304_and_a_game_at_his_table_changes_it(client, tournament):
    play_round(tournament)
    second = draw_and_publish(tournament)
    registration = tournament.registrations.order_by("start_number").first()
    url = player_url(registration)
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert first.status_code == 200 and first["Content-Encoding"] == "gzip" and "no-cache" in first["Cache-Control"]
    tag = first["ETag"]
    again = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and not again.content
    table = second.seats.select_related("table").get(registration=registration).table
    record = random_hand(__import__("random").Random(1), table_size=table.size, dealer=dealer_for(1, 0, table.size))
    hand_record(table=table, record=record, client_id=uuid.uuid4())
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    assert client.get("/s/no-such-key/").status_code == 404
