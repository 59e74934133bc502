"""One German sort key (scoring/rules/collation.py) for the seat list on screen and on paper."""

import pytest

from scoring.rules.collation import german_fold, name_initial, name_sort_key


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Ächter", "achter"),
        ("ÖZDEMIR", "ozdemir"),
        ("Müller", "muller"),
        ("Strauß", "strauss"),
        ("STRASSE", "strasse"),
        ("José", "jose"),
        ("", ""),
    ],
)
def test_german_fold(text, folded):
    assert german_fold(text) == folded


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (
            [("Zehetmair", "Anna"), ("Ächter", "Alois"), ("Bauer", "Josef"), ("adler", "Eva")],
            [("Ächter", "Alois"), ("adler", "Eva"), ("Bauer", "Josef"), ("Zehetmair", "Anna")],
        ),
        (
            [("Strauß", "Sepp"), ("Strauss", "Anton"), ("Straub", "Zita")],
            [("Straub", "Zita"), ("Strauss", "Anton"), ("Strauß", "Sepp")],
        ),
        ([("Ab C", "Anna"), ("Ab", "Zenz")], [("Ab", "Zenz"), ("Ab C", "Anna")]),  # last name first, then first name
        (
            [("Özdemir", "Ali"), ("Obermeier", "Franz"), ("Oz", "Ida")],
            [("Obermeier", "Franz"), ("Oz", "Ida"), ("Özdemir", "Ali")],
        ),
    ],
)
def test_names_sort_as_a_german_reader_expects(names, expected):
    assert sorted(names, key=lambda name: name_sort_key(*name)) == expected


@pytest.mark.parametrize(("last", "letter"), [("Ächter", "A"), ("özdemir", "O"), ("ßa", "S"), ("", "#")])
def test_name_initial(last, letter):
    assert name_initial(last) == letter
