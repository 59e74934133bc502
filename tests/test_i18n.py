"""German first, English second: the message catalogues are complete, compiled, and the pages use them.

The msgids in templates and Python are English; ``locale/de`` translates every one of them,
``locale/en`` keeps them as they are. After adding or changing a text: ``make messages``, translate
the new entries in ``locale/de/LC_MESSAGES/django.po``, and commit the .po and .mo files together.
"""

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tournaments.models import Round, Table

LOCALE = Path(__file__).resolve().parents[1] / "locale"
PO = {lang: LOCALE / lang / "LC_MESSAGES" / "django.po" for lang in ("de", "en")}
MO = {lang: path.with_suffix(".mo") for lang, path in PO.items()}
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


# --- the catalogues ---------------------------------------------------------------------------


def parse_po(path: Path) -> list[dict]:
    """The entries of a .po file: flags, msgctxt, msgid, msgid_plural and msgstr (index -> text).

    Obsolete entries (``#~``) are left out. Enough of the format for files written by gettext.
    """
    entries: list[dict] = []
    entry: dict | None = None
    key: tuple | None = None

    def start() -> dict:
        new = {"flags": set(), "msgstr": {}}
        entries.append(new)
        return new

    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#~"):
            entry, key = (None, None) if not line else (entry, key)
            continue
        if line.startswith("#"):
            if entry is None or "msgid" in entry:
                entry = start()
            if line.startswith("#,"):
                entry["flags"].update(flag.strip() for flag in line[2:].split(","))
            continue
        match = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(".*")$', line)
        if match:
            name, index, text = match.group(1), match.group(2), ast.literal_eval(match.group(3))
            if entry is None or (name in ("msgid", "msgctxt") and "msgid" in entry):
                entry = start()
            if name == "msgstr":
                key = ("msgstr", int(index or 0))
                entry["msgstr"][key[1]] = text
            else:
                key = (name,)
                entry[name] = text
        elif line.startswith('"') and entry is not None and key is not None:
            text = ast.literal_eval(line)
            if key[0] == "msgstr":
                entry["msgstr"][key[1]] += text
            else:
                entry[key[0]] += text
    return [e for e in entries if "msgid" in e]


def catalogue(entries: list[dict]) -> dict:
    """What msgfmt puts into the .mo: translated entries only, keyed as ``gettext`` reads them."""
    result: dict = {}
    for entry in entries:
        if entry["msgid"] == "" or "fuzzy" in entry["flags"]:
            continue
        msgid = entry["msgid"] if "msgctxt" not in entry else f"{entry['msgctxt']}\x04{entry['msgid']}"
        if "msgid_plural" in entry:
            if all(entry["msgstr"].values()):
                result.update({(msgid, index): text for index, text in entry["msgstr"].items()})
        elif entry["msgstr"].get(0):
            result[msgid] = entry["msgstr"][0]
    return result


def test_the_german_catalogue_translates_every_text_and_has_nothing_fuzzy():
    entries = parse_po(PO["de"])
    assert len(entries) > 500
    header = entries[0]
    assert header["msgid"] == "" and "Language: de" in header["msgstr"][0] and "fuzzy" not in header["flags"]
    fuzzy = [e["msgid"] for e in entries[1:] if "fuzzy" in e["flags"]]
    untranslated = [e["msgid"] for e in entries[1:] if not all(e["msgstr"].values())]
    wrong_plurals = [e["msgid"] for e in entries if "msgid_plural" in e and sorted(e["msgstr"]) != [0, 1]]
    assert fuzzy == []
    assert untranslated == []
    assert wrong_plurals == []


def test_placeholders_are_kept_in_german():
    placeholder = re.compile(r"%\(\w+\)[-+ #0-9.]*[sdif]|\{\w*\}")
    for entry in parse_po(PO["de"])[1:]:
        wanted = sorted(placeholder.findall(entry.get("msgid_plural", entry["msgid"])))
        for index, text in entry["msgstr"].items():
            found = sorted(placeholder.findall(text))
            if "msgid_plural" in entry and index == 0:  # "Draw the round" / "Draw all %(n)s rounds"
                assert set(found) <= set(wanted), entry["msgid"]
            else:
                assert found == wanted, entry["msgid"]


def test_english_and_german_list_the_same_texts():
    def ids(lang):
        return {(e.get("msgctxt"), e["msgid"]) for e in parse_po(PO[lang])}

    assert ids("de") == ids("en")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_compiled_catalogue_matches_its_po_file(lang):
    """The .mo in the repository is compiled from the .po as it stands (run ``make messages``)."""
    with MO[lang].open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    catalog = {key: value for key, value in compiled._catalog.items() if key != ""}
    assert catalog == catalogue(parse_po(PO[lang]))


# --- the pages --------------------------------------------------------------------------------


@pytest.fixture
def demo(client):
    call_command("demo", allow_without_debug=True)
    client.force_login(get_user_model().objects.get(username="organisator"))
    table = Table.objects.filter(round__tournament__slug="herbstrennen", round__status=Round.Status.PUBLISHED).first()
    return table


PAGES = [
    # (page, German words, English words)
    ("/o/", ["Meine Turniere", "Turnierleitung"], ["My tournaments", "Control panel"]),
    ("/o/herbstrennen/", ["Turnierleitung", "Runde 1", "Anmeldung"], ["Control panel", "Round 1", "Registration desk"]),
    ("/o/herbstrennen/meldestelle/", ["Spieler suchen", "bezahlt", "anwesend"], ["Find a player", "paid", "here"]),
    ("/t/herbstrennen/sitzplan/", ["Wo sitze ich?", "Nach Tischen"], ["Where do I sit?", "By table"]),
    ("table", ["Wer spielt?", "Gerufene Sau", "Spielliste"], ["Who plays?", "Called Sau", "Players and totals"]),
    ("/t/herbstrennen/rangliste/", ["Rangliste", "Gesamt", "Punkte"], ["Standings", "Overall", "Points"]),
]


@pytest.mark.django_db
@pytest.mark.parametrize("url, german, english", PAGES, ids=[page[0] for page in PAGES])
def test_pages_speak_german_by_default_and_english_on_request(client, demo, url, german, english):
    if url == "table":
        url = f"/tisch/{demo.entry_key}/"
    for headers, lang, words, others in (
        (DE, "de", german, english),
        ({}, "de", german, english),
        (EN, "en", english, german),
    ):
        page = client.get(url, **headers)
        assert page.status_code == 200, url
        body = page.content.decode()
        assert f'<html lang="{lang}">' in body
        for word in words:
            assert word in body, (url, lang, word)
        for word in others:
            if word not in words and not any(word in mine for mine in words):
                assert f">{word}<" not in body, (url, lang, word)
