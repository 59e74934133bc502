"""Issue 37 in the archive: the prize list, its plan, the category prizes and what each took travel along as
optional keys; an archive without them imports as before; a bad plan is refused by its key."""

import json

import pytest

from tournaments.archive.build import archive_build
from tournaments.archive.load import ArchiveError, archive_import
from tournaments.models import Club, Prize, PrizeCategory, PrizePlan, Registration
from tournaments.services.prizes import (
    prize_categories_set,
    prize_hand_over,
    prize_plan_apply,
    prize_plan_set,
    registration_facts_set,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    from tournaments.services.simulation import tournament_simulate
    from tournaments.services.standings import standings_recompute

    tournament = tournament_simulate(slug="archiv-preise", players=12, rounds=1, games=8, seed=5)
    standings_recompute(tournament_id=tournament.pk)
    prize_plan_set(tournament=tournament, values={"curve": "third", "goods_places": 2, "goods_list": "Wurst\nWein"})
    prize_categories_set(
        tournament=tournament,
        categories=[{"name": "U30", "max_age": 29, "prizes": [{"amount_cents": 1500}]}],
        allow_both=True,
    )
    registration_facts_set(tournament=tournament, start_number=3, birth_year=tournament.date.year - 20, gender="f")
    prize_plan_apply(tournament=tournament)
    return tournament


def test_the_prizes_travel_with_the_archive(played):
    from tournaments.selectors.callup import prize_call_up

    first = prize_call_up(played).current
    prize_hand_over(tournament=played, start_number=first.start_number, handed_over=True, chosen="Wurst")
    doc = json.loads(json.dumps(archive_build(played)))
    assert doc["prize_plan"]["goods_list"] == "Wurst\nWein" and doc["prize_plan"]["categories_allow_both"] is True
    assert doc["prize_categories"][0]["name"] == "U30"
    copy = archive_import(doc=doc, slug="archiv-preise-kopie", club=Club.objects.create(name="Anderer Verein"))
    assert list(Prize.objects.filter(tournament=copy).values_list("place", "amount_cents", "goods")) == list(
        Prize.objects.filter(tournament=played).values_list("place", "amount_cents", "goods")
    )
    assert PrizePlan.objects.get(tournament=copy).categories_allow_both
    assert PrizeCategory.objects.get(tournament=copy).prizes == [{"place": 1, "amount_cents": 1500, "goods": ""}]
    reg = Registration.objects.get(tournament=copy, start_number=3)
    assert (reg.birth_year, reg.gender) == (played.date.year - 20, "f")
    assert Registration.objects.get(tournament=copy, start_number=first.start_number).prize_chosen == "Wurst"
    again = json.loads(json.dumps(archive_build(copy)))
    for key in ("prizes", "prize_plan", "prize_categories", "players"):
        assert again[key] == doc[key], key


def test_an_archive_without_the_new_keys_imports_as_before(played):
    doc = json.loads(json.dumps(archive_build(played)))
    for key in ("prizes", "prize_plan", "prize_categories"):
        doc.pop(key)
    for player in doc["players"]:
        for key in ("prize_chosen", "birth_year", "gender", "local"):
            player.pop(key, None)
    copy = archive_import(doc=doc, slug="archiv-alt", club=Club.objects.create(name="Altverein"))
    assert not PrizePlan.objects.filter(tournament=copy).exists() and not Prize.objects.filter(tournament=copy).exists()


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d["prize_plan"].update(curve="kurve"), "prize_plan.curve"),
        (lambda d: d["prize_categories"][0].update(gender="w"), "prize_categories[0].gender"),
        (
            lambda d: d["prizes"].append({"place": 1, "amount_cents": 5, "goods": ""}),
            "prizes[6].place",
        ),  # 4 money places + 2 goods before it
        (lambda d: d["players"][0].update(birth_year=1800), "players[0].birth_year"),
    ],
)
def test_a_bad_prize_key_is_refused_by_its_path_and_nothing_is_written(played, change, path):
    doc = json.loads(json.dumps(archive_build(played)))
    change(doc)
    with pytest.raises(ArchiveError) as err:
        archive_import(doc=doc, slug="archiv-kaputt", club=Club.objects.create(name="Kaputtverein"))
    assert err.value.path == path
    assert not Registration.objects.filter(tournament__slug="archiv-kaputt").exists()
