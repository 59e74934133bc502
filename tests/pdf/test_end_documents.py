"""The prize list, the cash list and the certificates, checked against the database and the selectors."""

import io

import pypdf
import pytest
from django.core.files.base import ContentFile
from PIL import Image

from tests.pdf.conftest import pdf_pages
from tournaments.pdf.cash_list import render_cash_list
from tournaments.pdf.certificates import render_certificates
from tournaments.pdf.drawing import money, signed
from tournaments.pdf.prize_list import render_prize_list
from tournaments.selectors.printing import cash_list_data, certificates_data, prize_list_data
from tournaments.selectors.standings import cash_list, prize_list, standings_view
from tournaments.services.prizes import prizes_set

DASH = "\u2013"


def text_of(content: bytes) -> list[str]:
    return [line for page in pdf_pages(content) for line in page]


def after(lines: list[str], label: str, count: int = 1) -> list[str]:
    """The ``count`` lines printed after ``label``."""
    index = lines.index(label)
    return lines[index + 1 : index + 1 + count]


def or_dash(cents: int) -> str:
    return money(cents) if cents else DASH


def page_images(page) -> list:
    """The image XObjects a page draws (a logo)."""
    xobjects = page.get("/Resources", {}).get("/XObject", {})
    return [name for name in xobjects if xobjects[name].get_object().get("/Subtype") == "/Image"]


def png(width: int = 300, height: int = 200) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (20, 40, 160)).save(buffer, format="PNG")
    return buffer.getvalue()


# --- the prize list --------------------------------------------------------------------------


@pytest.mark.django_db
def test_prize_list_gives_place_winner_points_and_prize(finished_tournament):
    prizes_set(
        tournament=finished_tournament,
        prizes=[
            {"place": 1, "amount_cents": 5000, "goods": ""},
            {"place": 2, "amount_cents": 2500, "goods": "Geschenkkorb"},
            {"place": 3, "amount_cents": None, "goods": "Brotzeitbrettl"},
            {"place": None, "amount_cents": None, "goods": "Trostpreis: ein Kartenspiel"},
        ],
    )
    rows = standings_view(finished_tournament).rows
    lines = text_of(render_prize_list(prize_list_data(finished_tournament)))

    assert lines[0] == "Prize list" and "Page 1 of 1" in lines
    for label, winner, prize in (
        ("1.", rows[0], "50.00 €"),
        ("2.", rows[1], "25.00 € + Geschenkkorb"),
        ("3.", rows[2], "Brotzeitbrettl"),
        ("last place", rows[-1], "Trostpreis: ein Kartenspiel"),
    ):
        at = lines.index(label)
        assert lines[at + 1] == winner["name"] and lines[at + 2] == winner["club"]
        assert lines[at + 3 : at + 6] == [str(winner["start_number"]), signed(winner["points"]), prize]
    assert "to be set" not in lines


@pytest.mark.django_db
def test_prize_list_works_out_the_prize_pool_as_the_prize_page(finished_tournament):
    finished_tournament.sponsored_cents = 12345
    finished_tournament.payout_percent = 80
    finished_tournament.save()
    prizes_set(tournament=finished_tournament, prizes=[{"place": 1, "amount_cents": 10000, "goods": ""}])
    pool = prize_list(finished_tournament)
    lines = text_of(render_prize_list(prize_list_data(finished_tournament)))
    assert after(lines, "Entry fees") == [money(pool.entry_fees_cents)] == ["210.00 €"]
    assert after(lines, "of that to prizes (80 %)") == [money(pool.entry_share_cents)] == ["168.00 €"]
    assert after(lines, "Reuegeld and Weitergeld left in the pot") == [money(pool.pot_share_cents)]
    assert after(lines, "Sponsored") == ["123.45 €"]
    assert lines.count("Prize pool") == 2  # the heading, and the sum in the table
    assert after(lines[lines.index("Prize pool") + 1 :], "Prize pool") == [money(pool.pool_cents)]
    assert pool.pool_cents == 16800 + pool.pot_share_cents + 12345
    assert after(lines, "Assigned as money prizes") == ["100.00 €"]


@pytest.mark.django_db
def test_prize_list_before_prizes_are_set_shows_the_default_places(finished_tournament):
    lines = text_of(render_prize_list(prize_list_data(finished_tournament)))
    tables = finished_tournament.rounds.get(number=1).tables.count()
    assert lines.count("to be set") == tables  # one per table of round 1, the last for the last place
    assert "last place" in lines and f"{tables - 1}." in lines
    assert any(line.startswith("No prizes yet: the default is one per table of round 1") for line in lines)


# --- the cash list ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_cash_list_gives_every_players_money(finished_tournament):
    cash = cash_list(finished_tournament)
    lines = text_of(render_cash_list(cash_list_data(finished_tournament)))
    assert lines[0] == "Cash list"
    players = lines[: lines.index("Tischbeste", 1)]
    for row in cash.rows:
        at = next(i for i in range(1, len(players)) if players[i - 1 : i + 1] == [str(row.start_number), row.name])
        fee = money(row.entry_fee_cents) if row.fee_paid else f"{money(row.entry_fee_cents)} (owed)"
        assert players[at + 1] == row.club  # his club below his name (issue 33)
        assert players[at + 2 : at + 7] == [
            fee,
            or_dash(row.reuegeld_cents),
            or_dash(row.weitergeld_cents),
            or_dash(row.payout_cents),
            or_dash(row.owes_cents),
        ]
    assert any(row.payout_cents for row in cash.rows) and any(row.reuegeld_cents for row in cash.rows)


@pytest.mark.django_db
def test_cash_list_totals_balance(finished_tournament):
    cash = cash_list(finished_tournament)
    lines = text_of(render_cash_list(cash_list_data(finished_tournament)))
    totals = after(lines, "Total", 5)
    assert totals == [
        money(cash.entry_fees_cents),
        money(cash.reuegeld_cents),
        money(cash.weitergeld_cents),
        money(cash.payouts_cents),
        money(cash.to_pay_cents),
    ]
    assert sum(row.owes_cents for row in cash.rows) == cash.pot_cents  # everybody paid: Reuegeld less payouts
    assert cash.entry_fees_cents == 21 * finished_tournament.entry_fee_cents

    # Tischbeste: per round and table; their totals and the balance add up to the pot.
    tischbeste = lines[lines.index("Tischbeste", 1) : lines.index("Balance")]
    for t in cash.tischbeste:
        names = [f"{p['name']} ({p['start_number']})" for p in t["players"]]
        at = next(i for i in range(len(tischbeste) - 2) if tischbeste[i : i + 2] == [str(t["round"]), str(t["table"])])
        points_at = tischbeste.index(signed(t["points"]), at + 2)
        assert " ".join(tischbeste[at + 2 : points_at]) == ", ".join(names)  # the equal best: one a line if need be
        assert tischbeste[points_at + 1 : points_at + 5] == [
            or_dash(t["collected_cents"]),
            or_dash(t["payout_cents"]),
            or_dash(t["payout_cents"] * len(names)),
            or_dash(t["collected_cents"] - t["payout_cents"] * len(names)),
        ]
    assert any(len(t["players"]) > 1 for t in cash.tischbeste), "seed 4 has a shared Tischbester"
    collected, paid_out, to_pot = after(tischbeste, "Total", 3)
    assert collected == money(cash.reuegeld_cents + cash.weitergeld_cents)
    assert paid_out == money(cash.payouts_cents) and to_pot == money(cash.pot_cents)

    balance = lines[lines.index("Balance") :]
    assert after(balance, "Reuegeld") == [money(cash.reuegeld_cents)]
    assert after(balance, "paid out to Tischbeste") == [money(cash.payouts_cents)]
    assert after(balance, "Paid in") == [money(cash.paid_in_cents)] == after(balance, "Paid out and kept")
    assert cash.reuegeld_cents + cash.weitergeld_cents - cash.payouts_cents == cash.pot_cents > 0
    assert "The amounts do not balance: recompute the standings." not in lines


# --- certificates ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_certificates_for_the_first_three_without_prizes(finished_tournament):
    rows = standings_view(finished_tournament).rows
    content = render_certificates(certificates_data(finished_tournament))
    pages = pdf_pages(content)
    assert len(pages) == 3
    for page, row in zip(pages, rows, strict=False):
        assert page[0] == "Certificate"
        assert finished_tournament.name in page
        text = " ".join(page)
        assert f"{row['name']} with {row['points']} points took {row['rank']}. place" in text
        assert "For the organiser" in page and finished_tournament.club.name in page
        assert "Gasthof zur Post, Großkarolinenfeld" in text


@pytest.mark.django_db
def test_certificates_for_the_prize_places_or_as_many_as_asked(finished_tournament):
    prizes_set(
        tournament=finished_tournament,
        prizes=[{"place": p, "amount_cents": 1000, "goods": ""} for p in range(1, 6)]
        + [{"place": None, "amount_cents": None, "goods": "Trostpreis"}],
    )
    rows = standings_view(finished_tournament).rows
    pages = pdf_pages(render_certificates(certificates_data(finished_tournament)))
    assert [p[p.index(r["name"]) + 2] for p, r in zip(pages, rows, strict=False)] == [
        f"{n}. place" for n in range(1, 6)
    ]  # not the last place's consolation prize
    assert len(pdf_pages(render_certificates(certificates_data(finished_tournament, places=2)))) == 2


@pytest.mark.django_db
def test_certificate_carries_the_clubs_logo_only_when_there_is_one(finished_tournament):
    club = finished_tournament.club
    without = pypdf.PdfReader(io.BytesIO(render_certificates(certificates_data(finished_tournament))))
    assert all(page_images(page) == [] for page in without.pages)

    club.logo.save("vereinslogo.png", ContentFile(png()), save=True)
    content = render_certificates(certificates_data(finished_tournament))
    with_logo = pypdf.PdfReader(io.BytesIO(content))
    assert all(len(page_images(page)) == 1 for page in with_logo.pages)
    assert content == render_certificates(certificates_data(finished_tournament))  # deterministic


@pytest.mark.django_db
@pytest.mark.parametrize("broken", ["not an image", "missing file"])
def test_a_broken_or_missing_logo_is_left_out(finished_tournament, broken):
    club = finished_tournament.club
    club.logo.save(
        "vereinslogo.png", ContentFile(b"GIF89a not really" if broken == "not an image" else png()), save=True
    )
    if broken == "missing file":
        club.logo.storage.delete(club.logo.name)
    reader = pypdf.PdfReader(io.BytesIO(render_certificates(certificates_data(finished_tournament))))
    assert len(reader.pages) == 3 and all(page_images(page) == [] for page in reader.pages)


# --- deterministic output --------------------------------------------------------------------


@pytest.mark.django_db
def test_the_same_data_gives_the_same_bytes(finished_tournament):
    for build, render in ((prize_list_data, render_prize_list), (cash_list_data, render_cash_list)):
        data = build(finished_tournament)
        assert render(data) == render(data)


@pytest.mark.django_db
def test_certificates_printed_before_the_standings_are_final_say_so(finished_tournament):
    final = pdf_pages(render_certificates(certificates_data(finished_tournament)))
    assert not any("Printed before the standings were final." in page for page in final)
    from tournaments.models import HandRevision

    table = finished_tournament.rounds.get(number=2).tables.get(number=1)
    # a change the standings have not counted yet (written as the services write one, not merged)
    HandRevision.objects.create(
        table=table, number=HandRevision.TOTALS_NUMBER, action=HandRevision.Action.TOTALS, new={"1": 0}
    )
    early = pdf_pages(render_certificates(certificates_data(finished_tournament)))
    assert all("Printed before the standings were final." in page for page in early)


@pytest.mark.django_db
def test_the_lists_carry_the_clubs_logo_in_their_head_when_there_is_one(finished_tournament):
    from tournaments.pdf.standings import render_standings
    from tournaments.selectors.printing import standings_data

    documents = (
        (standings_data, render_standings),
        (prize_list_data, render_prize_list),
        (cash_list_data, render_cash_list),
    )
    for build, render in documents:
        reader = pypdf.PdfReader(io.BytesIO(render(build(finished_tournament))))
        assert all(page_images(page) == [] for page in reader.pages)
    finished_tournament.club.logo.save("vereinslogo.png", ContentFile(png(600, 200)), save=True)
    for build, render in documents:
        content = render(build(finished_tournament))
        reader = pypdf.PdfReader(io.BytesIO(content))
        assert all(len(page_images(page)) == 1 for page in reader.pages)  # every page's head
        assert "Gasthof zur Post" in reader.pages[0].extract_text()  # the head's text is still there
        assert content == render(build(finished_tournament))


def test_a_long_title_and_a_logo_leave_the_heads_right_column_readable():
    """The series' head (a long subtitle, a long name, a logo) shrank the tournament's name to 5 pt;
    the right-hand column now keeps its width, and its lines are never larger than the name."""
    import datetime

    from reportlab.platypus import Paragraph

    from tournaments.pdf.drawing import register_fonts
    from tournaments.pdf.lists import CELL, ListHead, list_template, render_list

    register_fonts()
    computed_at = datetime.datetime(2026, 11, 24, 13, 56)  # noqa: DTZ001 (local time, as the head holds it)
    head = ListHead(
        tournament="Jahreswertung 2026 · Schafkopffreunde Musterdorf",
        date=datetime.date(2026, 9, 12),
        venue="3 von 3 Turnieren gespielt",
        computed_at=computed_at,
        current=True,
        logo=png(600, 200),
    )
    template = list_template(head, "series", "Serienwertung", "die besten 2 Ergebnisse zählen")
    content = render_list([template], [Paragraph("x", CELL)], title="Serienwertung")
    sizes: dict[str, float] = {}

    def visit(text, cm, tm, font, size):
        if text.strip():
            sizes[text.strip()] = size * tm[0]  # the size times the text matrix's scale

    pypdf.PdfReader(io.BytesIO(content)).pages[0].extract_text(visitor_text=visit)
    name = sizes[head.tournament]
    assert name >= 8.5  # it was 5
    assert all(sizes[line] <= name for line in sizes if line.startswith(("12.", "Stand", "As of")))
    assert sizes["Serienwertung"] >= 14 and sizes["die besten 2 Ergebnisse zählen"] >= 6.5
