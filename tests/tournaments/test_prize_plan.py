"""The prize plan in the database and on the prize page (issue 37): stored, previewed as registrations come in,
applied as the prize list, refused with the field named, the costs balanced on the cash list."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments.models import AuditEntry, ClubMembership, Prize, PrizePlan, Tournament
from tournaments.selectors.prize_plan import prize_plan_preview
from tournaments.selectors.standings import cash_list, prize_list, standings_view
from tournaments.services.errors import ServiceError
from tournaments.services.prizes import prize_plan_apply, prize_plan_set

pytestmark = pytest.mark.django_db


def register(tournament, count: int, start: int = 1) -> None:
    for n in range(start, start + count):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=tournament.club), start_number=n)


@pytest.fixture
def evening():
    tournament = TournamentFactory(entry_fee_cents=1000, payout_percent=100, slug="preisplan")
    register(tournament, 96)
    return tournament


def user_with(tournament, role, name="orga"):
    user = get_user_model().objects.create_user(name, password="pw")
    ClubMembership.objects.create(user=user, club=tournament.club, role=role)
    return user


def test_the_preview_follows_the_registrations(evening):
    prize_plan_set(tournament=evening, values={"curve": "third", "decay_percent": 0, "rounding_cents": 100})
    preview = prize_plan_preview(evening)
    # 96 × 10 € = 960 €, a third = 32 places of 30 € each
    assert (preview.players, preview.pool_cents, preview.planned.money_places) == (96, 96000, 32)
    assert {p.amount_cents for p in preview.planned.prizes} == {3000}
    register(evening, 3, start=97)
    evening.registrations.filter(start_number=1).update(withdrawn_after_round=0)  # withdrawn before the start
    preview = prize_plan_preview(evening)
    assert (preview.players, preview.pool_cents, preview.planned.money_places) == (98, 98000, 32)


def test_apply_writes_the_prize_list_which_stays_editable_until_final(evening):
    prize_plan_set(
        tournament=evening,
        values={
            "curve": "nth",
            "every_n": 8,
            "decay_percent": 0,
            "goods_places": 20,
            "goods_label": "Preistisch",
            "last_place_goods": "Stadtwurst",
        },
    )
    prize_plan_apply(tournament=evening)
    prizes = list(Prize.objects.filter(tournament=evening))
    assert [p.amount_cents for p in prizes[:12]] == [8000] * 12 and len(prizes) == 12 + 20 + 1
    assert prizes[12].goods == "Preistisch" and prizes[-1].place is None and prizes[-1].goods == "Stadtwurst"
    assert prize_list(evening).assigned_cents == 96000
    assert AuditEntry.objects.filter(tournament=evening, action="prize_plan.set").count() == 1
    Tournament.objects.filter(pk=evening.pk).update(status=Tournament.Status.FINISHED)
    prize_plan_apply(tournament=evening)  # finished, the prizes not given yet: still the organiser's to change
    evening.registrations.filter(start_number=5).update(prize_handed_over=True)
    with pytest.raises(ServiceError) as err:
        prize_plan_apply(tournament=evening)
    assert err.value.code == "final"


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"curve": "zick"}, "curve"),
        ({"curve": "geometric", "first_cents": 0}, "first_cents"),
        ({"curve": "table", "table_bp": [6000, 6000]}, "table_bp"),
        ({"rounding_cents": 250}, "rounding_cents"),
        ({"goods_places": -1}, "goods_places"),
        ({"every_n": "4"}, "every_n"),
        ({"pool": 5}, "pool"),
    ],
)
def test_a_bad_setting_is_refused_by_name_and_nothing_is_stored(evening, values, field):
    with pytest.raises(ServiceError) as err:
        prize_plan_set(tournament=evening, values=values)
    assert err.value.field == field
    assert not PrizePlan.objects.filter(tournament=evening).exists()


def test_costs_come_out_of_the_pool_and_the_cash_list_still_balances(evening):
    evening.registrations.update(paid=True)
    prize_plan_set(
        tournament=evening, values={"curve": "third", "decay_percent": 10, "costs_cents": 6000, "rounding_cents": 500}
    )
    assert prize_plan_preview(evening).pool_cents == 90000
    prizes = prize_list(evening)
    assert prizes.pool_cents == 90000 and prizes.costs_cents == 6000
    cash = cash_list(evening)
    assert cash.costs_cents == 6000 and cash.balances


def test_the_page_saves_applies_and_previews(client, evening):
    client.force_login(user_with(evening, ClubMembership.Role.ORGANISER))
    page = client.get(reverse("tournaments:prizes", args=[evening.slug]))
    assert page.status_code == 200 and b'data-testid="plan-preview"' in page.content
    form = {
        "curve": "third",
        "decay_percent": "0",
        "rounding_cents": "100",
        "table": "",
        "every_n": "4",
        "goods_places": "10",
        "goods_label": "Sachpreis",
        "last_place_goods": "",
        "first_euro": "",
        "costs_euro": "0",
    }
    preview = client.get(
        reverse("tournaments:prize_plan_preview", args=[evening.slug]),
        {**form, "curve": "nth"},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert "Bei 96 Spielern: 34 Preise, 1. 40,00 €" in preview.content.decode()  # 24 money + 10 goods, unsaved
    done = client.post(reverse("tournaments:prize_plan_save", args=[evening.slug]), {**form, "apply": "1"})
    assert done.status_code == 302 and Prize.objects.filter(tournament=evening).count() == 42
    refused = client.post(
        reverse("tournaments:prize_plan_save", args=[evening.slug]), {**form, "curve": "table", "table": "60; 50"}
    )
    assert refused.status_code == 400 and "100" in refused.content.decode()
    assert Prize.objects.filter(tournament=evening).count() == 42


def test_the_desk_sees_the_preview_but_cannot_change_the_plan(client, evening):
    client.force_login(user_with(evening, ClubMembership.Role.DESK, "desk"))
    assert client.get(reverse("tournaments:prize_plan_preview", args=[evening.slug])).status_code == 200
    answer = client.post(reverse("tournaments:prize_plan_save", args=[evening.slug]), {"curve": "third"})
    assert answer.status_code == 404 and not PrizePlan.objects.exists()  # the console's answer to a role it lacks


# --- category prizes --------------------------------------------------------------------------------------


@pytest.fixture
def played(db):
    from tournaments.services.simulation import tournament_simulate
    from tournaments.services.standings import standings_recompute

    tournament = tournament_simulate(slug="kategorien", players=12, rounds=1, games=8, seed=3)
    tournament.registrations.update(paid=True)
    standings_recompute(tournament_id=tournament.pk)
    return tournament


def test_the_best_under_30_without_an_overall_prize_wins_the_category(played):
    from tournaments.services.prizes import prize_categories_set, prizes_set, registration_facts_set

    prizes_set(tournament=played, prizes=[{"place": 1, "amount_cents": 3000, "goods": ""}])
    first, _second, third = (r["start_number"] for r in standings_view(played).rows[:3])
    year = played.date.year
    for number in (first, third):  # the winner and the third are young; the second gave no year of birth
        registration_facts_set(tournament=played, start_number=number, birth_year=year - 25)
    prize_categories_set(
        tournament=played, categories=[{"name": "U30", "max_age": 29, "prizes": [{"amount_cents": 2000}]}]
    )
    rows = prize_list(played)
    assert [(a.category, a.start_number, a.amount_cents) for a in rows.category_awards] == [("U30", third, 2000)]
    assert rows.paid_cents == 5000 and rows.leftover_cents == rows.pool_cents - 5000
    cash = cash_list(played)
    assert cash.prizes_cents == 5000 and cash.balances
    prize_categories_set(
        tournament=played,
        categories=[{"name": "U30", "max_age": 29, "prizes": [{"amount_cents": 2000}]}],
        allow_both=True,
    )
    assert [a.start_number for a in prize_list(played).category_awards] == [first]


@pytest.mark.parametrize(
    ("categories", "field"),
    [
        ([{"name": "", "prizes": [{"amount_cents": 1}]}], "categories[0].name"),
        ([{"name": "U30", "max_age": "29", "prizes": [{"amount_cents": 1}]}], "categories[0].max_age"),
        ([{"name": "Alt", "min_age": 70, "max_age": 60, "prizes": [{"amount_cents": 1}]}], "categories[0].max_age"),
        ([{"name": "Damen", "gender": "w", "prizes": [{"amount_cents": 1}]}], "categories[0].gender"),
        ([{"name": "Damen", "prizes": []}], "categories[0].prizes"),
        ([{"name": "A", "prizes": [{"goods": "x"}]}, {"name": "A", "prizes": [{"goods": "y"}]}], "categories[1].name"),
    ],
)
def test_a_bad_category_is_refused_by_name(evening, categories, field):
    from tournaments.models import PrizeCategory
    from tournaments.services.prizes import prize_categories_set

    with pytest.raises(ServiceError) as err:
        prize_categories_set(tournament=evening, categories=categories)
    assert err.value.field == field and not PrizeCategory.objects.exists()


def test_the_page_saves_categories_in_order(client, evening):
    from tournaments.models import PrizeCategory

    client.force_login(user_with(evening, ClubMembership.Role.ORGANISER))
    form = {
        "category-TOTAL_FORMS": "3",
        "category-INITIAL_FORMS": "0",
        "category-0-name": "U30",
        "category-0-max_age": "29",
        "category-0-prizes": "50; 25,50 €; Blumen",
        "category-1-name": "Lokalmatador",
        "category-1-local": "1",
        "category-1-prizes": "Stadtwurst",
        "category-2-name": "",
    }
    answer = client.post(reverse("tournaments:prize_categories_save", args=[evening.slug]), form)
    assert answer.status_code == 302
    u30, local = PrizeCategory.objects.filter(tournament=evening)
    assert u30.prizes == [
        {"place": 1, "amount_cents": 5000, "goods": ""},
        {"place": 2, "amount_cents": 2550, "goods": ""},
        {"place": 3, "amount_cents": None, "goods": "Blumen"},
    ]
    assert (local.name, local.local, local.position) == ("Lokalmatador", True, 1)
    page = client.get(reverse("tournaments:prizes", args=[evening.slug]))
    assert (
        'value="50,00; 25,50; Blumen"' in page.content.decode()
        or 'value="50.00; 25.50; Blumen"' in page.content.decode()
    )
    refused = client.post(
        reverse("tournaments:prize_categories_save", args=[evening.slug]), {**form, "category-0-prizes": ""}
    )
    assert refused.status_code == 400 and PrizeCategory.objects.filter(tournament=evening).count() == 2


def test_the_demo_carries_a_prize_plan_and_a_category_prize(settings, tmp_path):
    from tournaments.models import PrizeCategory
    from tournaments.services.demo import demo_create
    from tournaments.services.standings import standings_recompute

    settings.MEDIA_ROOT = tmp_path
    tournament, _user, _password = demo_create()
    standings_recompute(tournament_id=tournament.pk)
    preview = prize_plan_preview(tournament)
    assert preview.plan.curve == "third" and preview.planned.money_places == 22 // 3
    assert Prize.objects.filter(tournament=tournament).count() == 22 // 3 + 3 + 1
    assert list(PrizeCategory.objects.filter(tournament=tournament).values_list("name", flat=True)) == [
        "U30",
        "Bester Lokalmatador",
    ]
    assert {a.category for a in prize_list(tournament).category_awards} == {"U30", "Bester Lokalmatador"}
    demo_create()  # again: nothing doubled
    assert PrizePlan.objects.filter(tournament=tournament).count() == 1


def test_the_category_facts_are_exported_and_forgotten_with_the_player(evening):
    from tournaments.selectors.personal import player_data_export
    from tournaments.services.personal_data import player_anonymise
    from tournaments.services.prizes import registration_facts_set

    reg = evening.registrations.get(start_number=7)
    registration_facts_set(tournament=evening, start_number=7, birth_year=1999, gender="f", local=True)
    entry = AuditEntry.objects.get(tournament=evening, action="registration.facts")
    assert entry.after == ["birth_year", "gender", "local"] and "1999" not in str(entry.before)
    exported = player_data_export(reg.player)["registrations"][0]
    assert (exported["birth_year"], exported["gender"], exported["local"]) == (1999, "f", True)
    player_anonymise(player=reg.player, club=evening.club)
    reg.refresh_from_db()
    assert (reg.birth_year, reg.gender, reg.local) == (None, "", None)


def test_the_api_gives_the_plan_its_preview_and_the_prizes(client, evening):
    prize_plan_set(tournament=evening, values={"curve": "third", "decay_percent": 0, "goods_places": 2})
    prize_plan_apply(tournament=evening)
    client.force_login(user_with(evening, ClubMembership.Role.VIEWER, "leser"))
    data = client.get(f"/api/tournaments/{evening.slug}/prizes/").json()
    assert data["plan"]["curve"] == "third" and data["preview"]["players"] == 96
    assert data["preview"]["money_places"] == 32 and data["preview"]["prizes"][0] == {
        "place": 1,
        "amount_cents": 3000,
        "goods": "",
    }
    assert len(data["prizes"]) == 34 and data["awards"] == [] and data["category_awards"] == []
    other = TournamentFactory(slug="fremd")
    assert client.get(f"/api/tournaments/{other.slug}/prizes/").status_code == 404


def test_the_log_describes_the_plan_and_the_categories_in_german(client, evening):
    from tournaments.services.prizes import prize_categories_set, registration_facts_set

    orga = user_with(evening, ClubMembership.Role.ORGANISER)
    prize_plan_set(tournament=evening, values={"curve": "third"}, by=orga)
    prize_categories_set(
        tournament=evening, categories=[{"name": "U30", "max_age": 29, "prizes": [{"goods": "Korb"}]}], by=orga
    )
    registration_facts_set(tournament=evening, start_number=2, birth_year=2000, by=orga)
    client.force_login(orga)
    page = client.get(f"/o/{evening.slug}/protokoll/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Preisplan festgelegt: das obere Drittel" in page and "Sonderpreise geändert: U30" in page
    assert "Angaben für Sonderpreise gemacht" in page and "2000" not in page.split('data-testid="audit"')[1]
