"""The tablet's new game on its lean path (tournaments/api/lean.py) answers exactly as the DRF view does.

Every case is sent twice: as a tablet sends it (the lean path serves it or hands it on) and with the
lean path switched off (the DRF view alone); status, body and the headers a client reads must match.
"""
import json
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.renderers import JSONRenderer

from tests.api.conftest import entry, rufspiel
from tournaments.api import lean
from tournaments.api import serializers as s
from tournaments.links import table_link_key
from tournaments.models import Hand, HandRevision, Round

pytestmark = pytest.mark.django_db

HEADERS = ("Content-Type", "Allow", "Vary", "Retry-After")


def url(table) -> str:
    return f"/api/tisch/{table.entry_key}/hands/"


@pytest.fixture
def drf_only(monkeypatch):
    """Switch the lean path off for the block: every POST is the DRF view's."""
    def off():
        monkeypatch.setattr(lean, "hand_create", lambda view, request, entry_key: None)
    return off


@pytest.fixture
def served(monkeypatch):
    """Count the requests the lean path answered itself."""
    answered = []
    real = lean.hand_create

    def counting(view, request, entry_key):
        response = real(view, request, entry_key)
        if response is not None:
            answered.append(response.status_code)
        return response
    monkeypatch.setattr(lean, "hand_create", counting)
    return answered


def answer(response) -> tuple:
    return (response.status_code, response.content, {h: response.get(h) for h in HEADERS})


def test_a_new_game_and_its_retry_answer_as_drf_does(tablet, table, other_table, served, drf_only):
    body = entry(1)
    lean_new, lean_retry = (tablet.post(url(table), body, format="json") for _ in range(2))
    assert served == [201, 200]
    stored = Hand.objects.get(table=table)
    assert lean_new.content == lean_retry.content == JSONRenderer().render(s.HandSerializer(stored).data)
    drf_only()
    other = entry(1)
    drf_new, drf_retry = (tablet.post(url(other_table), other, format="json") for _ in range(2))
    assert [answer(r)[0] for r in (drf_new, drf_retry)] == [201, 200]
    assert answer(lean_new)[2] == answer(drf_new)[2] and answer(lean_retry)[2] == answer(drf_retry)[2]
    assert list(lean_new.json()) == list(drf_new.json())  # the same fields in the same order


BAD_BODIES = [
    pytest.param({"augen": 200}, id="a rule the service checks"),
    pytest.param({"augen": "viel"}, id="a wrong type"),
    pytest.param({"augen": 72.5}, id="a float"),
    pytest.param({"contract": ""}, id="a blank text"),
    pytest.param({"schwarz": "yes"}, id="a flag as text"),
    pytest.param({"farbe": "gras"}, id="an unknown field"),
    pytest.param({"client_id": "not-a-uuid"}, id="a malformed client id"),
    pytest.param({"client_id": None}, id="no client id"),
    pytest.param({"number": 0}, id="game 0"),
    pytest.param({"number": 5}, id="a game after a gap"),
    pytest.param({"number": 40000}, id="a game number out of range"),
]


@pytest.mark.parametrize("change", BAD_BODIES)
def test_an_invalid_game_answers_as_drf_does_naming_the_field(tablet, table, drf_only, change):
    body = {**entry(1), **change}
    if change.get("client_id", "") is None:
        body.pop("client_id")
    fast = tablet.post(url(table), body, format="json")
    drf_only()
    slow = tablet.post(url(table), body, format="json")
    assert fast.status_code == 400 and answer(fast) == answer(slow)
    assert set(fast.json()) <= {*change, "non_field_errors"} and fast.json()
    assert not Hand.objects.exists()


def test_text_drf_trims_is_handed_to_drf_and_stored_trimmed(tablet, table, served):
    response = tablet.post(url(table), {**entry(1), "contract": " rufspiel "}, format="json")
    assert served == [] and response.status_code == 201 and Hand.objects.get().contract == "rufspiel"


def test_bodies_drf_reads_differently_are_answered_by_drf(tablet, table, drf_only):
    cases = [
        (b"{not json", "application/json"),
        (b'{"augen": NaN}', "application/json"),
        (b"[1, 2]", "application/json"),
        (b"", "application/json"),
        (json.dumps(entry(1)).encode(), "text/plain"),
        (b"\xef\xbb\xbf" + json.dumps(entry(1)).encode(), "application/json"),  # a byte order mark
        (json.dumps(entry(1)).encode("utf-16"), "application/json"),  # Python's json.loads would read both
    ]
    fast = [answer(tablet.generic("POST", url(table), body, content_type=kind)) for body, kind in cases]
    drf_only()
    slow = [answer(tablet.generic("POST", url(table), body, content_type=kind)) for body, kind in cases]
    assert fast == slow and all(status >= 400 for status, _body, _h in fast)


def test_conflicts_answer_as_drf_does(tablet, table, other_table, drf_only):
    taken = entry(1)
    tablet.post(url(table), taken, format="json")
    cases = [
        (table, {**entry(1), "augen": 30}),  # game 1 is taken, and differently
        (other_table, {**rufspiel(1), "client_id": taken["client_id"]}),  # another table's submission id
    ]
    fast = [answer(tablet.post(url(t), body, format="json")) for t, body in cases]
    drf_only()
    slow = [answer(tablet.post(url(t), body, format="json")) for t, body in cases]
    assert fast == slow and [a[0] for a in fast] == [409, 409]
    assert [list(json.loads(a[1])) for a in fast] == [["number"], ["client_id"]]


def test_a_closed_round_a_wrong_key_and_a_table_card_answer_as_drf_does(tablet, table, published, drf_only):
    card = f"/api/tisch/{table_link_key(published.tournament_id, table.number)}/hands/"
    assert tablet.post(card, entry(1), format="json").status_code == 201  # a table card's key opens its table
    assert Hand.objects.get().table == table
    wrong = tablet.post(f"/api/tisch/{table.entry_key}x/hands/", entry(2), format="json")
    assert wrong.status_code == 404 and list(wrong.json()) == ["detail"]
    Round.objects.filter(pk=published.pk).update(status=Round.Status.CLOSED)
    fast = answer(tablet.post(url(table), entry(2), format="json"))
    drf_only()
    slow = answer(tablet.post(url(table), entry(2), format="json"))
    assert answer(wrong) == answer(tablet.post(f"/api/tisch/{table.entry_key}x/hands/", entry(2), format="json"))
    assert fast == slow and fast[0] == 409 and list(json.loads(fast[1])) == ["round"]


def test_a_browser_asking_for_html_gets_drfs_page(tablet, table, served):
    response = tablet.post(url(table), entry(1), format="json", HTTP_ACCEPT="text/html")
    assert served == [] and response.status_code == 201 and response["Content-Type"].startswith("text/html")


def test_the_rate_limit_counts_a_request_once_and_answers_429_as_drf_does(tablet, table, settings):
    from django.core.cache import cache
    from rest_framework.throttling import SimpleRateThrottle

    cache.clear()
    SimpleRateThrottle.THROTTLE_RATES = {**SimpleRateThrottle.THROTTLE_RATES, "table_write": "3/min"}
    try:
        answers = [
            tablet.post(url(table), {"augen": "viel"}, format="json").status_code,  # handed on to DRF: 400
            tablet.post(url(table), entry(1), format="json").status_code,
            tablet.post(url(table), entry(2), format="json").status_code,
            tablet.post(url(table), entry(3), format="json"),
        ]
    finally:
        SimpleRateThrottle.THROTTLE_RATES = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        cache.clear()
    throttled = answers.pop()
    assert answers == [400, 201, 201]  # counted once each: the handed-on 400 too, and only once
    assert throttled.status_code == 429 and int(throttled["Retry-After"]) > 0 and list(throttled.json()) == ["detail"]
    assert Hand.objects.count() == 2


def test_a_stored_game_is_rendered_from_the_serializers_own_fields(tablet, table):
    bodies = [entry(1), {"contract": "solo", "declarer": 3, "sie": True, "client_id": str(uuid.uuid4())},
              {"contract": "wenz", "declarer": 1, "augen": 75, "laufende": 2,
               "client_id": str(uuid.uuid4())}]
    assert [tablet.post(url(table), body, format="json").status_code for body in bodies] == [201] * 3
    hands = list(Hand.objects.order_by("number"))
    assert len(hands) == 3
    for hand in hands:
        assert lean.hand_data(hand) == s.HandSerializer(hand).data
    assert HandRevision.objects.filter(hand__in=hands, action="create").count() == 3


def test_the_save_writes_rows_the_orm_would_not_refuse():
    """``services.hands._insert`` writes a game and its revision without ``Model.save``: that is only
    right while neither model has a save() of its own nor anyone listening to its saving."""
    from django.db.models import Model, signals

    for model in (Hand, HandRevision):
        assert model.save is Model.save, model
        for signal in (signals.pre_save, signals.post_save):
            assert not signal.has_listeners(model), (signal, model)


def _column_values(field) -> list:
    """Values a column of this kind may be handed: its own type, subclasses of it and others it converts."""
    from django.db import models

    if isinstance(field, models.BooleanField):
        return [True, False, None, 1, 0]
    if isinstance(field, models.IntegerField):
        return [0, 7, None, -3, 2**40, True, 7.0, "7"]
    if isinstance(field, models.CharField):
        return ["gras", "", None, "grüß", HandRevision.Action.CREATE, 7]
    if isinstance(field, models.UUIDField):
        return [uuid.UUID(int=7), None, str(uuid.UUID(int=8))]
    return [{"1": 2}, None, {}, [1, "a"]]


def _prepared(value) -> tuple:
    """A prepared parameter as compared: its type and value (psycopg's JSON wrapper by what it wraps)."""
    return type(value), getattr(value, "obj", value)


@pytest.mark.parametrize("model", [Hand, HandRevision])
def test_the_save_builds_and_prepares_its_rows_as_the_orm_does(model, table):
    """``_new`` builds the row ``model(**values)`` builds, and ``_row`` prepares each column as the ORM's
    ``get_db_prep_save(pre_save(...))`` does, for values of every type a column may be handed."""
    from django.db import connection

    from tournaments.services import hands

    hand = Hand.objects.create(table=table, number=1, dealer=1, contract="weiter", client_id=uuid.uuid4())
    related = {"table": table, "hand": hand, "entered_by": None, "by": None}
    plain = [f for f in model._meta.concrete_fields if not f.is_relation and not f.primary_key
             and not getattr(f, "auto_now_add", False) and not getattr(f, "auto_now", False)]
    compared = 0
    for offset in range(8):
        values = {f.name: _column_values(f)[(i + offset) % len(_column_values(f))] for i, f in enumerate(plain)}
        values.update({name: obj for name, obj in related.items() if any(f.name == name for f in model._meta.fields)})
        ours, orms = hands._new(model, values), model(**values)
        columns = [f.attname for f in model._meta.concrete_fields]
        assert [getattr(ours, c) for c in columns] == [getattr(orms, c) for c in columns]
        assert ours._state.fields_cache == orms._state.fields_cache and ours._state.adding
        fields = [reader[0] for reader in hands._insert_sql(model, connection.vendor)[1]]
        try:
            expected = [field.get_db_prep_save(field.pre_save(orms, True), connection) for field in fields]
        except Exception as err:  # a value the column refuses: refused alike
            with pytest.raises(type(err)):
                hands._row(ours, connection)
            continue
        prepared = hands._row(ours, connection)
        for field, value, orm in zip(fields, prepared, expected, strict=True):
            if not getattr(field, "auto_now_add", False) and not getattr(field, "auto_now", False):
                assert _prepared(value) == _prepared(orm), field.name
        compared += 1
    assert compared >= 4


VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 200), st.floats(allow_nan=False),
                   st.sampled_from(["", " ", "gras", " gras", "rufspiel", "wenz", "solo", "\x00", "12", "gr\ud800s", "grüß",
                                    str(uuid.UUID(int=7)), "{" + str(uuid.UUID(int=7)) + "}"]),
                   st.lists(st.integers(), max_size=2))
KEYS = st.sampled_from([*s.HandEntrySerializer._declared_fields, "unknown", "id", "points"])


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(st.dictionaries(KEYS, VALUES, max_size=8))
def test_the_lean_check_takes_only_what_drf_takes_and_reads_it_alike(data):
    taken = lean.entry_body(data)
    serializer = s.HandEntrySerializer(data=data)
    if taken is None:
        return  # handed to DRF: whatever DRF answers is the answer
    assert serializer.is_valid(), serializer.errors
    assert taken == dict(serializer.validated_data)
