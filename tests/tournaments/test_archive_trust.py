"""The archive as the tester broke it (issue 13, fix 2) and what it keeps secret (keys only with --with-keys)."""

import copy
import io
import json
from collections import Counter

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.models import Club, Hand, HandRevision, Player, Registration, Round, Seat, Table, Tournament

pytestmark = pytest.mark.django_db

SIMULATED = "probelauf-40-7"
MODELS = (Tournament, Registration, Player, Club, Round, Table, Seat, Hand, HandRevision)


@pytest.fixture
def simulated():
    """The report's tournament: ``simulate_tournament --players 40 --rounds 3 --games 8 --seed 7``."""
    call_command("simulate_tournament", players=40, rounds=3, games=8, seed=7, stdout=io.StringIO())
    tournament = Tournament.objects.get(slug=SIMULATED)
    names = Counter(
        (r.player.first_name, r.player.last_name, r.player.club_id)
        for r in tournament.registrations.select_related("player")
    )
    assert max(names.values()) >= 2, "the seed must give namesakes in one club"
    return tournament


def export(slug: str, tmp_path, *extra: str) -> dict:
    out = tmp_path / f"{slug}.json"
    call_command("export_tournament", slug, "--output", str(out), *extra, stderr=io.StringIO())
    return json.loads(out.read_text(encoding="utf-8"))


def write(doc: dict, tmp_path, name: str = "archive.json"):
    path = tmp_path / name
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def without_volatile(doc: dict) -> dict:
    """The document apart from exported_at and the slug (a copy is imported under a new one)."""
    doc = copy.deepcopy(doc)
    doc.pop("exported_at")
    doc["tournament"].pop("slug")
    return doc


def keys_in(doc: dict) -> list[str]:
    return [p["key"] for p in doc["players"] if "key" in p] + [
        t["entry_key"] for r in doc["rounds"] for t in r["tables"] if "entry_key" in t
    ]


def test_an_archive_with_namesakes_round_trips_under_a_new_slug(simulated, tmp_path):
    first = export(SIMULATED, tmp_path)

    call_command("import_tournament", str(write(first, tmp_path)), slug="kopie")

    second = export("kopie", tmp_path)
    assert second["tournament"]["slug"] == "kopie"
    assert without_volatile(second) == without_volatile(first)
    # the same people: each start number is the same player as in the original, namesakes kept apart
    original = dict(simulated.registrations.values_list("start_number", "player_id"))
    copied = dict(Registration.objects.filter(tournament__slug="kopie").values_list("start_number", "player_id"))
    assert copied == original


def test_an_archive_with_namesakes_imports_into_an_empty_database(simulated, tmp_path):
    first = export(SIMULATED, tmp_path)
    path = write(first, tmp_path)
    for model in (Hand, Seat, Table, Round, Registration, Tournament, Player):
        model.objects.all().delete()

    call_command("import_tournament", str(path))

    assert Player.objects.count() == 40  # namesakes are two people, not one registered twice
    assert without_volatile(export(SIMULATED, tmp_path)) == without_volatile(first)


def test_the_archive_holds_no_keys_unless_asked_and_an_import_makes_new_ones(simulated, tmp_path):
    plain = export(SIMULATED, tmp_path)
    text = json.dumps(plain)
    assert keys_in(plain) == []
    for table in Table.objects.filter(round__tournament=simulated):
        assert table.entry_key not in text
    for reg in simulated.registrations.all():
        assert reg.key not in text

    call_command("import_tournament", str(write(plain, tmp_path)), slug="ohne-schluessel")

    imported = Tournament.objects.get(slug="ohne-schluessel")
    old_keys = set(Table.objects.filter(round__tournament=simulated).values_list("entry_key", flat=True))
    new_keys = list(Table.objects.filter(round__tournament=imported).values_list("entry_key", flat=True))
    assert len(new_keys) == 30 and len(set(new_keys)) == 30 and not old_keys & set(new_keys)
    assert all(len(key) >= 20 for key in new_keys)
    old_personal = set(simulated.registrations.values_list("key", flat=True))
    new_personal = set(imported.registrations.values_list("key", flat=True))
    assert len(new_personal) == 40 and not old_personal & new_personal


def test_with_keys_the_keys_travel_and_are_kept_where_they_are_free(simulated, tmp_path):
    doc = export(SIMULATED, tmp_path, "--with-keys")
    tables = {
        (r.round.number, r.number): r.entry_key
        for r in Table.objects.filter(round__tournament=simulated).select_related("round")
    }
    assert {(r["number"], t["number"]): t["entry_key"] for r in doc["rounds"] for t in r["tables"]} == tables
    assert {p["start_number"]: p["key"] for p in doc["players"]} == dict(
        simulated.registrations.values_list("start_number", "key")
    )
    path = write(doc, tmp_path)

    # on this server the keys are taken: the copy gets new ones
    call_command("import_tournament", str(path), slug="kopie")
    copy_keys = set(Table.objects.filter(round__tournament__slug="kopie").values_list("entry_key", flat=True))
    assert not copy_keys & set(tables.values())

    # on another (here: emptied) server the printed QR codes and start cards stay valid
    for model in (Hand, Seat, Table, Round, Registration, Tournament, Player):
        model.objects.all().delete()
    call_command("import_tournament", str(path))
    assert export(SIMULATED, tmp_path, "--with-keys") | {"exported_at": None} == doc | {"exported_at": None}


_DOC: dict = {}


@pytest.fixture
def simulated_doc(tmp_path) -> dict:
    """The simulated tournament's archive, made once for the refusal cases (they write nothing)."""
    if not _DOC:
        call_command("simulate_tournament", players=40, rounds=3, games=8, seed=7, stdout=io.StringIO())
        _DOC.update(export(SIMULATED, tmp_path))
    return copy.deepcopy(_DOC)


@pytest.mark.parametrize(
    ("mutate", "bad_path"),
    [
        (lambda d: d["ledger"][0].__setitem__("table", 99), "ledger[0].table"),
        (lambda d: d["ledger"][0].__setitem__("round", 9), "ledger[0].round"),
        (lambda d: d["ledger"][0].__setitem__("hand", 999), "ledger[0].hand"),
        (lambda d: d["ledger"][0].pop("table"), "ledger[0].table"),
        (lambda d: d["players"][3].__setitem__("last_name", "x" * 101), "players[3].last_name"),
        (lambda d: d["players"][3].__setitem__("first_name", "x" * 101), "players[3].first_name"),
        (lambda d: d["players"][5].__setitem__("club", "V" * 201), "players[5].club"),
        (lambda d: d["tournament"].__setitem__("name", "N" * 201), "tournament.name"),
        (lambda d: d["tournament"].__setitem__("venue", "O" * 201), "tournament.venue"),
        (lambda d: d["tournament"].__setitem__("club", "C" * 201), "tournament.club"),
        (lambda d: d["tournament"].__setitem__("entry_fee_cents", 2**31), "tournament.entry_fee_cents"),
        (lambda d: d["players"][0].__setitem__("withdrawn_after_round", 40000), "players[0].withdrawn_after_round"),
        (lambda d: d["rounds"][0].__setitem__("seed", 2**63), "rounds[0].seed"),
        (lambda d: d["rounds"][0]["tables"][0].__setitem__("entry_key", "k" * 65), "rounds[0].tables[0].entry_key"),
        (lambda d: d["players"][0].__setitem__("key", "<script>"), "players[0].key"),
    ],
)
def test_a_broken_archive_is_refused_with_its_path_and_nothing_written(simulated_doc, tmp_path, mutate, bad_path):
    doc = simulated_doc
    assert doc["ledger"], "the simulated evening has Reuegeld"
    mutate(doc)
    path = write(doc, tmp_path, "broken.json")
    counts = [m.objects.count() for m in MODELS]

    with pytest.raises(CommandError) as exc:
        call_command("import_tournament", str(path), slug="kaputt")

    assert str(exc.value).startswith(bad_path + ":"), str(exc.value)
    assert [m.objects.count() for m in MODELS] == counts
