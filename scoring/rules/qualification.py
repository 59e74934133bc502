"""Who qualifies for the final of a qualifier series ("Qualifikation"). Pure (stdlib only).

The input is every qualifying evening's final order (player keys, the winner first), in the order the
evenings were played, the organiser's wildcards, the players who declined their place, and the rules:

- ``per_evening`` (k): how many qualify from each evening;
- ``mode``: ``top`` — the evening's first k, whoever they are (a place won by someone qualified
  already is not passed on); ``top_not_qualified`` — the first k not qualified yet (the next one
  moves up);
- wildcards (the defending champion, the host's pick, each with a reason) are qualified before the
  first evening: ``top_not_qualified`` passes over them;
- a lottery of ``lottery_places`` places among the players with at least ``lottery_min_evenings``
  evenings who did not qualify otherwise, drawn with ``lot_seed`` over the candidates in key order
  (the same seed and candidates always draw the same players; the rest of the draw is the order in
  which they move up);
- declines come after the evenings: a declined evening qualifier's place goes to the next of that
  evening who is not in already (``next_in_line`` lists them in turn), a lottery place to the next
  of the draw; the other evenings' qualifiers stay as they were. A declined wildcard lapses.

Player keys are opaque ints (the caller's player ids).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import RuleError

TOP = "top"
TOP_NOT_QUALIFIED = "top_not_qualified"
MODES = (TOP, TOP_NOT_QUALIFIED)

EVENING = "evening"
WILDCARD = "wildcard"
LOTTERY = "lottery"


@dataclass(frozen=True, slots=True)
class QualificationRules:
    per_evening: int = 2
    mode: str = TOP_NOT_QUALIFIED
    lottery_places: int = 0
    lottery_min_evenings: int = 1


@dataclass(frozen=True, slots=True)
class EveningOrder:
    """One qualifying evening's final order: ``order[0]`` won it."""

    key: str
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Wildcard:
    player: int
    reason: str


@dataclass(frozen=True, slots=True)
class Qualified:
    player: int
    how: str  # evening | wildcard | lottery
    evening: str = ""  # the evening's key (how == evening)
    place: int = 0  # his place that evening (how == evening), or his number in the lottery's draw
    reason: str = ""  # the wildcard's reason


@dataclass(frozen=True, slots=True)
class QualificationResult:
    qualified: tuple[Qualified, ...]  # wildcards, then the evenings in order, then the lottery
    next_in_line: dict[str, tuple[int, ...]]  # per evening: who moves up next, in order
    lottery_candidates: tuple[int, ...]  # key order
    lottery_order: tuple[int, ...]  # the whole draw: the first lottery_places won, the rest move up in turn

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(q.player for q in self.qualified)


def validate_qualification_rules(rules: QualificationRules) -> None:
    if rules.mode not in MODES:
        raise RuleError(
            "mode",
            "invalid_choice",
            f"must be one of {', '.join(MODES)}, not {rules.mode!r}",
            {"choices": ", ".join(MODES), "value": rules.mode},
        )
    for name, lo, hi in (("per_evening", 0, 100), ("lottery_places", 0, 1000), ("lottery_min_evenings", 1, 1000)):
        value = getattr(rules, name)
        if type(value) is not int or not lo <= value <= hi:
            raise RuleError(
                name,
                "out_of_range",
                f"must be between {lo} and {hi}, not {value}",
                {"min": lo, "max": hi, "value": value},
            )


def qualify(
    evenings: Sequence[EveningOrder],
    rules: QualificationRules,
    *,
    wildcards: Sequence[Wildcard] = (),
    declined: Iterable[int] = (),
    lot_seed: int = 0,
) -> QualificationResult:
    """The qualified players for the final (see the module's doc), and who moves up next."""
    validate_qualification_rules(rules)
    keys = [e.key for e in evenings]
    if len(set(keys)) != len(keys):
        raise RuleError(
            "evenings", "duplicate", "an evening is listed twice", {"value": next(k for k in keys if keys.count(k) > 1)}
        )
    out = frozenset(declined)
    # 1. in the order things happened: the wildcards, then each evening's qualifiers (declines come later)
    taken: set[int] = set()
    head: list[Qualified] = []
    for card in wildcards:
        if card.player in taken:
            continue
        head.append(Qualified(card.player, WILDCARD, reason=card.reason))
        taken.add(card.player)
    base: list[Qualified] = []
    rests: dict[str, list[int]] = {}
    places: dict[str, dict[int, int]] = {}
    for evening in evenings:
        order = list(evening.order)
        if len(set(order)) != len(order):
            raise RuleError(
                "evenings",
                "duplicate",
                f"{evening.key}: a player is listed twice",
                {"value": next(p for p in order if order.count(p) > 1)},
            )
        place = places[evening.key] = {p: i + 1 for i, p in enumerate(order)}
        if rules.mode == TOP:
            chosen = order[: rules.per_evening]  # a place won by someone in already is not passed on
            new = [p for p in chosen if p not in taken]
        else:
            chosen = new = [p for p in order if p not in taken][: rules.per_evening]
        for p in new:
            base.append(Qualified(p, EVENING, evening.key, place[p]))
            taken.add(p)
        rests[evening.key] = [p for p in order if p not in chosen]
    # 2. the lottery's draw among the regulars who did not qualify, over the candidates in key order
    played = Counter(p for e in evenings for p in e.order)
    candidates = tuple(sorted(p for p, n in played.items() if n >= rules.lottery_min_evenings and p not in taken))
    draw = list(candidates)
    random.Random(lot_seed).shuffle(draw)
    # 3. declines: a declined wildcard lapses; a lottery place goes to the next of the draw; a declined evening
    # qualifier's place to the next of that evening who is not in (nor declined, nor drawn)
    lucky = [p for p in draw if p not in taken and p not in out][: rules.lottery_places]
    now = taken | out | set(lucky)
    qualified = [q for q in head if q.player not in out]
    for q in base:
        if q.player not in out:
            qualified.append(q)
            continue
        nxt = next((p for p in rests[q.evening] if p not in now), None)
        if nxt is not None:
            qualified.append(Qualified(nxt, EVENING, q.evening, places[q.evening][nxt]))
            now.add(nxt)
    qualified += [Qualified(p, LOTTERY, place=draw.index(p) + 1) for p in lucky]
    next_in_line = {k: tuple(p for p in rest if p not in now) for k, rest in rests.items()}
    return QualificationResult(tuple(qualified), next_in_line, candidates, tuple(draw))


def evening_winners(evenings: Sequence[EveningOrder]) -> tuple[int, ...]:
    """Each evening's winner (its first), once each: the final's round 1 can seat them apart."""
    seen: list[int] = []
    for evening in evenings:
        if evening.order and evening.order[0] not in seen:
            seen.append(evening.order[0])
    return tuple(seen)
