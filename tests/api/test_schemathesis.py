"""Schemathesis over /api/schema/: generated requests for every operation, as an organiser, as a table key and as
a player's own link (each operation of the schema under exactly one of them: a new one without fails).

No answer may be a server error (5xx), whatever is sent (issue 13's acceptance). The
requests go in-process through the WSGI application (Django's whole middleware stack, no server), inside
the test's transaction. Path parameters are pointed at the fixture's tournament, rounds, tables and games
so that most requests reach real objects instead of ending in a 404 at the URL.
"""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error

from tests.api.conftest import entry, rufspiel
from tournaments.services.hands import hand_record

EXAMPLES = 12  # per operation and role: enough to reach every branch of the parsers, bounded for 2 cores
CSRF = "s" * 32  # a CSRF secret sent as cookie and header (unmasked secrets are accepted)
# Only the generate phase: schemathesis' coverage phase adds hundreds of explicit cases per operation, more
# than the suite's time allows on two cores; generated examples mix valid and invalid data (both modes).
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)


pytestmark = pytest.mark.django_db

# The schema as the server serves it, read once at collection through the WSGI application (no database
# needed). Schemathesis' fixture-based loader does not run under pytest 9, so the schema is loaded here.
APP = get_wsgi_application()
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", APP)


@pytest.fixture(autouse=True)
def _shared_connection():
    """Requests through the WSGI application keep the test's database connection (and its transaction), as
    Django's test client does: no closing of "old" connections at the start and end of each request."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def played(table, other_table):
    """Round 1 published, games 1–3 entered at table 1 (so corrections and deletions find something)."""
    for number in (1, 2, 3):
        hand_record(table=table, record=rufspiel(number), client_id=entry()["client_id"])
    return table


def _aim(case, **fixed) -> None:
    """Point the generated path at the fixture: fixed values by name, small numbers for the rest."""
    for name, value in list(case.path_parameters.items()):
        if name in fixed:
            case.path_parameters[name] = fixed[name]
        elif isinstance(value, int):
            case.path_parameters[name] = 1 + abs(value) % 4  # rounds, tables, games and start numbers 1..4


CHECKS = [not_a_server_error]
# Each operation of the API and who calls it: the organiser (a session), a table (its entry key in the path),
# a player (his personal key in the path).
ORGANISER, TABLE, PLAYER = r"^/api/tournaments/", r"^/api/tisch/", r"^/api/s/"


def test_every_operation_is_fuzzed_as_its_caller():
    import re

    paths = {operation.ok().path for operation in schema.get_all_operations()}
    callers = {path: [role for role in (ORGANISER, TABLE, PLAYER) if re.match(role, path)] for path in paths}
    assert all(len(roles) == 1 for roles in callers.values()), {p: r for p, r in callers.items() if len(r) != 1}
    assert {r for roles in callers.values() for r in roles} == {ORGANISER, TABLE, PLAYER}


@schema.include(path_regex=ORGANISER).parametrize()
@FUZZ
def test_no_server_error_for_an_organiser(case, played, client, organiser):
    client.force_login(organiser)
    _aim(case, slug="fruehjahr")
    case.call_and_validate(
        cookies={"sessionid": client.cookies["sessionid"].value, "csrftoken": CSRF},
        headers={"X-CSRFToken": CSRF},
        checks=CHECKS,
    )


@schema.include(path_regex=TABLE).parametrize()
@FUZZ
def test_no_server_error_for_a_table_key(case, played):
    _aim(case, entry_key=played.entry_key)
    case.call_and_validate(checks=CHECKS)


@schema.include(path_regex=PLAYER).parametrize()
@FUZZ
def test_no_server_error_for_a_players_link(case, played):
    _aim(case, key=played.seats.get(number=1).registration.key)
    case.call_and_validate(checks=CHECKS)
