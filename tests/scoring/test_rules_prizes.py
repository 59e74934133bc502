"""Shared places and prizes (scoring.rules.prizes): the money of the occupied places split evenly, goods by lot."""

from scoring.rules.prizes import PrizeSpec, Ranked, lot_order, split_prizes


def ranked(*ranks: int) -> list[Ranked]:
    return [Ranked(player=100 + i, rank=r) for i, r in enumerate(ranks)]


def by_player(split) -> dict[int, tuple[int, str, int]]:
    return {a.player: (a.amount_cents, a.goods, a.shared_with) for a in split.awards}


def test_without_ties_every_place_gets_its_prize():
    split = split_prizes(
        ranked(1, 2, 3, 4), [PrizeSpec(1, 5000), PrizeSpec(2, 3000), PrizeSpec(3, 1000, "Korb")], lot_seed=7
    )
    assert by_player(split) == {100: (5000, "", 1), 101: (3000, "", 1), 102: (1000, "Korb", 1)}
    assert split.awarded_cents == 9000 and split.rounding_cents == 0


def test_two_on_first_place_share_the_first_and_second_prize():
    split = split_prizes(ranked(1, 1, 3, 4), [PrizeSpec(1, 5000), PrizeSpec(2, 3000), PrizeSpec(3, 1000)], lot_seed=7)
    assert by_player(split) == {100: (4000, "", 2), 101: (4000, "", 2), 102: (1000, "", 1)}
    assert split.awards[0].places == (1, 2) and split.awards[2].places == (3,)


def test_cents_that_do_not_divide_go_back_to_the_pool():
    split = split_prizes(ranked(1, 1, 1, 4), [PrizeSpec(1, 5000), PrizeSpec(2, 3000), PrizeSpec(3, 2001)], lot_seed=1)
    assert [a.amount_cents for a in split.awards] == [3333, 3333, 3333]
    assert split.rounding_cents == 10001 - 3 * 3333 == 2
    assert split.awarded_cents + split.rounding_cents == 10001


def test_goods_go_by_the_stored_lot():
    players = ranked(1, 1, 3)
    lot = lot_order([p.player for p in players], 99)
    first_by_lot = min((100, 101), key=lambda p: lot[p])
    split = split_prizes(players, [PrizeSpec(1, None, "Schinken"), PrizeSpec(2, None, "Wurst")], lot_seed=99)
    goods = {a.player: a.goods for a in split.awards}
    assert goods[first_by_lot] == "Schinken" and goods[201 - first_by_lot] == "Wurst"
    # another seed may turn the order; the same seed always gives the same
    assert split == split_prizes(players, [PrizeSpec(1, None, "Schinken"), PrizeSpec(2, None, "Wurst")], lot_seed=99)
    orders = {min((100, 101), key=lambda p, s=s: lot_order([100, 101, 102], s)[p]) for s in range(20)}
    assert orders == {100, 101}


def test_the_consolation_prize_goes_to_the_last_place_shared_if_need_be():
    split = split_prizes(ranked(1, 2, 3, 3), [PrizeSpec(None, 501)], lot_seed=3)
    assert by_player(split) == {102: (250, "", 2), 103: (250, "", 2)}
    assert split.rounding_cents == 1


def test_prizes_for_places_nobody_holds_are_not_awarded():
    split = split_prizes(ranked(1, 2), [PrizeSpec(1, 100), PrizeSpec(5, 999)], lot_seed=3)
    assert split.awarded_cents == 100 and len(split.awards) == 1
