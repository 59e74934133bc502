"""`manage.py score_hands` end to end, as a process: output, exit statuses 0 / 1 / 2, every golden case."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CASES = json.loads((Path(__file__).parents[2] / "docs" / "cases" / "scoring.json").read_text(encoding="utf-8"))["cases"]


def run(doc, *, raw: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "score_hands", "-"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        input=raw if raw is not None else json.dumps(doc),
    )


def test_every_golden_case_through_the_command_field_for_field():
    """All cases in one process per ruleset/table size (starting Django once per group)."""
    groups: dict[str, list[dict]] = {}
    for case in CASES:
        key = json.dumps({"rules": case.get("rules"), "table_size": case.get("table_size", 4)}, sort_keys=True)
        groups.setdefault(key, []).append(case)
    checked = 0
    for key, cases in groups.items():
        doc = json.loads(key)
        if doc["rules"] is None:
            del doc["rules"]
        doc["hands"] = [case["hand"] for case in cases]
        result = run(doc)
        expect_errors = any(case["expect"].get("error") for case in cases)
        assert result.returncode == (1 if expect_errors else 0), result.stderr
        output = json.loads(result.stdout)
        for case, entry in zip(cases, output["hands"], strict=True):
            if case["expect"].get("error") is True:
                assert set(entry) == {"error"}, case["name"]
            else:
                assert entry == case["expect"], case["name"]
            checked += 1
    assert checked == len(CASES) == 48


def test_spec_example_output():
    doc = {
        "rules": {"laufende_max": None},
        "table_size": 4,
        "hands": [
            {"contract": "rufspiel", "declarer": 1, "partner": 3, "called": "gras", "augen": 72},
            {"contract": "wenz", "declarer": 2, "augen": 75, "laufende": 5},
        ],
    }
    result = run(doc)
    assert result.returncode == 1
    out = json.loads(result.stdout)
    assert out["hands"][0] == {
        "points": {"1": 1, "2": -1, "3": 1, "4": -1},
        "value": 1,
        "declarer_won": True,
        "schneider": False,
        "schwarz": False,
        "laufende": 0,
        "reuegeld": {},
    }
    assert out["hands"][1] == {"error": "laufende: a Wenz has 4 trumps, 5 Laufende are impossible"}
    assert out["totals"] == {"1": 1, "2": -1, "3": 1, "4": -1}


def test_all_valid_exits_0():
    result = run({"hands": [{"contract": "wenz", "declarer": 1, "augen": 75, "laufende": 2}]})
    assert result.returncode == 0
    assert json.loads(result.stdout)["totals"] == {"1": 21, "2": -7, "3": -7, "4": -7}


@pytest.mark.parametrize(
    ("doc", "raw", "needle"),
    [
        ({"rules": {"solo_bsae": 2}, "hands": []}, None, "rules.solo_bsae"),
        ({"rules": {"laufende_min": {"wenz": "zwei"}}, "hands": []}, None, "rules.laufende_min.wenz"),
        ({"table_size": 6, "hands": []}, None, "table_size"),
        (None, "{kaputt", "file"),
    ],
)
def test_unreadable_document_or_rules_exit_2_with_nothing_on_stdout(doc, raw, needle):
    result = run(doc, raw=raw)
    assert result.returncode == 2
    assert result.stdout == ""
    assert needle in result.stderr


def test_a_file_argument_works(tmp_path):
    path = tmp_path / "hands.json"
    path.write_text(
        json.dumps(
            {
                "table_size": 5,
                "hands": [
                    {"contract": "rufspiel", "declarer": 2, "partner": 3, "called": "eichel", "augen": 80, "dealer": 1}
                ],
            }
        )
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "score_hands", str(path)], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["hands"][0]["points"] == {"1": 0, "2": 1, "3": 1, "4": -1, "5": -1}
