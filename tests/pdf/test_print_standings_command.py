"""manage.py print_standings: the documents of the tournament's end as files, and the errors it names."""

import pytest
from django.core.management import CommandError, call_command

from tests.pdf.conftest import pdf_pages
from tournaments.pdf.cash_list import render_cash_list
from tournaments.pdf.certificates import render_certificates
from tournaments.pdf.prize_list import render_prize_list
from tournaments.pdf.standings import render_standings
from tournaments.selectors.printing import cash_list_data, certificates_data, prize_list_data, standings_data

pytestmark = pytest.mark.django_db


def test_standings_by_default(finished_tournament, tmp_path):
    output = tmp_path / "rangliste.pdf"
    call_command("print_standings", finished_tournament.slug, "--output", str(output))
    assert output.read_bytes() == render_standings(standings_data(finished_tournament))
    assert [page[1] for page in pdf_pages(output.read_bytes())] == ["Overall", "Round 1", "Round 2"]


def test_one_round(finished_tournament, tmp_path):
    output = tmp_path / "runde.pdf"
    call_command("print_standings", finished_tournament.slug, "-o", str(output), "--round", "1")
    assert output.read_bytes() == render_standings(standings_data(finished_tournament, round=1))


@pytest.mark.parametrize(
    "document, build, render",
    [
        ("prizes", prize_list_data, render_prize_list),
        ("cash", cash_list_data, render_cash_list),
        ("certificates", certificates_data, render_certificates),
    ],
)
def test_each_document(finished_tournament, tmp_path, document, build, render):
    output = tmp_path / f"{document}.pdf"
    call_command("print_standings", finished_tournament.slug, "-o", str(output), "--document", document)
    assert output.read_bytes() == render(build(finished_tournament))


def test_certificates_for_a_number_of_places(finished_tournament, tmp_path):
    output = tmp_path / "urkunden.pdf"
    call_command("print_standings", finished_tournament.slug, "-o", str(output), "-d", "certificates", "--places", "4")
    assert len(pdf_pages(output.read_bytes())) == 4


@pytest.mark.parametrize(
    "args, field",
    [
        (["gibt-es-nicht"], "slug"),
        (["ende-21", "--document", "rangliste"], "document"),
        (["ende-21", "--round", "drei"], "round"),
        (["ende-21", "--round", "0"], "round"),
        (["ende-21", "--round", "²"], "round"),  # a digit to str.isdigit(), no number to int()
        (["ende-21", "--round", str(10**30)], "round"),
        (["ende-21", "--round", "3"], "round"),
        (["ende-21", "--round", "1", "--document", "cash"], "round"),
        (["ende-21", "--document", "certificates", "--places", "null"], "places"),
        (["ende-21", "--document", "certificates", "--places", "²"], "places"),
        (["ende-21", "--places", "3"], "places"),
    ],
)
def test_bad_arguments_name_the_argument(finished_tournament, tmp_path, args, field):
    output = tmp_path / "x.pdf"
    with pytest.raises(CommandError, match=f"^{field}: "):
        call_command("print_standings", *args, "--output", str(output))
    assert not output.exists()


def test_unwritable_output(finished_tournament, tmp_path):
    with pytest.raises(CommandError, match=r"^output: the folder .* does not exist"):
        call_command("print_standings", "ende-21", "--output", str(tmp_path / "fehlt" / "x.pdf"))
    with pytest.raises(CommandError, match=r"^output: cannot write"):
        call_command("print_standings", "ende-21", "--output", str(tmp_path))  # a folder, not a file
