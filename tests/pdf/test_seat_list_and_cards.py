"""The seat list (alphabetical and by table) and the table cards, checked against the database."""

import datetime
import io

import pypdf
import pytest
from django.urls import reverse
from reportlab.lib.pagesizes import A4, landscape

from scoring.rules.collation import name_sort_key
from tests.factories import PlayerFactory, TournamentFactory
from tests.pdf.conftest import URL_BASE, page_drawing, pdf_pages
from tournaments.links import table_link_key
from tournaments.models import Seat
from tournaments.pdf.qr import qr_code
from tournaments.pdf.seat_list import SeatList, SeatListEntry, SeatListSeat, SeatListTable, render_seat_list
from tournaments.pdf.table_cards import render_table_cards
from tournaments.selectors import public
from tournaments.selectors.printing import seat_list_data, table_cards_data
from tournaments.services.registration import registration_create
from tournaments.services.rounds import round_draw


def seats(rnd):
    return list(Seat.objects.filter(round=rnd).select_related("table", "registration__player"))


@pytest.mark.django_db
def test_alphabetical_list_gives_every_player_table_and_seat(played_round):
    pages = pdf_pages(render_seat_list(seat_list_data(played_round)))
    assert len(pages) == 2  # 21 players: one page alphabetical, one by table
    alphabetical = pages[0]
    assert "Alphabetical by last name" in alphabetical and "Page 1 of 1" in alphabetical
    expected = sorted(
        seats(played_round),
        key=lambda s: (
            name_sort_key(s.registration.player.last_name, s.registration.player.first_name),
            s.registration.start_number,
        ),
    )
    found = []
    for seat in expected:
        name = seat.registration.player.sort_name
        index = next(
            i
            for i, line in enumerate(alphabetical)
            if line == name and i not in found and alphabetical[i + 1] == str(seat.registration.start_number)
        )
        assert alphabetical[index + 1 : index + 4] == [
            str(seat.registration.start_number),
            str(seat.table.number),
            str(seat.number),
        ]
        found.append(index)
    assert found == sorted(found), "the names are in alphabetical order"


@pytest.mark.django_db
def test_by_table_list_gives_every_table_with_its_seats(played_round):
    by_table = pdf_pages(render_seat_list(seat_list_data(played_round)))[1]
    assert "By table: seat, name and start number" in by_table
    for table in played_round.tables.order_by("number"):
        start = by_table.index(str(table.number), by_table.index("Round 1") + 1)
        for seat in Seat.objects.filter(table=table).order_by("number").select_related("registration__player"):
            position = by_table.index(seat.registration.player.name, start)
            assert by_table[position - 1] == str(seat.number)
            assert by_table[position + 1] == str(seat.registration.start_number)


def test_german_names_sort_as_a_german_reader_expects():
    names = [
        "Zehetmair, Anna",
        "Ächter, Alois",
        "Bauer, Josef",
        "Özdemir, Ali",
        "Obermeier, Franz",
        "Strauß, Sepp",
        "Strauss, Anton",
        "ärmel, Eva",
    ]
    assert sorted(names, key=lambda name: name_sort_key(*name.split(", "))) == [
        "Ächter, Alois",
        "ärmel, Eva",
        "Bauer, Josef",
        "Obermeier, Franz",
        "Özdemir, Ali",
        "Strauss, Anton",
        "Strauß, Sepp",
        "Zehetmair, Anna",
    ]


def test_a_long_list_flows_over_pages_with_its_head_repeated_and_page_numbers():
    entries = tuple(
        SeatListEntry(letter="H", name=f"Huber, Spieler {i:03d}", start_number=i, table=i // 4 + 1, seat=i % 4 + 1)
        for i in range(300)
    )
    tables = tuple(
        SeatListTable(
            number=t, seats=tuple(SeatListSeat(seat=s, name=f"Spieler {t}-{s}", start_number=s) for s in range(1, 5))
        )
        for t in range(1, 76)
    )
    data = SeatList(
        tournament="Großes Rennen", date=datetime.date(2026, 11, 21), venue="", round=3, entries=entries, tables=tables
    )
    content = render_seat_list(data)
    pages = pdf_pages(content)
    alphabetical = [p for p in pages if "Alphabetical by last name" in p]
    by_table = [p for p in pages if "By table: seat, name and start number" in p]
    assert len(alphabetical) == 5 and len(by_table) == 5
    for number, page in enumerate(alphabetical, start=1):
        assert f"Page {number} of {len(alphabetical)}" in page
        assert page.count("H") >= 2  # the head row (letter and column names) repeats in both columns
    for number, page in enumerate(by_table, start=1):
        assert f"Page {number} of {len(by_table)}" in page
    names = [line for page in alphabetical for line in page if line.startswith("Huber, Spieler")]
    assert names == [e.name for e in entries]
    assert content == render_seat_list(data)  # deterministic


@pytest.mark.django_db
def test_table_cards_one_landscape_page_per_table(played_round):
    data = table_cards_data(played_round, url_base=URL_BASE)
    content = render_table_cards(data)
    reader = pypdf.PdfReader(io.BytesIO(content))
    tables = list(played_round.tables.order_by("number"))
    assert len(reader.pages) == len(tables)
    for page, table in zip(reader.pages, tables, strict=True):
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert (round(width), round(height)) == tuple(round(v) for v in landscape(A4))
        lines = [line.strip() for line in page.extract_text().splitlines() if line.strip()]
        assert lines.count(str(table.number)) >= 2  # front and back
        assert "Round 1" in lines
        for seat in Seat.objects.filter(table=table).select_related("registration__player"):
            index = lines.index(seat.registration.player.name)
            assert lines[index - 1] == str(seat.number)
            assert lines[index + 1] == f"No. {seat.registration.start_number}"
        # the all-evening link of the table number, not the round's own link
        url = f"{URL_BASE}{reverse('tournaments:table_link', args=[table_link_key(played_round.tournament_id, table.number)])}"
        assert page_drawing(page).count(qr_code(url)[1].encode()) == 1  # printed once, valid all evening
        assert qr_code(f"{URL_BASE}/tisch/{table.entry_key}/")[1].encode() not in page_drawing(page)
        assert "valid all evening, in every round" in lines
    assert content == render_table_cards(table_cards_data(played_round, url_base=URL_BASE))


@pytest.mark.django_db
def test_pages_read_at_a4(played_round):
    reader = pypdf.PdfReader(io.BytesIO(render_seat_list(seat_list_data(played_round))))
    assert all((round(float(p.mediabox.width)), round(float(p.mediabox.height))) == (595, 842) for p in reader.pages)


@pytest.mark.django_db
def test_the_seat_list_page_and_its_pdf_list_names_in_the_same_order():
    """One German sort key for screen and print: umlauts with their base letter, ß as ss, case ignored,
    last name before first name (the old print key compared "Ab C, Anna" with "Ab, Zenz" as one string)."""
    tournament = TournamentFactory()
    names = [
        ("Zenz", "Ab"),
        ("Anna", "Ab C"),
        ("Quirin", "Ächter"),
        ("Anton", "adler"),
        ("Lisa", "Weiß"),
        ("Max", "Weise"),
        ("Eva", "Weiss"),
        ("Otto", "Özdemir"),
        ("Ida", "Oz"),
        ("Jo", "Ob"),
    ]
    for first, last in names + [(f"S{i}", f"Spieler{i}") for i in range(2)]:
        registration_create(
            tournament=tournament, player=PlayerFactory(first_name=first, last_name=last), checked_in=True
        )
    (rnd,) = round_draw(tournament=tournament, seed=1)
    screen = [(row.sort_name, row.initial) for row in public.seat_rows(rnd)]
    printed = [(entry.name, entry.letter) for entry in seat_list_data(rnd).entries]
    assert screen == printed
    assert [name for name, _letter in screen][:4] == ["Ab, Zenz", "Ab C, Anna", "Ächter, Quirin", "adler, Anton"]
    assert [name for name, _letter in screen].index("Weiss, Eva") < [name for name, _letter in screen].index(
        "Weiß, Lisa"
    )
