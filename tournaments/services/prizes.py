from django.db import transaction
from django.utils.translation import gettext as _

from scoring.rules.prize_plan import PlanError, check_plan

from ..models import Prize, PrizeCategory, PrizePlan, Registration, Tournament
from ..selectors.prize_plan import prize_plan_preview
from ..selectors.standings import prize_list
from .audit import audit_record, registration_label
from .errors import ServiceError


@transaction.atomic
def tournament_standings_publish(*, tournament: Tournament, public: bool, by=None) -> Tournament:
    """The organiser decides when the public may see the standings (often only at the prize-giving)."""
    before = Tournament.objects.select_for_update().values_list("standings_public", flat=True).get(pk=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(standings_public=public)
    tournament.standings_public = public
    if before != public:
        audit_record(action="standings.publish", by=by, tournament=tournament, before=before, after=public)
    return tournament


@transaction.atomic
def prizes_set(*, tournament: Tournament, prizes: list[dict], by=None) -> list[Prize]:
    """Replace the prize list: each {"place": int or None (last place), "amount_cents", "goods"}."""
    seen: set = set()
    rows = []
    for index, prize in enumerate(prizes):
        place, amount, goods = prize.get("place"), prize.get("amount_cents"), (prize.get("goods") or "").strip()
        if place is not None and (type(place) is not int or place < 1):
            raise ServiceError(f"prizes[{index}].place", _("A place is a whole number from 1."))
        if place in seen:
            raise ServiceError(f"prizes[{index}].place", _("Each place has one prize."))
        if amount is not None and (type(amount) is not int or amount < 0):
            raise ServiceError(f"prizes[{index}].amount_cents", _("An amount cannot be negative."))
        if amount is None and not goods:
            raise ServiceError(f"prizes[{index}].goods", _("Enter an amount or the goods."))
        seen.add(place)
        rows.append(Prize(tournament=tournament, place=place, amount_cents=amount, goods=goods))
    old = Prize.objects.filter(tournament=tournament).order_by("place")
    before = [_prize_json(p) for p in old]
    old.delete()
    created = Prize.objects.bulk_create(rows)
    after = [_prize_json(p) for p in created]
    if before != after:
        audit_record(action="prizes.set", by=by, tournament=tournament, before=before, after=after)
    return created


def _prize_json(prize: Prize) -> dict:
    return {"place": prize.place, "amount_cents": prize.amount_cents, "goods": prize.goods}


@transaction.atomic
def prize_hand_over(
    *, tournament: Tournament, start_number: int, handed_over: bool, chosen: str = "", by=None
) -> Registration:
    """Tick (or untick) at the prize-giving that the desk handed a winner his prize: the prize list then says
    "handed over" for it, not only "planned". Only a player the prize list gives something can be ticked.
    ``chosen``: what he took from the prize table when his place was called (the call-up's "hat gewählt")."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk", flat=True).get()
    reg = (
        Registration.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(tournament=tournament, start_number=start_number)
        .first()
    )
    if reg is None:
        raise ServiceError(
            "start_number",
            _("No player has start number %(n)s in this tournament.") % {"n": start_number},
            code="not_found",
        )
    if handed_over and reg.pk not in prize_list(tournament).winners:
        raise ServiceError(
            "start_number", _("%(name)s has no prize to hand over.") % {"name": reg.player.name}, code="no_prize"
        )
    chosen = (chosen or "").strip()[:200] if handed_over else ""
    if reg.prize_handed_over != handed_over or reg.prize_chosen != chosen:
        Registration.objects.filter(pk=reg.pk).update(prize_handed_over=handed_over, prize_chosen=chosen)
        audit_record(
            action="prize.hand_over",
            by=by,
            tournament=tournament,
            subject=registration_label(reg),
            before=reg.prize_chosen or reg.prize_handed_over,
            after=chosen or handed_over,
        )
        reg.prize_handed_over, reg.prize_chosen = handed_over, chosen
    return reg


PLAN_FIELDS = (
    "curve",
    "every_n",
    "decay_percent",
    "first_cents",
    "table_bp",
    "rounding_cents",
    "costs_cents",
    "goods_places",
    "goods_label",
    "last_place_goods",
    "goods_list",
)

PLAN_ERRORS = {
    "curve": lambda: _("Choose one of the curves."),
    "rounding_cents": lambda: _("Round to the cent, to whole euros or to 5 euros."),
    "every_n": lambda: _("Every n-th: n is at least 2."),
    "decay_percent": lambda: _("Each next place less: from 0 to 99 %."),
    "first_cents": lambda: _("Enter what the first place gets."),
    "table_bp": lambda: _("Enter each place's share of the pool in per cent, together at most 100 %."),
    "goods_places": lambda: _("The goods places cannot be negative."),
}


def plan_error_message(field: str) -> str:
    return PLAN_ERRORS.get(field, lambda: _("This setting makes no prize plan."))()


@transaction.atomic
def prize_plan_set(*, tournament: Tournament, values: dict, by=None) -> PrizePlan:
    """Store the tournament's prize plan (the keys of ``PLAN_FIELDS``; the ones left out keep their value)."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk", flat=True).get()
    plan = PrizePlan.objects.filter(tournament=tournament).first() or PrizePlan(tournament=tournament)
    before = {f: getattr(plan, f) for f in PLAN_FIELDS} if plan.pk else None
    for name, value in values.items():
        if name not in PLAN_FIELDS:
            raise ServiceError(name, _("Unknown setting of the prize plan."))
        if name == "goods_list":
            value = "\n".join(line.strip()[:200] for line in str(value or "").splitlines() if line.strip())[:20000]
        elif name in ("goods_label", "last_place_goods"):
            value = (value or "").strip()
            if len(value) > 200:
                raise ServiceError(name, _("At most 200 characters."))
        elif name == "table_bp":
            if not isinstance(value, list | tuple) or any(type(v) is not int for v in value):
                raise ServiceError(name, plan_error_message(name))
            value = list(value)
        elif name != "curve" and (type(value) is not int or value < 0 or value > 10_000_000):
            raise ServiceError(name, _("A whole number from 0 is needed."))
        setattr(plan, name, value)
    try:
        check_plan(plan.spec)
    except PlanError as err:
        raise ServiceError(err.field, plan_error_message(err.field)) from err
    plan.save()
    after = {f: getattr(plan, f) for f in PLAN_FIELDS}
    if before != after:
        audit_record(action="prize_plan.set", by=by, tournament=tournament, before=before, after=after)
    return plan


@transaction.atomic
def prize_plan_apply(*, tournament: Tournament, by=None) -> list[Prize]:
    """Write the plan's prizes for the registrations as they stand as the tournament's prize list (which the
    organiser may still edit by hand). Not once the prize-giving has begun (a prize handed over): final then."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk", flat=True).get()
    if tournament.registrations.filter(prize_handed_over=True).exists():
        raise ServiceError("prize_plan", _("The prize-giving has begun: the prizes are final."), code="final")
    preview = prize_plan_preview(tournament)
    if preview.planned is None:
        raise ServiceError(preview.error_field, plan_error_message(preview.error_field))
    return prizes_set(
        tournament=tournament,
        by=by,
        prizes=[{"place": p.place, "amount_cents": p.amount_cents, "goods": p.goods} for p in preview.planned.prizes],
    )


CATEGORY_GENDERS = ("", "f", "m", "d")


@transaction.atomic
def prize_categories_set(
    *, tournament: Tournament, categories: list[dict], allow_both: bool | None = None, by=None
) -> list[PrizeCategory]:
    """Replace the category prizes, in this order (the better prize first): each {"name", "min_age", "max_age",
    "gender", "local", "prizes": [{"place", "amount_cents", "goods"}]}; ``allow_both`` sets whether a player may
    win an overall and a category prize."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk", flat=True).get()
    rows, names = [], set()
    for index, data in enumerate(categories):
        where = f"categories[{index}]"
        name = (data.get("name") or "").strip()
        if not name or len(name) > 100:
            raise ServiceError(f"{where}.name", _("Give the category a name (at most 100 characters)."))
        if name in names:
            raise ServiceError(f"{where}.name", _("Each category has its own name."))
        names.add(name)
        ages = {}
        for key in ("min_age", "max_age"):
            value = data.get(key)
            if value is not None and (type(value) is not int or not 0 <= value <= 150):
                raise ServiceError(f"{where}.{key}", _("An age is a whole number from 0 to 150."))
            ages[key] = value
        if ages["min_age"] is not None and ages["max_age"] is not None and ages["min_age"] > ages["max_age"]:
            raise ServiceError(f"{where}.max_age", _("The age up to is below the age from."))
        gender, local = data.get("gender") or "", data.get("local")
        if gender not in CATEGORY_GENDERS:
            raise ServiceError(f"{where}.gender", _("Choose female, male, diverse or anyone."))
        if local is not None and type(local) is not bool:
            raise ServiceError(f"{where}.local", _("Choose locals, guests or anyone."))
        prizes = data.get("prizes") or []
        if not prizes:
            raise ServiceError(f"{where}.prizes", _("Enter at least one prize for the category."))
        checked = []
        for number, prize in enumerate(prizes, start=1):
            amount, goods = prize.get("amount_cents"), (prize.get("goods") or "").strip()
            if amount is not None and (type(amount) is not int or amount < 0):
                raise ServiceError(f"{where}.prizes", _("An amount cannot be negative."))
            if amount is None and not goods:
                raise ServiceError(f"{where}.prizes", _("Enter an amount or the goods."))
            checked.append({"place": number, "amount_cents": amount, "goods": goods[:200]})
        rows.append(
            PrizeCategory(
                tournament=tournament, position=index, name=name, gender=gender, local=local, prizes=checked, **ages
            )
        )
    old = PrizeCategory.objects.filter(tournament=tournament)
    before = [_category_json(c) for c in old]
    old.delete()
    created = PrizeCategory.objects.bulk_create(rows)
    after = [_category_json(c) for c in created]
    if allow_both is not None:
        plan, _created = PrizePlan.objects.get_or_create(tournament=tournament)
        if plan.categories_allow_both != allow_both:
            PrizePlan.objects.filter(pk=plan.pk).update(categories_allow_both=allow_both)
            before, after = [*before, {"allow_both": plan.categories_allow_both}], [*after, {"allow_both": allow_both}]
    if before != after:
        audit_record(action="prize_categories.set", by=by, tournament=tournament, before=before, after=after)
    return created


def _category_json(category: PrizeCategory) -> dict:
    return {
        "name": category.name,
        "min_age": category.min_age,
        "max_age": category.max_age,
        "gender": category.gender,
        "local": category.local,
        "prizes": category.prizes,
    }


@transaction.atomic
def registration_facts_set(
    *,
    tournament: Tournament,
    start_number: int,
    birth_year: int | None = None,
    gender: str = "",
    local: bool | None = None,
    by=None,
) -> Registration:
    """What a category prize needs of a player (year of birth, gender, local or guest), asked with his consent."""
    reg = (
        Registration.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(tournament=tournament, start_number=start_number)
        .first()
    )
    if reg is None:
        raise ServiceError(
            "start_number",
            _("No player has start number %(n)s in this tournament.") % {"n": start_number},
            code="not_found",
        )
    if birth_year is not None and (type(birth_year) is not int or not 1900 <= birth_year <= tournament.date.year):
        raise ServiceError("birth_year", _("A year of birth from 1900 to the tournament's year."))
    if gender not in CATEGORY_GENDERS:
        raise ServiceError("gender", _("Choose female, male, diverse or anyone."))
    if local is not None and type(local) is not bool:
        raise ServiceError("local", _("Choose locals, guests or anyone."))
    before = {"birth_year": reg.birth_year, "gender": reg.gender, "local": reg.local}
    after = {"birth_year": birth_year, "gender": gender, "local": local}
    if before != after:
        Registration.objects.filter(pk=reg.pk).update(**after)
        # the log says what changed, not the values: they are personal data an anonymisation forgets
        audit_record(
            action="registration.facts",
            by=by,
            tournament=tournament,
            subject=registration_label(reg),
            after=sorted(k for k in after if after[k] != before[k]),
        )
        for key, value in after.items():
            setattr(reg, key, value)
    return reg
