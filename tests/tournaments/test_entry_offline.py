"""The table page's server side of offline-first entry: the service worker and manifest, the page's
version for polling (304 while nothing changed), the same game from two devices, and a conflict
resolved by keeping one version (the other a revision)."""

import uuid

import pytest
from django.urls import reverse

from tests.tournaments.test_services_hands import make_table, rufspiel
from tournaments.http import error_status
from tournaments.models import HandRevision
from tournaments.services.conflicts import hand_conflict_resolve
from tournaments.services.errors import ServiceError
from tournaments.services.hands import hand_record

pytestmark = pytest.mark.django_db

WENZ = {"contract": "wenz", "declarer": 3, "augen": 80}


def test_the_service_worker_is_served_under_tisch_with_workbox_from_static(client):
    response = client.get(reverse("tournaments:entry_service_worker"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"  # the all-evening links too (tk/..., s/.../tisch/)
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    body = response.content.decode()
    assert 'importScripts("/static/vendor/workbox-7.4.1/workbox-sw.js")' in body
    assert "/static/vendor/workbox-7.4.1/workbox-strategies.prod.js" in body
    assert "NetworkFirst" in body


def test_the_manifest_makes_the_table_page_installable(client):
    table = make_table()
    response = client.get(reverse("tournaments:entry_manifest", args=[table.entry_key]), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = response.json()
    page = f"/tisch/{table.entry_key}/"
    assert data["start_url"] == page and data["scope"] == page and data["display"] == "standalone"
    assert data["short_name"] == "Tisch 1"
    assert {(i["sizes"], i.get("purpose", "any")) for i in data["icons"]} == {
        ("192x192", "any"),
        ("512x512", "any"),
        ("512x512", "maskable"),
    }
    assert client.get(reverse("tournaments:entry_manifest", args=["nope"])).status_code == 404
    page_html = client.get(page).content.decode()
    assert f'<link rel="manifest" href="{page}manifest.webmanifest">' in page_html


def test_the_page_answers_304_until_the_table_changes(client):
    table = make_table()
    url = f"/tisch/{table.entry_key}/"
    first = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag, HTTP_ACCEPT_LANGUAGE="de").status_code == 304
    hand_record(table=table, record=rufspiel(1), client_id=uuid.uuid4())
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag, HTTP_ACCEPT_LANGUAGE="de")
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert 'data-next="2"' in changed.content.decode()


def test_the_same_game_from_two_devices_is_one_game_not_a_conflict():
    table = make_table()
    first, _ = hand_record(table=table, record=rufspiel(1), client_id=uuid.uuid4(), number=1)
    again, created = hand_record(table=table, record=rufspiel(1), client_id=uuid.uuid4(), number=1)
    assert again == first and not created and table.hands.count() == 1
    with pytest.raises(ServiceError) as err:
        hand_record(table=table, record=WENZ, client_id=uuid.uuid4(), number=1)
    assert error_status(err.value) == 409 and err.value.code == "number_taken"


def test_keeping_the_rival_version_changes_the_game_and_keeps_the_stored_one_as_a_revision():
    table = make_table()
    hand, _ = hand_record(table=table, record=rufspiel(1), client_id=uuid.uuid4(), number=1)
    cid = uuid.uuid4()
    kept = hand_conflict_resolve(hand=hand, record=WENZ, keep="rival", client_id=cid, device="phone")
    assert kept.contract == "wenz" and kept.declarer == 3 and kept.points["3"] > 0
    revision = HandRevision.objects.get(action="conflict")
    assert revision.old["contract"] == "rufspiel" and revision.new["contract"] == "wenz"
    # A retry of the same tap changes nothing.
    hand_conflict_resolve(hand=kept, record=WENZ, keep="rival", client_id=cid)
    assert HandRevision.objects.filter(action="conflict").count() == 1


def test_keeping_the_stored_version_sets_the_rival_aside_with_its_points():
    table = make_table()
    hand, _ = hand_record(table=table, record=rufspiel(1), client_id=uuid.uuid4(), number=1)
    hand_conflict_resolve(hand=hand, record=WENZ, keep="stored", client_id=uuid.uuid4())
    hand.refresh_from_db()
    assert hand.contract == "rufspiel"
    revision = HandRevision.objects.get(action="conflict")
    assert revision.old["contract"] == "wenz" and revision.old["points"]["3"] > 0
    assert revision.new["contract"] == "rufspiel"


def test_a_conflict_needs_a_choice_and_a_valid_rival_to_keep_it():
    table = make_table()
    hand, _ = hand_record(table=table, record=rufspiel(1), client_id=uuid.uuid4(), number=1)
    with pytest.raises(ServiceError) as err:
        hand_conflict_resolve(hand=hand, record=WENZ, keep="both", client_id=uuid.uuid4())
    assert err.value.field == "keep"
    with pytest.raises(ServiceError) as err:
        hand_conflict_resolve(hand=hand, record={**WENZ, "augen": 130}, keep="rival", client_id=uuid.uuid4())
    assert err.value.field == "augen"
    assert not HandRevision.objects.filter(action="conflict").exists()
    hand.refresh_from_db()
    assert hand.contract == "rufspiel"


def test_the_conflict_view_names_the_field_and_keeps_the_chosen_version(client):
    table = make_table()
    hand, _ = hand_record(table=table, record=rufspiel(1), client_id=uuid.uuid4(), number=1)
    url = reverse("tournaments:entry_conflict", args=[table.entry_key, 1])
    form = {"contract": "wenz", "declarer": "3", "augen": "80", "number": "1", "client_id": str(uuid.uuid4())}
    bad = client.post(url, {**form, "keep": ""}, HTTP_ACCEPT="application/json")
    assert bad.status_code == 400 and list(bad.json()["errors"]) == ["keep"]
    no_id = client.post(url, {**form, "client_id": "", "keep": "rival"}, HTTP_ACCEPT="application/json")
    assert no_id.status_code == 400 and "client_id" in no_id.json()["errors"]
    ok = client.post(url, {**form, "keep": "rival"}, HTTP_ACCEPT="application/json")
    assert ok.status_code == 200 and ok.json()["ok"]
    hand.refresh_from_db()
    assert hand.contract == "wenz"
    assert client.post(reverse("tournaments:entry_conflict", args=[table.entry_key, 9]), form).status_code == 404


def test_the_table_card_link_answers_304_until_its_table_changes(client):
    from tournaments.links import table_link_key

    table = make_table()
    url = reverse("tournaments:table_link", args=[table_link_key(table.round.tournament_id, table.number)])
    first = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert first.status_code == 200
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], HTTP_ACCEPT_LANGUAGE="de").status_code == 304
    hand_record(table=table, record=rufspiel(1), client_id=uuid.uuid4())
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], HTTP_ACCEPT_LANGUAGE="de")
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    table.round.status = "closed"
    table.round.save()
    assert client.get(url, HTTP_IF_NONE_MATCH=changed["ETag"], HTTP_ACCEPT_LANGUAGE="de").status_code == 200


def test_keeping_the_rival_after_the_table_confirmed_asks_for_the_confirmations_again():
    from tests.tournaments.test_services_hands import fill
    from tournaments.services.hands import table_confirm

    table = make_table(rules={"games_per_round": 8})
    fill(table, 8)
    for seat in range(1, 5):
        table_confirm(table=table, seat=seat)
    hand = table.hands.get(number=3)
    hand_conflict_resolve(hand=hand, record=WENZ, keep="rival", client_id=uuid.uuid4())
    table.refresh_from_db()
    assert not table.confirmations.exists() and table.completed_at is None
    assert table.reconfirm_game == 3


def test_a_seat_swap_before_play_changes_the_page(client):
    """The names on the sheet follow the seats: a swap (new seats) is a new page, not a 304."""
    from tournaments.services.rounds import seat_swap

    table = make_table()
    url = f"/tisch/{table.entry_key}/"
    first = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    one, two = table.seats.order_by("number")[:2]
    seat_swap(round=table.round, first=one.registration, second=two.registration)
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], HTTP_ACCEPT_LANGUAGE="de")
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=changed["ETag"], HTTP_ACCEPT_LANGUAGE="de").status_code == 304
