"""The prize plan (scoring.rules.prize_plan): curves, rounding and the remainder, table-driven against hand-computed cases."""

import random

import pytest

from scoring.rules.prize_plan import PlanError, PrizePlanSpec, check_plan, plan_pool, plan_prizes
from scoring.rules.prizes import PrizeSpec

# (name, spec, players, pool, money amounts by place, goods places, remainder), each computed by hand
CASES = [
    ("a third, all equal", PrizePlanSpec("third", decay_percent=0), 9, 9000, [3000, 3000, 3000], 0, 0),
    # 100,50 € / 3 = 33,50 → 33 € each; the freed whole euro goes to the 1st; 50 ct stay in the pool
    ("a third, whole euros leave 50 ct", PrizePlanSpec("third", decay_percent=0), 10, 10050, [3400, 3300, 3300], 0, 50),
    # every 4th of 12: 3 places, each half the one above: 4/7, 2/7, 1/7 of 120 € = 68,57 / 34,29 / 17,14;
    # down to 5 €: 65 / 30 / 15 = 110 €; the two freed 5 € go to places 1 and 2
    (
        "every 4th, 5 euros",
        PrizePlanSpec("nth", every_n=4, decay_percent=50, rounding_cents=500),
        12,
        12000,
        [7000, 3500, 1500],
        0,
        0,
    ),
    # the same from 123 €: 70,29 / 35,14 / 17,57 → 70 / 35 / 15 = 120 €; 3 € are less than a unit: they stay
    (
        "every 4th, 5 euros leave 3 euros",
        PrizePlanSpec("nth", every_n=4, decay_percent=50, rounding_cents=500),
        12,
        12300,
        [7000, 3500, 1500],
        0,
        300,
    ),
    # skat-online: 30 × 10 € → 21,5 % / 18,5 % / 15 % = 64,50 / 55,50 / 45 €, the rest of the table not given
    (
        "a fixed table",
        PrizePlanSpec("table", table_bp=(2150, 1850, 1500), rounding_cents=1),
        30,
        30000,
        [6450, 5550, 4500],
        0,
        13500,
    ),
    (
        "a table longer than the field",
        PrizePlanSpec("table", table_bp=(5000, 3000, 2000), rounding_cents=1),
        2,
        1000,
        [500, 300],
        0,
        200,
    ),
    # 1st 100 €, each next 20 % less: 100 / 80 / 64 / 51,20 → 51 / (40,96 > the 5 € left): stop
    (
        "geometric until the pool ends",
        PrizePlanSpec("geometric", first_cents=10000, decay_percent=20),
        40,
        30000,
        [10000, 8000, 6400, 5100],
        0,
        500,
    ),
    (
        "geometric, no more places than players",
        PrizePlanSpec("geometric", first_cents=1000, decay_percent=0),
        3,
        10000,
        [1000, 1000, 1000],
        0,
        7000,
    ),
    (
        "money, then goods up to the field",
        PrizePlanSpec("third", decay_percent=0, goods_places=5),
        6,
        6000,
        [3000, 3000],
        4,
        0,
    ),
    ("too few for a third", PrizePlanSpec("third"), 2, 2000, [], 0, 2000),
    ("nobody registered", PrizePlanSpec("third"), 0, 0, [], 0, 0),
]


@pytest.mark.parametrize(
    ("spec", "players", "pool", "money", "goods", "remainder"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_plan_cases(spec, players, pool, money, goods, remainder):
    plan = plan_prizes(spec, players=players, pool_cents=pool, default_goods="Preistisch")
    assert [p.amount_cents for p in plan.prizes if p.amount_cents] == money
    assert plan.money_places == len(money) and plan.goods_places == goods
    assert plan.remainder_cents == remainder and plan.paid_cents + plan.remainder_cents == pool
    assert [p.place for p in plan.prizes] == list(range(1, len(money) + goods + 1))
    assert all(p.goods == "Preistisch" for p in plan.prizes[len(money) :])


def test_the_consolation_prize_comes_last_when_a_place_is_left():
    spec = PrizePlanSpec(
        "third", decay_percent=0, goods_places=2, goods_label="Sachpreis", last_place_goods="Stadtwurst"
    )
    plan = plan_prizes(spec, players=9, pool_cents=900)
    assert plan.prizes == (
        PrizeSpec(1, 300),
        PrizeSpec(2, 300),
        PrizeSpec(3, 300),
        PrizeSpec(4, None, "Sachpreis"),
        PrizeSpec(5, None, "Sachpreis"),
        PrizeSpec(None, None, "Stadtwurst"),
    )


def test_the_pool_is_fees_times_payout_plus_sponsors_less_costs():
    assert plan_pool(fees_cents=96 * 1000, payout_percent=75, sponsored_cents=5000, costs_cents=2000) == 75000
    assert plan_pool(fees_cents=999, payout_percent=50) == 499  # down to the cent
    assert plan_pool(fees_cents=1000, payout_percent=100, costs_cents=5000) == 0


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        (PrizePlanSpec("kurve"), "curve"),
        (PrizePlanSpec(rounding_cents=200), "rounding_cents"),
        (PrizePlanSpec("nth", every_n=1), "every_n"),
        (PrizePlanSpec(decay_percent=100), "decay_percent"),
        (PrizePlanSpec("geometric"), "first_cents"),
        (PrizePlanSpec("table"), "table_bp"),
        (PrizePlanSpec("table", table_bp=(6000, 5000)), "table_bp"),
        (PrizePlanSpec(goods_places=-1), "goods_places"),
    ],
)
def test_a_plan_that_makes_no_sense_names_its_setting(spec, field):
    with pytest.raises(PlanError) as err:
        check_plan(spec)
    assert err.value.field == field


def test_any_plan_hands_out_at_most_the_pool_in_falling_amounts():
    rng = random.Random(37)
    for _ in range(500):
        spec = PrizePlanSpec(
            rng.choice(("third", "nth", "geometric")),
            every_n=rng.randint(2, 6),
            decay_percent=rng.randint(0, 60),
            first_cents=rng.randint(1, 400) * 100,
            rounding_cents=rng.choice((1, 100, 500)),
        )
        players, pool = rng.randint(0, 400), rng.randint(0, 800_000)
        plan = plan_prizes(spec, players=players, pool_cents=pool)
        amounts = [p.amount_cents for p in plan.prizes]
        assert plan.paid_cents == sum(amounts) <= pool and plan.money_places <= players
        assert amounts == sorted(amounts, reverse=True)
        assert all(a % spec.rounding_cents == 0 for a in amounts)
        if spec.curve != "geometric" and amounts:
            assert plan.remainder_cents < spec.rounding_cents * 2
