"""Forms of the organiser console: tournament setup, rules, players."""

import dataclasses
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from schafkopfrennen.formats import number
from scoring.messages import rule_error_text
from scoring.rules import PRESET_LABELS, RuleError, ruleset_from_dict, ruleset_to_dict
from scoring.rules.ruleset import ruleset_fields

from .models import Club, Player, PrizeCategory, PrizePlan, Tournament
from .slugs import german_slugify

PRESET_CHOICES = [(key, _(label)) for key, label in PRESET_LABELS.items()]  # the labels' one home: scoring.rules

TIEBREAK_CHOICES = [
    ("won_solos,lot", _("more won solos, then lot")),
    ("won_solos,lost_solos,lot", _("more won solos, fewer lost solos, then lot")),
    ("won_solos,last_round,lot", _("more won solos, better last round, then lot")),
    ("won_solos,shared", _("more won solos, then shared place")),
    ("shared", _("shared place")),
    ("lot", _("lot")),
]


def euro_to_cents(value: Decimal | None) -> int:
    return int((value or Decimal(0)) * 100)


def cents_to_euro(cents: int | None) -> Decimal | None:
    """12,50 in a form field (two decimals, shown in the language's format)."""
    return None if cents is None else (Decimal(cents) / 100).quantize(Decimal("0.01"))


class TournamentForm(forms.Form):
    club = forms.ModelChoiceField(label=_("club"), queryset=Club.objects.none())
    name = forms.CharField(label=_("name"), max_length=200)
    slug = forms.SlugField(
        label=_("short name (URL)"), max_length=100, required=False, help_text=_("Made from the name when left empty.")
    )
    date = forms.DateField(label=_("date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    venue = forms.CharField(label=_("venue"), max_length=200, required=False)
    postcode = forms.RegexField(
        label=_("postcode of the venue"),
        regex=r"^\d{5}$",
        required=False,
        error_messages={"invalid": _("A postcode has five digits, e.g. 93047.")},
        help_text=_("Empty: the club's postcode. Places the tournament in the calendar."),
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )
    listed = forms.BooleanField(
        label=_("in the public calendar"),
        required=False,
        help_text=_("Shown at /kalender/ and in its iCal feeds until the day has passed."),
    )
    entry_fee = forms.DecimalField(
        label=_("entry fee (€)"),
        min_value=Decimal(0),
        decimal_places=2,
        initial=Decimal("10.00"),
        localize=True,
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
    )
    payout_percent = forms.IntegerField(label=_("payout of entry fees (%)"), min_value=0, max_value=100, initial=100)
    preset = forms.ChoiceField(label=_("ruleset"), choices=PRESET_CHOICES, initial="default")

    def __init__(self, *args, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs if clubs is not None else Club.objects.none()

    def clean(self):
        data = super().clean()
        if data.get("name") and not data.get("slug"):
            data["slug"] = german_slugify(data["name"])
        if data.get("slug") and Tournament.objects.filter(slug=data["slug"]).exists():
            self.add_error("slug", _("This short name is taken; choose another."))
        return data


class CopyForm(forms.Form):
    name = forms.CharField(label=_("name"), max_length=200)
    slug = forms.SlugField(label=_("short name (URL)"), max_length=100)
    date = forms.DateField(label=_("date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))

    def clean_slug(self):
        slug = self.cleaned_data["slug"]
        if Tournament.objects.filter(slug=slug).exists():
            raise forms.ValidationError(_("This short name is taken; choose another."))
        return slug


class TournamentDetailsForm(forms.Form):
    name = forms.CharField(label=_("name"), max_length=200)
    date = forms.DateField(label=_("date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    venue = forms.CharField(label=_("venue"), max_length=200, required=False)
    postcode = forms.RegexField(
        label=_("postcode of the venue"),
        regex=r"^\d{5}$",
        required=False,
        error_messages={"invalid": _("A postcode has five digits, e.g. 93047.")},
        help_text=_("Empty: the club's postcode. Places the tournament in the calendar."),
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )
    listed = forms.BooleanField(
        label=_("in the public calendar"),
        required=False,
        help_text=_("Shown at /kalender/ and in its iCal feeds until the day has passed."),
    )
    entry_fee = forms.DecimalField(
        label=_("entry fee (€)"),
        min_value=Decimal(0),
        decimal_places=2,
        localize=True,
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
    )
    payout_percent = forms.IntegerField(label=_("payout of entry fees (%)"), min_value=0, max_value=100)
    sponsored = forms.DecimalField(
        label=_("sponsored amount (€)"),
        min_value=Decimal(0),
        decimal_places=2,
        localize=True,
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
    )
    blackout_last_round = forms.BooleanField(
        label=_("hide the standings during the last round"),
        required=False,
        help_text=_(
            "Publishing the last round hides the standings from the public (page, projector, downloads, "
            "players' pages) until you show them again at the prize-giving."
        ),
    )


def _rule_field(declared, label=None):
    """The form field of a ruleset key, from its declaration in ``scoring.rules.ruleset.Ruleset``."""
    meta = declared.metadata
    default = declared.default
    label = _(meta["label"]) if label is None else label
    if declared.name == "tiebreaks":  # a list: offered as the usual orders of tiebreaks
        return forms.ChoiceField(label=label, choices=TIEBREAK_CHOICES)
    if isinstance(default, bool):
        return forms.BooleanField(label=label, required=False)
    if "choices" in meta:
        labels = meta.get("choice_labels", {})
        choices = [(value, _(labels[value]) if value in labels else str(value)) for value in meta["choices"]]
        if isinstance(default, int):
            return forms.TypedChoiceField(label=label, coerce=int, choices=choices)
        return forms.ChoiceField(label=label, choices=choices)
    return forms.IntegerField(
        label=label,
        min_value=meta["min"],
        max_value=meta.get("max"),
        required=not meta.get("null"),
        help_text=_(meta["help"]) if "help" in meta else "",
    )


def _rules_form_fields() -> dict[str, forms.Field]:
    """Every ruleset key as a form field, a group's keys as ``group__key`` (laufende_min__wenz)."""
    form_fields = {}
    for declared in ruleset_fields():
        if dataclasses.is_dataclass(declared.default):
            for sub in dataclasses.fields(declared.default):
                form_fields[f"{declared.name}__{sub.name}"] = _rule_field(sub)
        else:
            form_fields[declared.name] = _rule_field(declared)
    return form_fields


class _RulesFormBase(forms.Form):
    @classmethod
    def initial_from(cls, rules: dict) -> dict:
        rules = ruleset_to_dict(ruleset_from_dict(rules))  # keys added since it was stored take their default
        initial = {}
        for name in cls.base_fields:
            key, _sep, sub = name.partition("__")
            value = rules[key][sub] if sub else rules[key]
            initial[name] = ",".join(value) if key == "tiebreaks" else value
        return initial

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        rules: dict = {}
        for name, value in data.items():
            key, _sep, sub = name.partition("__")
            if key == "tiebreaks":
                value = value.split(",")
            if sub:
                rules.setdefault(key, {})[sub] = value
            else:
                rules[key] = value
        try:
            self.rules = ruleset_to_dict(ruleset_from_dict(rules))
        except RuleError as err:
            field = err.field.replace(".", "__")
            self.add_error(field if field in self.fields else None, rule_error_text(err))
        return data


#: Every ruleset key as a field (declared once, in ``scoring.rules.ruleset.Ruleset``); validated by the
#: rules engine, each error on its own field.
RulesForm = type(_RulesFormBase)("RulesForm", (_RulesFormBase,), {"__module__": __name__, **_rules_form_fields()})


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name", "town", "postcode", "logo", "account_holder", "iban"]

    def clean_logo(self):
        logo = self.cleaned_data.get("logo")
        if logo and getattr(logo, "size", 0) > 2_000_000:
            raise forms.ValidationError(_("The logo is too large (at most 2 MB)."))
        return logo


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["first_name", "last_name", "club", "contact"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].required = True  # edited by a club's desk, a player stays in one of its clubs


class MergeForm(forms.Form):
    keep = forms.ModelChoiceField(label=_("keep this record"), queryset=Player.objects.none())
    remove = forms.ModelChoiceField(label=_("merge this record into it"), queryset=Player.objects.none())

    def __init__(self, *args, players=None, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("keep", "remove"):
            self.fields[name].queryset = players if players is not None else Player.objects.none()


class CsvImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "Columns: Vorname, Nachname (or one column name), optional Verein and Kontakt; comma or semicolon."
        ),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 2_000_000:
            raise forms.ValidationError(_("The file is too large (at most 2 MB)."))
        raw = upload.read()
        for encoding in ("utf-8-sig", "cp1252"):
            try:
                return raw.decode(encoding)
            except UnicodeDecodeError:
                continue
        raise forms.ValidationError(_("The file is not a text file."))


def _percent_list(text: str) -> list[int]:
    """ "21,5; 18,5 / 15" → [2150, 1850, 1500] (hundredths of a per cent)."""
    shares = []
    for part in text.replace("/", ";").replace("\n", ";").split(";"):
        part = part.strip().rstrip("%").strip().replace(",", ".")
        if not part:
            continue
        try:
            value = Decimal(part)
        except ArithmeticError:
            raise forms.ValidationError(
                _("Enter the shares in per cent, separated by semicolons: 21,5; 18,5; 15")
            ) from None
        if not value.is_finite() or value <= 0 or value > 100 or (value * 100) != int(value * 100):
            raise forms.ValidationError(_("Each share is a per cent above 0 with at most two decimals."))
        shares.append(int(value * 100))
    return shares


def percent_text(shares_bp) -> str:
    return "; ".join(f"{Decimal(s) / 100:f}".rstrip("0").rstrip(".").replace(".", ",") for s in shares_bp or ())


class PrizePlanForm(forms.Form):
    """The prize plan's settings, in euros and per cent; ``values()`` gives the service its cents and shares."""

    curve = forms.ChoiceField(label=_("curve"), choices=PrizePlan.Curve.choices, widget=forms.RadioSelect)
    every_n = forms.IntegerField(label=_("every n-th player"), min_value=2, max_value=100, required=False)
    decay_percent = forms.IntegerField(label=_("each next place less (%)"), min_value=0, max_value=99, required=False)
    first_euro = forms.DecimalField(
        label=_("first prize (€)"),
        min_value=Decimal(0),
        max_value=Decimal(100000),
        decimal_places=2,
        required=False,
        localize=True,
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
    )
    table = forms.CharField(
        label=_("shares of the pool (%)"),
        required=False,
        max_length=2000,
        help_text=_("One per place, separated by semicolons: 21,5; 18,5; 15"),
    )
    rounding_cents = forms.TypedChoiceField(label=_("rounding"), choices=PrizePlan.Rounding.choices, coerce=int)
    costs_euro = forms.DecimalField(
        label=_("costs (€)"),
        min_value=Decimal(0),
        max_value=Decimal(100000),
        decimal_places=2,
        required=False,
        localize=True,
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
    )
    goods_places = forms.IntegerField(label=_("goods places"), min_value=0, max_value=10000, required=False)
    goods_label = forms.CharField(label=_("goods places receive"), max_length=200, required=False)
    last_place_goods = forms.CharField(label=_("consolation prize for the last place"), max_length=200, required=False)
    goods_list = forms.CharField(
        label=_("goods on the prize table"),
        max_length=20000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("One per line: the desk picks from them when a place is called."),
    )

    def clean_table(self) -> list[int]:
        return _percent_list(self.cleaned_data.get("table") or "")

    @classmethod
    def initial_for(cls, plan) -> dict:
        return {
            "curve": plan.curve,
            "every_n": plan.every_n,
            "decay_percent": plan.decay_percent,
            "first_euro": Decimal(plan.first_cents) / 100 if plan.first_cents else None,
            "table": percent_text(plan.table_bp),
            "rounding_cents": plan.rounding_cents,
            "costs_euro": Decimal(plan.costs_cents) / 100 if plan.costs_cents else None,
            "goods_places": plan.goods_places,
            "goods_label": plan.goods_label,
            "last_place_goods": plan.last_place_goods,
            "goods_list": plan.goods_list,
        }

    def values(self) -> dict:
        data = self.cleaned_data
        return {
            "curve": data["curve"],
            "every_n": data.get("every_n") or 4,
            "decay_percent": data.get("decay_percent") or 0,
            "first_cents": int((data.get("first_euro") or 0) * 100),
            "table_bp": data.get("table") or [],
            "rounding_cents": data["rounding_cents"],
            "costs_cents": int((data.get("costs_euro") or 0) * 100),
            "goods_places": data.get("goods_places") or 0,
            "goods_label": data.get("goods_label") or "",
            "last_place_goods": data.get("last_place_goods") or "",
            "goods_list": data.get("goods_list") or "",
        }


def _category_prizes(text: str) -> list[dict]:
    """ "50; 30 €; Blumenstrauß" → one prize per place: a number is money in euros, anything else goods."""
    prizes = []
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        figure = part.rstrip("€").strip()
        if "," in figure:  # German: 1.250,50
            figure = figure.replace(".", "").replace(",", ".")
        try:
            value = Decimal(figure)
        except ArithmeticError:
            prizes.append({"amount_cents": None, "goods": part[:200]})
            continue
        if not value.is_finite() or value < 0 or value > 100000:
            raise forms.ValidationError(_("An amount is from 0 to 100.000 €."))
        prizes.append({"amount_cents": int(value * 100), "goods": ""})
    return prizes


def category_prizes_text(prizes) -> str:
    return "; ".join(
        p["goods"] if p.get("amount_cents") is None else number(Decimal(p["amount_cents"]) / 100, 2, grouping=False)
        for p in prizes or ()
    )


class PrizeCategoryForm(forms.Form):
    LOCAL = [("", _("anyone")), ("1", _("locals only")), ("0", _("guests only"))]

    name = forms.CharField(label=_("name"), max_length=100, required=False)
    min_age = forms.IntegerField(label=_("age from"), min_value=0, max_value=150, required=False)
    max_age = forms.IntegerField(label=_("age up to"), min_value=0, max_value=150, required=False)
    gender = forms.ChoiceField(label=_("gender"), choices=PrizeCategory.Gender.choices, required=False)
    local = forms.ChoiceField(label=_("locals or guests"), choices=LOCAL, required=False)
    prizes = forms.CharField(
        label=_("prizes by place"),
        max_length=2000,
        required=False,
        help_text=_("Separated by semicolons; a number is euros, anything else goods: 50; 30; Blumen"),
    )

    def clean_prizes(self) -> list[dict]:
        return _category_prizes(self.cleaned_data.get("prizes") or "")

    def clean(self):
        data = super().clean()
        if data.get("name") and not data.get("prizes") and "prizes" not in self.errors:
            self.add_error("prizes", _("Enter at least one prize for the category."))
        return data

    def category(self) -> dict | None:
        data = self.cleaned_data
        if not data.get("name"):
            return None
        return {
            "name": data["name"],
            "min_age": data.get("min_age"),
            "max_age": data.get("max_age"),
            "gender": data.get("gender") or "",
            "local": {"1": True, "0": False}.get(data.get("local") or ""),
            "prizes": data["prizes"],
        }

    @staticmethod
    def initial_for(category) -> dict:
        return {
            "name": category.name,
            "min_age": category.min_age,
            "max_age": category.max_age,
            "gender": category.gender,
            "local": {True: "1", False: "0"}.get(category.local, ""),
            "prizes": category_prizes_text(category.prizes),
        }


PrizeCategoryFormSet = forms.formset_factory(PrizeCategoryForm, extra=1)


class PrizeCallUpForm(forms.Form):
    """The prize table's "hat gewählt": whose place was called and what he took (or ``undo``)."""

    start_number = forms.IntegerField(label=_("start number"), min_value=1, max_value=32767)
    goods = forms.CharField(label=_("what he took"), max_length=200, required=False)
    undo = forms.BooleanField(required=False)
