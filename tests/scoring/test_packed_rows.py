"""The overall list stored with where each row starts (issue 14): pages read one page and one row of it.

``pack_rows`` must write exactly the bytes ``PackedJSONField`` writes for the list, and ``PackedRows``
must read every row, slice and start number as decoding the whole list would.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.models import PackedJSONField, PackedRows, StandingsSnapshot, pack_rows

names = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)  # quotes, braces, umlauts, emoji
rows_strategy = st.lists(
    st.fixed_dictionaries(
        {
            "rank": st.integers(1, 5000),
            "name": names,
            "club": names,
            "points": st.integers(-(10**6), 10**6),
            "round_points": st.lists(st.integers(-999, 999), max_size=3),
            "round_solos": st.lists(
                st.one_of(st.none(), st.tuples(st.integers(0, 9), st.integers(0, 9)).map(list)), max_size=3
            ),
            "note": st.one_of(
                st.none(), st.fixed_dictionaries({"rank": st.integers(-(2**63), 2**63 - 1), "text": names})
            ),
        }
    ),
    max_size=25,
).map(lambda rows: [{**row, "start_number": n} for n, row in enumerate(rows, start=1)])


@settings(max_examples=200, deadline=None)
@given(rows_strategy, st.data())
def test_packed_rows_read_as_the_whole_list(rows, data):
    packed, index = pack_rows(rows)
    assert bytes(packed) == PackedJSONField().get_prep_value(rows)  # the same bytes as before the index
    read = PackedRows.read(packed, index)
    assert len(read) == len(rows)
    for i in range(-len(rows), len(rows)):
        assert read[i] == rows[i]
    start = data.draw(st.integers(-30, 30))
    stop = data.draw(st.one_of(st.none(), st.integers(-30, 30)))
    assert read[start:stop] == rows[start:stop]
    assert read[::2] == rows[::2]
    number = data.draw(st.integers(0, len(rows) + 1))
    assert read.by_number(number) == next((r for r in rows if r["start_number"] == number), None)
    assert list(read) == rows and read == rows


def _snapshot_order(row: dict) -> dict:
    """A row as the snapshot writes it: "rank" first, as in every other row (and in its note)."""
    note = row["note"] if row["note"] is None else {"rank": row["note"]["rank"], **row["note"]}
    return {"rank": row["rank"], **row, "note": note}


@settings(max_examples=200, deadline=None)
@given(rows_strategy)
def test_rows_with_the_same_first_key_read_back(rows):
    """Rows whose first key is the same are found in the whole list's bytes; a nested object that
    starts with that key too (a note) is not taken for a row."""
    rows = [_snapshot_order(row) for row in rows]
    packed, index = pack_rows(rows)
    assert bytes(packed) == PackedJSONField().get_prep_value(rows)
    read = PackedRows.read(packed, index)
    assert [read[i] for i in range(len(rows))] == rows
    assert index["numbers"] == [row["start_number"] for row in rows]


def test_a_row_out_of_range_is_an_index_error():
    packed, index = pack_rows([{"start_number": 1, "rank": 1}])
    with pytest.raises(IndexError):
        PackedRows.read(packed, index)[1]
    assert not PackedRows.read(*pack_rows([]))


@pytest.mark.django_db
def test_a_page_and_the_viewers_row_decode_only_those_rows(django_capture_on_commit_callbacks):
    """The standings page (top of the list, his own row) does not decode the whole list."""
    from tournaments.selectors import standings as selectors
    from tournaments.services.simulation import tournament_simulate

    with django_capture_on_commit_callbacks(execute=True):
        tournament = tournament_simulate(slug="seiten", players=60, rounds=1, games=8, seed=4)
    snapshot = StandingsSnapshot.objects.get(tournament=tournament)
    assert snapshot.overall_index["numbers"] == [r["start_number"] for r in snapshot.overall]
    selectors._LISTS.clear()
    last = snapshot.overall[-1]
    view = selectors.standings_view(tournament, paged=True, page=1, me=last["start_number"])
    kept = selectors._LISTS[next(iter(selectors._LISTS))][0]
    assert view.me == last and view.rows == snapshot.overall[: selectors.PAGE_SIZE] and view.total == 60
    assert kept._all is None  # nothing but page 1 and his row decoded
    # a snapshot written before the index is read whole
    StandingsSnapshot.objects.filter(pk=snapshot.pk).update(overall_index=None, version=snapshot.version + 1)
    selectors._LISTS.clear()
    assert selectors.standings_view(tournament, paged=True, me=last["start_number"]).me == last


def test_rows_with_number_keys_are_packed_as_the_field_writes_them():
    rows = [{"start_number": 1, "money": {7: [0, 50, 0]}}, {"start_number": 2, "money": {}}]
    packed, index = pack_rows(rows)
    assert bytes(packed) == PackedJSONField().get_prep_value(rows)
    assert list(PackedRows.read(packed, index)) == [
        {"start_number": 1, "money": {"7": [0, 50, 0]}},
        {"start_number": 2, "money": {}},
    ]
