"""A hostile archive is refused with its field's path, on the web (400, a form error) and by import_tournament
(a CommandError), and nothing is written: NUL characters, deep nesting, a binary file, numbers beyond any
column, a published round before closed ones, a withdrawal after a round the tournament does not have."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tournaments.test_archive_console import EN, evening  # noqa: F401 (a fixture, used by name)
from tournaments.models import AuditEntry, Hand, Player, Registration, Tournament

pytestmark = pytest.mark.django_db

DEEP = "[" * 10_000 + "]" * 10_000


def _nul_name(doc):
    doc["players"][0]["first_name"] = "An\u0000na"


def _nul_audit(doc):
    doc["audit"] = [{"at": "2026-11-21T19:30:00+01:00", "action": "round.close", "after": {"note": "a\u0000b"}}]


def _deep_audit(doc):
    doc["audit"] = [
        {"at": "2026-11-21T19:30:00+01:00", "action": "round.close", "after": json.loads("[" * 500 + "]" * 500)}
    ]


def _huge_totals(doc):
    doc["rounds"][1]["tables"][0]["paper_totals"] = {"1": 10**30, "2": -(10**30), "3": 0, "4": 0}


def _huge_points(doc):
    doc["standings"][0]["points"] = 10**30


def _huge_cents(doc):
    doc["ledger"] = (
        [{**doc["ledger"][0], "cents": 10**30}]
        if doc["ledger"]
        else [{"start_number": 1, "round": 1, "table": 1, "kind": "payout", "cents": 10**30}]
    )


def _published_before_closed(doc):
    doc["rounds"][0]["status"], doc["rounds"][1]["status"] = "published", "closed"


def _withdrawn_after_a_round_not_played(doc):
    doc["players"][0]["withdrawn_after_round"] = 7


CASES = [  # (how the good archive is spoilt, the path the refusal names)
    (_nul_name, "players[0].first_name"),
    (_nul_audit, "audit[0].after"),
    (_deep_audit, "audit[0].after"),
    (_huge_totals, "rounds[1].tables[0].paper_totals.1"),
    (_huge_points, "standings[0].points"),
    (_huge_cents, "ledger[0].cents"),
    (_published_before_closed, "rounds[1].status"),
    (_withdrawn_after_a_round_not_played, "players[0].withdrawn_after_round"),
]


def _counts():
    return [m.objects.count() for m in (Tournament, Registration, Player, Hand, AuditEntry)]


@pytest.fixture
def archive(evening):
    tournament, client = evening
    return json.loads(client.get(f"/o/{tournament.slug}/archiv.json").content), tournament, client


def _post(client, tournament, content: bytes):
    return client.post(
        "/o/neu/archiv/",
        {
            "file": SimpleUploadedFile("archiv.json", content, "application/json"),
            "club": tournament.club_id,
            "slug": "kaputt",
        },
        **EN,
    )


def _form_error(response) -> str:
    assert response.status_code == 400, response.status_code
    return " ".join(str(e) for e in response.context["form"].errors.get("file", []))


@pytest.mark.parametrize(("spoil", "path"), CASES, ids=[c[0].__name__.strip("_") for c in CASES])
def test_a_spoilt_archive_is_refused_on_the_web_naming_the_path(archive, spoil, path):
    doc, tournament, client = archive
    spoil(doc)
    before = _counts()
    error = _form_error(_post(client, tournament, json.dumps(doc).encode()))
    assert error.startswith(f"{path}:"), error
    assert _counts() == before


@pytest.mark.parametrize(("spoil", "path"), CASES, ids=[c[0].__name__.strip("_") for c in CASES])
def test_a_spoilt_archive_is_a_command_error_naming_the_path(archive, spoil, path, tmp_path):
    doc, _tournament, _client = archive
    spoil(doc)
    file = tmp_path / "archiv.json"
    file.write_text(json.dumps(doc), encoding="utf-8")
    before = _counts()
    with pytest.raises(CommandError) as exc:
        call_command("import_tournament", str(file), slug="kaputt")
    assert str(exc.value).startswith(f"{path}:"), exc.value
    assert _counts() == before


FILES = {  # a file that is no archive at all: the refusal names the file
    "deep nesting": DEEP.encode(),
    "deep nesting in an object": ('{"audit": ' + DEEP + "}").encode(),
    "binary": bytes(range(256)) * 4,
    "a NUL byte": b'{"format": "schafkopfrennen-archive"\x00}',
    "a PDF": b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n",
}


@pytest.mark.parametrize("content", FILES.values(), ids=FILES.keys())
def test_a_file_that_is_no_archive_is_refused_on_the_web(archive, content):
    _doc, tournament, client = archive
    before = _counts()
    assert _form_error(_post(client, tournament, content))
    assert _counts() == before


@pytest.mark.parametrize("content", FILES.values(), ids=FILES.keys())
def test_a_file_that_is_no_archive_is_a_command_error(content, tmp_path):
    file = tmp_path / "archiv.json"
    file.write_bytes(content)
    with pytest.raises(CommandError, match=r"^file: "):
        call_command("import_tournament", str(file))
    assert not Tournament.objects.exists()
