"""Standings from stored games: snapshots, idempotence, substitutes, coalescing, pages and downloads."""

import csv
import io
import json

import pytest
from django.core.management import call_command

from scoring.models import StandingsSnapshot
from tests.points import points_from_hands
from tournaments.models import Hand, Registration, Tournament
from tournaments.selectors.standings import standings_view
from tournaments.services import schedule
from tournaments.services.prizes import prizes_set, tournament_standings_publish
from tournaments.services.registration import player_create, registration_substitute
from tournaments.services.simulation import tournament_simulate
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """committed(fn, ...) runs fn and then what it scheduled for after the commit (the recompute)."""

    def run(fn, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            result = fn(*args, **kwargs)
        return result

    return run


def test_snapshot_after_a_simulated_tournament_equals_the_sum_of_the_hands(committed):
    tournament = committed(tournament_simulate, slug="sim", players=13, rounds=2, games=8, seed=4)
    snapshot = StandingsSnapshot.objects.get(tournament=tournament)
    expected = points_from_hands(tournament)
    assert {row["registration"]: row["points"] for row in snapshot.overall} == expected
    assert [row["rank"] for row in snapshot.overall] == list(range(1, 14))
    assert sum(expected.values()) == 0
    assert standings_view(tournament).rounds == [1, 2]  # each round's list is ranked when read
    assert len(snapshot.data["tischbeste"]) == 3 * 2


def test_recompute_is_idempotent():
    tournament = tournament_simulate(slug="sim", players=12, rounds=1, games=8, seed=9)
    first = standings_recompute(tournament_id=tournament.pk)
    first = first.overall, first.data, first.parts
    second = standings_recompute(tournament_id=tournament.pk)
    second = second.overall, second.data, second.parts
    assert first == second
    assert StandingsSnapshot.objects.filter(tournament=tournament).count() == 1


def test_a_substitute_takes_over_seat_and_points(committed):
    tournament = committed(tournament_simulate, slug="sim", players=12, rounds=2, games=8, seed=2)
    leaving = Registration.objects.filter(tournament=tournament).order_by("start_number").first()
    before = {r["registration"]: r["points"] for r in StandingsSnapshot.objects.get(tournament=tournament).overall}
    substitute = committed(
        registration_substitute, withdrawn=leaving, player=player_create(first_name="Ersatz", last_name="Mann")
    )
    rows = StandingsSnapshot.objects.get(tournament=tournament).overall
    by_reg = {r["registration"]: r for r in rows}
    assert leaving.pk not in by_reg
    assert by_reg[substitute.pk]["points"] == before[leaving.pk]
    assert by_reg[substitute.pk]["substitute_for"] == leaving.player.name


def test_a_renamed_player_or_club_is_renamed_in_the_standings(committed):
    """A merge changes only the figures of a changed table's players; names come with a recompute,
    which renaming a player or his club schedules (not for a finished tournament)."""
    from tournaments.services.players import club_update, player_update

    tournament = committed(tournament_simulate, slug="sim", players=8, rounds=1, games=8, seed=3)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)  # the evening goes on
    reg = (
        Registration.objects.filter(tournament=tournament)
        .select_related("player__club")
        .order_by("start_number")
        .first()
    )
    committed(player_update, player=reg.player, first_name="Xaver", last_name="Neuname", club=reg.player.club)
    rows = {r["registration"]: r for r in StandingsSnapshot.objects.get(tournament=tournament).overall}
    assert rows[reg.pk]["name"] == "Xaver Neuname"
    if reg.player.club is not None:
        committed(club_update, club=reg.player.club, name="FC Neu", town="")
        rows = {r["registration"]: r for r in StandingsSnapshot.objects.get(tournament=tournament).overall}
        assert rows[reg.pk]["club"] == "FC Neu"
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    version = StandingsSnapshot.objects.get(tournament=tournament).version
    committed(player_update, player=reg.player, first_name="Xaver", last_name="Später", club=reg.player.club)
    assert StandingsSnapshot.objects.get(tournament=tournament).version == version


def test_ledger_sums_match_the_hands_reuegeld(committed):
    from scoring.rules import score_hand
    from scoring.storage import stored_record

    tournament = committed(tournament_simulate, slug="sim", players=16, rounds=1, games=32, seed=5)
    rules = tournament.ruleset
    expected = 0
    for hand in Hand.objects.filter(table__round__tournament=tournament).select_related("table"):
        score = score_hand({**stored_record(hand, hand.table.size), "dealer": hand.dealer}, rules, hand.table.size)
        expected += sum(score.reuegeld.values())
    data = StandingsSnapshot.objects.get(tournament=tournament).data
    assert sum(reuegeld for reuegeld, _weitergeld, _payout in data["money"].values()) == expected > 0
    assert data["pot_cents"] == data["collected_cents"] - data["paid_out_cents"]


def test_with_a_cache_local_to_each_process_every_change_sends_its_merge_at_once(monkeypatch):
    """A chain's lease must be seen by the worker; a per-process cache (a set-up ``tournaments.checks``
    warns about) cannot hold one, so nothing waits for a chain: every change is sent at once."""
    from tournaments.services.standings_tasks import standings_update_task

    sent = []
    monkeypatch.setitem(standings_update_task.app.conf, "task_always_eager", False)
    monkeypatch.setattr(standings_update_task, "apply_async", lambda args, **options: sent.append((args, options)))
    monkeypatch.setattr(schedule.standings_chain_task, "apply_async", lambda *a, **k: pytest.fail("a chain"))
    for table in range(3):
        assert schedule.standings_schedule(42, [table]) is True
    assert sent == [([42, [0]], {}), ([42, [1]], {}), ([42, [2]], {})]


def test_a_broker_outage_does_not_stop_entry(monkeypatch):
    from tournaments.services.standings_tasks import standings_recompute_task, standings_update_task

    def broker_down(*args, **kwargs):
        raise ConnectionRefusedError("redis down")

    monkeypatch.setitem(standings_recompute_task.app.conf, "task_always_eager", False)
    monkeypatch.setattr(standings_recompute_task, "apply_async", broker_down)
    monkeypatch.setattr(standings_update_task, "apply_async", broker_down)
    assert schedule.standings_schedule(7) is False  # logged, not raised
    assert schedule.standings_schedule(7, [3]) is False


def test_a_cache_outage_does_not_stop_entry(monkeypatch):
    """With REDIS_CACHE_URL set, Redis down makes the cache raise too: still logged, not raised (a Redis
    that does not answer: tests/test_cache_scripts.py)."""
    from tournaments.services.standings_tasks import standings_recompute_task

    def redis_down(*args, **kwargs):
        raise ConnectionRefusedError("redis down")

    monkeypatch.setitem(standings_recompute_task.app.conf, "task_always_eager", False)
    monkeypatch.setattr(schedule._JOIN, "applies", lambda cache: True)
    monkeypatch.setattr(type(schedule._JOIN), "__call__", redis_down)
    monkeypatch.setattr(schedule.cache, "delete", redis_down)
    monkeypatch.setattr(standings_recompute_task, "apply_async", redis_down)
    assert schedule.standings_schedule(7) is False
    assert schedule.standings_schedule(7, [3]) is False


def test_the_pages_show_standings_search_rounds_and_staleness(client, committed):
    committed(call_command, "demo", allow_without_debug=True)
    tournament = Tournament.objects.get(slug="herbstrennen")
    page = client.get("/t/herbstrennen/rangliste/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    body = page.content.decode()
    first = StandingsSnapshot.objects.get(tournament=tournament).overall[0]
    assert first["name"] in body and "Newer games are still being counted" not in body
    # search by start number (htmx fragment)
    frag = client.get(f"/t/herbstrennen/rangliste/?q={first['start_number']}", HTTP_HX_REQUEST="true").content.decode()
    assert first["name"] in frag and frag.count("data-start-number=") == 1
    assert client.get("/t/herbstrennen/rangliste/?runde=1").status_code == 200
    assert client.get("/t/herbstrennen/rangliste/beamer/").status_code == 200
    # a change not yet counted shows as not current
    StandingsSnapshot.objects.filter(tournament=tournament).update(revision=0)
    stale = client.get("/t/herbstrennen/rangliste/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Newer games are still being counted" in stale


def test_a_look_at_lagging_standings_sends_no_work_and_an_organiser_has_them_counted_again(
    client, committed, monkeypatch
):
    """GET only reads: the standings page, the projector and a poll of lagging standings enqueue nothing;
    the organiser's "count every game again" (a POST) sends the recompute."""
    committed(call_command, "demo", allow_without_debug=True)
    tournament = Tournament.objects.get(slug="herbstrennen")
    StandingsSnapshot.objects.filter(tournament=tournament).update(revision=0)  # a change not yet counted
    sent = []
    monkeypatch.setattr("tournaments.views.standings.standings_schedule", lambda *args: sent.append(args) or True)
    for url in (
        "/t/herbstrennen/rangliste/",
        "/t/herbstrennen/rangliste/beamer/",
        "/t/herbstrennen/rangliste/?runde=1",
        "/t/herbstrennen/rangliste.csv",
    ):
        assert client.get(url).status_code == 200
    assert client.get("/t/herbstrennen/rangliste/", HTTP_HX_REQUEST="true").status_code == 200
    assert sent == []
    client.login(username="organisator", password="herbstrennen-demo")
    page = client.get("/t/herbstrennen/rangliste/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="standings-refresh"' in page and sent == []
    assert client.post("/o/herbstrennen/rangliste/neu-zaehlen/").status_code == 302
    assert sent == [(tournament.pk,)]


def test_hidden_standings_until_published(client, committed):
    committed(call_command, "demo", allow_without_debug=True)
    tournament = Tournament.objects.get(slug="herbstrennen")
    tournament_standings_publish(tournament=tournament, public=False)
    page = client.get("/t/herbstrennen/rangliste/")
    assert 'data-testid="standings-hidden"' in page.content.decode()
    assert client.get("/t/herbstrennen/rangliste.csv").status_code == 403
    client.login(username="organisator", password="herbstrennen-demo")
    assert 'data-testid="standings-table"' in client.get("/t/herbstrennen/rangliste/").content.decode()


def test_csv_and_json_downloads(client, committed):
    committed(call_command, "demo", allow_without_debug=True)
    data = json.loads(client.get("/t/herbstrennen/rangliste.json").content)
    assert len(data["standings"]) == 22 and data["standings"][0]["rank"] == 1
    text = client.get("/t/herbstrennen/rangliste.csv").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert len(rows) == 23 and rows[1][2] == data["standings"][0]["name"]


def test_prizes_and_cash_list(client, committed):
    committed(call_command, "demo", allow_without_debug=True)
    tournament = Tournament.objects.get(slug="herbstrennen")
    client.login(username="organisator", password="herbstrennen-demo")
    page = client.get("/o/herbstrennen/preise/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "last place" in page  # the DEFAULT: one prize per table of round 1, the last for the last place
    prizes_set(
        tournament=tournament,
        prizes=[
            {"place": 1, "amount_cents": 5000, "goods": ""},
            {"place": None, "amount_cents": None, "goods": "Ein Brotzeitbrettl"},
        ],
    )
    page = client.get("/o/herbstrennen/preise/").content.decode()
    snapshot = StandingsSnapshot.objects.get(tournament=tournament)
    assert snapshot.overall[0]["name"] in page and "Brotzeitbrettl" in page
    assert snapshot.overall[-1]["name"] in page
    cash = client.get("/o/herbstrennen/kasse/")
    assert cash.status_code == 200
    assert cash.context["cash"].pot_cents == snapshot.data["pot_cents"]
    assert cash.context["cash"].entry_fees_cents == 22 * 1000
    # a bad prize row is a form error naming the field, nothing saved
    bad = client.post(
        "/o/herbstrennen/preise/",
        {
            "prize-TOTAL_FORMS": "1",
            "prize-INITIAL_FORMS": "0",
            "prize-0-place": "2",
            "prize-0-amount_euro": "",
            "prize-0-goods": "",
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert bad.status_code == 400 and "Enter an amount or the goods." in bad.content.decode()
    assert tournament.prizes.count() == 2


def test_archive_of_a_simulated_tournament_has_standings_equal_to_the_sum_of_its_hands(tmp_path):
    tournament_simulate(slug="sim", players=21, rounds=2, games=8, seed=11)
    out = tmp_path / "sim.json"
    call_command("export_tournament", "sim", output=str(out))
    doc = json.loads(out.read_text())
    totals: dict[int, int] = {}
    for rnd in doc["rounds"]:
        for table in rnd["tables"]:
            for hand in table["hands"]:
                for seat, points in hand.get("points", {}).items():
                    start = table["seats"][seat]
                    totals[start] = totals.get(start, 0) + points
    assert {s["start_number"]: s["points"] for s in doc["standings"]} == totals
