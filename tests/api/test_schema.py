"""The API is documented: /api/schema/ generates without warnings and names every path; /api/docs/ loads."""

import re

import pytest
import yaml
from django.core.management import call_command

PATHS = [
    "/api/tournaments/{slug}/registrations/",
    "/api/tournaments/{slug}/registrations/{start_number}/",
    "/api/tournaments/{slug}/standings/",
    "/api/tournaments/{slug}/rounds/",
    "/api/tournaments/{slug}/rounds/{number}/",
    "/api/tournaments/{slug}/rounds/{number}/publish/",
    "/api/tournaments/{slug}/rounds/{number}/redraw/",
    "/api/tournaments/{slug}/rounds/{number}/close/",
    "/api/tournaments/{slug}/rounds/{number}/reopen/",
    "/api/tournaments/{slug}/rounds/{number}/tables/",
    "/api/tournaments/{slug}/rounds/{number}/tables/{table}/",
    "/api/tournaments/{slug}/rounds/{number}/tables/{table}/hands/{game}/",
    "/api/tisch/{entry_key}/",
    "/api/tisch/{entry_key}/hands/",
    "/api/tisch/{entry_key}/hands/{number}/",
    "/api/tisch/{entry_key}/preview/",
    "/api/tisch/{entry_key}/confirm/",
]


def test_the_schema_is_served_and_names_every_path(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    assert set(PATHS) <= set(schema["paths"])
    post = schema["paths"]["/api/tisch/{entry_key}/hands/"]["post"]
    assert set(post["responses"]) == {"200", "201", "400", "404", "409", "429"}
    assert post["security"] == [{}]  # no login: the key is the credential


def test_the_schema_knows_kreuz_and_thrown_in_games(client):
    """Issue 18: the contract kreuz, its partner opposite, and the Strich of a replayed 60:60 are documented."""
    schemas = yaml.safe_load(client.get("/api/schema/").content)["components"]["schemas"]
    for name in ("HandEntry", "HandPreview", "PatchedHandRecordPatch"):
        contract = schemas[name]["properties"]["contract"]["description"]
        assert "kreuz" in contract and "all_pass = kreuz" in contract, name
        assert "Kreuz" in schemas[name]["properties"]["partner"]["description"], name
    for name in ("Hand", "HandScore"):
        thrown_in = schemas[name]["properties"]["thrown_in"]
        assert thrown_in["type"] == "boolean" and "60:60" in thrown_in["description"], name
    assert "not the dealer" in schemas["HandScore"]["properties"]["weitergeld"]["description"]


def test_the_schema_says_for_whom_a_substitute_plays(client):
    """Issue 34: a substitute's row says "für <Name>" in the registrations and the standings."""
    schemas = yaml.safe_load(client.get("/api/schema/").content)["components"]["schemas"]
    for name, fields in (
        ("Registration", ("substitute_for", "substitute_for_name", "display_name", "fee_due", "left_during_round")),
        ("StandingsRow", ("substitute_for", "display_name", "mark", "tie_note")),
    ):
        assert set(fields) <= set(schemas[name]["properties"]), name
    assert "für" in schemas["StandingsRow"]["properties"]["display_name"]["description"]


def test_the_schema_generates_without_a_warning(tmp_path):
    # --fail-on-warn raises on any warning or error of the generator (a view without serializer, ...)
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))


@pytest.mark.django_db
def test_the_docs_page_loads(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    # Swagger UI's setup comes as a script file (no inline script under the Content-Security-Policy).
    script = client.get("/api/docs/?script")
    assert script.status_code == 200
    assert b"/api/schema/" in script.content


@pytest.mark.django_db
def test_the_docs_page_works_without_internet(client):
    html = client.get("/api/docs/").content.decode()
    assert not re.search(r"""(src|href)=["']https?://""", html), "the docs page loads something from the internet"
