"""The print pack: one PDF, built by a Celery task only when its data changed; the print_round command."""

import io

import pypdf
import pytest
from celery.app.task import Task
from django.core.cache import cache
from django.core.management import CommandError, call_command

from scoring.storage import stored_record
from tests.pdf.conftest import URL_BASE, pdf_pages
from tournaments.models import Hand, Player
from tournaments.pdf import pack as pack_module
from tournaments.pdf.pack import render_pack
from tournaments.selectors.printing import print_pack_data, print_pack_fingerprint
from tournaments.services import printing
from tournaments.services.hands import hand_correct
from tournaments.services.printing import round_print_pack_task


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def count_renders(monkeypatch) -> list:
    calls = []
    original = pack_module.render_pack

    def counting(data, **kwargs):
        calls.append(data)
        return original(data, **kwargs)

    monkeypatch.setattr(printing, "render_pack", counting)
    return calls


@pytest.mark.django_db
def test_pack_holds_seat_lists_cards_and_every_sheet_in_order(played_round):
    progress = []
    data = print_pack_data(played_round, url_base=URL_BASE)
    content = render_pack(data, progress=lambda done, total: progress.append((done, total)))
    pages = pdf_pages(content)
    tables = played_round.tables.count()
    assert len(pages) == 2 + tables + tables  # seat lists (1 + 1 page), a card and a sheet per table
    assert "Alphabetical by last name" in pages[0] and "By table: seat, name and start number" in pages[1]
    for index, table in enumerate(played_round.tables.order_by("number")):
        assert "Enter the games" in pages[2 + index] and str(table.number) in pages[2 + index]
        sheet = pages[2 + tables + index]
        assert "Score sheet" in sheet and f"Table {table.number}" in sheet and "Check:" in sheet
    assert progress[0] == (0, tables) and progress[-1] == (tables, tables)
    assert content == render_pack(print_pack_data(played_round, url_base=URL_BASE))  # deterministic


@pytest.mark.django_db
def test_task_builds_once_and_again_only_after_the_data_changed(played_round, monkeypatch):
    renders = count_renders(monkeypatch)
    first = round_print_pack_task.apply((played_round.pk,), {"url_base": URL_BASE}).get()
    assert len(renders) == 1
    state = printing.round_print_pack_state(round=played_round, url_base=URL_BASE)
    assert state.status == "ready" and str(state.path) == first and state.size > 0

    assert round_print_pack_task.apply((played_round.pk,), {"url_base": URL_BASE}).get() == first
    assert len(renders) == 1, "nothing changed: the pack is not rendered again"

    hand = Hand.objects.filter(table__round=played_round, contract="rufspiel", muss__isnull=True).first()
    record = {**stored_record(hand, hand.table.size), "augen": 120 - (hand.augen or 0), "schwarz": None}
    hand_correct(hand=hand, record=record, organiser=True, reason="Augen vertauscht")
    stale = printing.round_print_pack_state(round=played_round, url_base=URL_BASE)
    assert stale.status == "none" and stale.outdated

    second = round_print_pack_task.apply((played_round.pk,), {"url_base": URL_BASE}).get()
    assert len(renders) == 2 and second != first
    assert printing.round_print_pack_state(round=played_round, url_base=URL_BASE).status == "ready"
    files = list(printing.pack_directory().glob("*.pdf"))
    assert [str(f) for f in files] == [second], "the outdated pack is removed"
    assert len(pypdf.PdfReader(second).pages) == 2 + 2 * played_round.tables.count()


@pytest.mark.django_db
def test_the_state_survives_a_cleared_cache(played_round):
    path = round_print_pack_task.apply((played_round.pk,), {"url_base": URL_BASE}).get()
    cache.clear()
    state = printing.round_print_pack_state(round=played_round, url_base=URL_BASE)
    assert state.status == "ready" and str(state.path) == path


@pytest.mark.django_db
def test_request_enqueues_after_commit_and_not_twice(played_round, django_capture_on_commit_callbacks, monkeypatch):
    renders = count_renders(monkeypatch)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        state = printing.round_print_pack_request(round=played_round, url_base=URL_BASE)
        again = printing.round_print_pack_request(round=played_round, url_base=URL_BASE)
    assert state.status == "pending" and again.status == "pending"
    assert state.total == played_round.tables.count()
    assert len(callbacks) == 1 and renders == []
    callbacks[0]()
    assert len(renders) == 1
    assert printing.round_print_pack_request(round=played_round, url_base=URL_BASE).status == "ready"


@pytest.mark.django_db
def test_a_failed_build_is_reported_and_can_be_asked_for_again(played_round, monkeypatch):
    def broken(data, **kwargs):
        raise RuntimeError("paper jam")

    monkeypatch.setattr(printing, "render_pack", broken)
    with pytest.raises(RuntimeError):
        printing.round_print_pack_build(round=played_round, url_base=URL_BASE)
    state = printing.round_print_pack_state(round=played_round, url_base=URL_BASE)
    assert state.status == "failed" and "paper jam" in state.error
    assert not list(printing.pack_directory().glob("*"))  # nothing half-written


@pytest.mark.django_db
def test_fingerprint_follows_what_is_printed(played_round):
    base = print_pack_fingerprint(played_round, url_base=URL_BASE)
    assert print_pack_fingerprint(played_round, url_base=URL_BASE) == base
    assert print_pack_fingerprint(played_round, url_base="http://other.example") != base
    assert print_pack_fingerprint(played_round, url_base=URL_BASE, blank=True) != base
    player = Player.objects.filter(registrations__seats__round=played_round).first()
    player.last_name = "Neumaier"
    player.save()
    assert print_pack_fingerprint(played_round, url_base=URL_BASE) != base


@pytest.mark.django_db
def test_print_round_command_writes_the_pack(played_round, tmp_path):
    output = tmp_path / "pack.pdf"
    call_command("print_round", played_round.tournament.slug, "1", "--output", str(output), "--base-url", URL_BASE)
    reader = pypdf.PdfReader(output)
    tables = played_round.tables.count()
    assert len(reader.pages) == 2 + 2 * tables
    assert output.read_bytes() == render_pack(print_pack_data(played_round, url_base=URL_BASE))


@pytest.mark.django_db
def test_print_round_command_blank_sheets(played_round, tmp_path):
    output = tmp_path / "leer.pdf"
    call_command("print_round", played_round.tournament.slug, "1", "-o", str(output), "--blank")
    pages = pdf_pages(output.read_bytes())
    sheets = [p for p in pages if "Score sheet" in p]
    assert len(sheets) == played_round.tables.count()
    assert all("the totals of all seats add up to 0:  ______" in p for p in sheets)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "args, field",
    [
        (["nope", "1"], "slug:"),
        (["{slug}", "x"], "round:"),
        (["{slug}", "²"], "round:"),  # a digit to str.isdigit(), no number to int()
        (["{slug}", "3"], "round:"),
        (["{slug}", "1", "--base-url", "ftp:/x"], "base-url:"),
        (["{slug}", "1", "--output", "/no/such/folder/pack.pdf"], "output:"),
    ],
)
def test_print_round_command_names_the_bad_field(played_round, tmp_path, args, field):
    args = [a.format(slug=played_round.tournament.slug) for a in args]
    if "--output" not in args:
        args += ["--output", str(tmp_path / "x.pdf")]
    with pytest.raises(CommandError, match=f"^{field}"):
        call_command("print_round", *args)
    assert not (tmp_path / "x.pdf").exists()


def test_pack_of_data_alone_renders_without_a_database():
    import datetime

    from tournaments.pdf.pack import PrintPackDocument
    from tournaments.pdf.seat_list import SeatList

    empty = SeatList(tournament="T", date=datetime.date(2026, 1, 1), venue="", round=1, entries=(), tables=())
    content = render_pack(PrintPackDocument(tournament="T", round=1, seat_list=empty, cards=(), sheets=()))
    assert len(pypdf.PdfReader(io.BytesIO(content)).pages) >= 1


@pytest.mark.django_db
def test_a_task_that_cannot_be_sent_is_reported(played_round, django_capture_on_commit_callbacks, monkeypatch):
    def unreachable(*args, **kwargs):
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(Task, "apply_async", unreachable)  # what the after-commit send calls
    with django_capture_on_commit_callbacks(execute=True):
        printing.round_print_pack_request(round=played_round, url_base=URL_BASE)
    state = printing.round_print_pack_state(round=played_round, url_base=URL_BASE)
    assert state.status == "failed" and "broker unreachable" in state.error
