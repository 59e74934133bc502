"""The archive in the console: download, and upload validated first (the bad path named, nothing written)."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from scoring.models import StandingsSnapshot
from tournaments.models import ClubMembership, Table, TableConfirmation, Tournament
from tournaments.services.hands import table_confirm, table_paper_totals, table_sheet_record
from tournaments.services.rounds import round_draw, round_publish
from tournaments.services.simulation import round_simulate, tournament_simulate_setup
from tournaments.services.tables import table_close
from tournaments.simulation import random_hand

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def evening():
    """Round 1 played and closed; round 2 running: a table on paper totals, a table closed with a reason,
    a table half confirmed."""
    import random

    tournament = tournament_simulate_setup(slug="archiv-abend", players=16, rounds=2, games=8, seed=3)
    (first,) = round_draw(tournament=tournament, seed=1)
    round_simulate(rnd=first, seed=2)
    (second,) = round_draw(tournament=tournament, seed=4)
    round_publish(round=second)
    t1, t2, t3, _t4 = second.tables.order_by("number")
    table_paper_totals(table=t1, totals={"1": 10, "2": -5, "3": -5, "4": 0}, by=None, reason="")
    rng = random.Random(7)
    for table in (t2, t3):
        table_sheet_record(
            table=table, records=[random_hand(rng, table_size=4, dealer=(n - 1) % 4 + 1) for n in range(1, 9)]
        )
    table_confirm(table=t3, seat=1)
    table_confirm(table=t3, seat=3)
    user = get_user_model().objects.create_user("archivar", password="pw")
    ClubMembership.objects.create(user=user, club=tournament.club, role=ClubMembership.Role.ORGANISER)
    table_close(table=t2, by=user, reason="Spieler 2 musste heim")
    client = Client()
    client.force_login(user)
    return tournament, client


def upload(client, doc, slug="", club=None, tournament=None):
    data = {
        "file": SimpleUploadedFile("archiv.json", json.dumps(doc).encode(), "application/json"),
        "club": club or tournament.club_id,
        "slug": slug,
    }
    return client.post("/o/neu/archiv/", data, **EN)


def test_download_and_upload_keep_confirmations_paper_totals_and_show_the_standings_at_once(evening):
    tournament, client = evening
    response = client.get(f"/o/{tournament.slug}/archiv.json")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    doc = json.loads(response.content)
    # a running tournament's download holds none of its keys (they open its tables and players' pages)
    keys = [
        *Table.objects.filter(round__tournament=tournament).values_list("entry_key", flat=True),
        *tournament.registrations.values_list("key", flat=True),
    ]
    assert keys and not [key for key in keys if key and key in response.content.decode()]
    response = upload(client, doc, slug="archiv-kopie", tournament=tournament)
    assert response.status_code == 302 and response["Location"] == "/t/archiv-kopie/rangliste/"
    copy = Tournament.objects.get(slug="archiv-kopie")
    new_keys = [
        *Table.objects.filter(round__tournament=copy).values_list("entry_key", flat=True),
        *copy.registrations.values_list("key", flat=True),
    ]
    assert len(new_keys) == len(keys) and all(new_keys) and not set(new_keys) & set(keys)  # new ones made
    assert copy.club == tournament.club
    for table in Table.objects.filter(round__tournament=tournament):
        twin = Table.objects.get(round__tournament=copy, round__number=table.round.number, number=table.number)
        assert twin.paper_totals == table.paper_totals and twin.closed_reason == table.closed_reason
        assert sorted(TableConfirmation.objects.filter(table=twin).values_list("seat", flat=True)) == sorted(
            table.confirmations.values_list("seat", flat=True)
        )
        assert (twin.completed_at is None) == (table.completed_at is None)
    assert StandingsSnapshot.objects.filter(tournament=copy).exists()  # standings at once
    page = client.get("/t/archiv-kopie/rangliste/", **EN).content.decode()
    first = StandingsSnapshot.objects.get(tournament=copy).overall[0]
    assert first["name"] in page


def test_a_bad_archive_names_the_path_and_writes_nothing(evening):
    tournament, client = evening
    good = json.loads(client.get(f"/o/{tournament.slug}/archiv.json").content)
    doc = json.loads(json.dumps(good))
    doc["rounds"][0]["tables"][1]["hands"][2]["augen"] = 200
    before = (Tournament.objects.count(), Table.objects.count(), TableConfirmation.objects.count())
    response = upload(client, doc, slug="kaputt", tournament=tournament)
    text = response.content.decode()
    assert response.status_code == 400
    assert "rounds[0].tables[1].hands[2].augen" in text and "nothing was imported" in text
    assert (Tournament.objects.count(), Table.objects.count(), TableConfirmation.objects.count()) == before
    taken = upload(client, good, tournament=tournament)  # the archive's own slug exists already
    assert taken.status_code == 400 and "tournament.slug" in taken.content.decode()
    not_json = client.post(
        "/o/neu/archiv/", {"file": SimpleUploadedFile("a.json", b"{nope"), "club": tournament.club_id}, **EN
    )
    assert not_json.status_code == 400 and "file: not JSON" in not_json.content.decode()


def test_only_organisers_upload_and_download(evening):
    tournament, _client = evening
    user = get_user_model().objects.create_user("helfer", password="pw")
    ClubMembership.objects.create(user=user, club=tournament.club, role=ClubMembership.Role.DESK)
    client = Client()
    client.force_login(user)
    assert client.get("/o/neu/archiv/").status_code == 403
    assert client.get(f"/o/{tournament.slug}/archiv.json").status_code == 404


def test_a_polled_page_with_a_message_waiting_renders_instead_of_failing(evening):
    """After the upload's redirect the standings page carries a message: it is rendered (not a 304), and the
    view still finds its polled state."""
    tournament, client = evening
    doc = json.loads(client.get(f"/o/{tournament.slug}/archiv.json").content)
    response = client.post(
        "/o/neu/archiv/",
        {
            "file": SimpleUploadedFile("a.json", json.dumps(doc).encode()),
            "club": tournament.club_id,
            "slug": "mit-meldung",
        },
        follow=True,
        **EN,
    )
    assert response.status_code == 200 and "Imported" in response.content.decode()
