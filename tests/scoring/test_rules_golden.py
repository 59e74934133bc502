"""The golden cases of the spec (docs/cases/scoring.json), field for field."""

import json
from pathlib import Path

import pytest

from scoring.rules import RuleError, ruleset_from_dict, score_hand, score_to_dict

CASES = json.loads((Path(__file__).parents[2] / "docs" / "cases" / "scoring.json").read_text("utf-8"))["cases"]


def test_golden_file_is_complete():
    assert len(CASES) == 48
    assert len({case["name"] for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_golden_case(case):
    rules = ruleset_from_dict(case.get("rules"))
    table_size = case.get("table_size", 4)

    if case["expect"] == {"error": True}:
        with pytest.raises(RuleError) as raised:
            score_hand(case["hand"], rules, table_size)
        assert str(raised.value).startswith(f"{raised.value.field}: ")
    else:
        assert score_to_dict(score_hand(case["hand"], rules, table_size)) == case["expect"]
