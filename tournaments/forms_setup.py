"""Forms of the organiser console: tournament setup, rules, players."""
from decimal import Decimal

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from scoring.messages import rule_error_text
from scoring.rules import PRESETS, RuleError, ruleset_from_dict, ruleset_to_dict

from .models import Club, Player, Tournament

PRESET_CHOICES = [
    ("default", _("Tournament default (rules book)")),
    ("sechs_zwei", _("6/2 (solo base 2)")),
    ("nur_pluspunkte", _("Plus points only")),
    ("wenz_ab_3", _("Wenz Laufende from 3")),
    ("kreuz_statt_muss", _("Kreuz instead of Muss")),
]
assert {key for key, _label in PRESET_CHOICES} == set(PRESETS)

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
    slug = forms.SlugField(label=_("short name (URL)"), max_length=100, required=False,
                           help_text=_("Made from the name when left empty."))
    date = forms.DateField(label=_("date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    venue = forms.CharField(label=_("venue"), max_length=200, required=False)
    entry_fee = forms.DecimalField(label=_("entry fee (€)"), min_value=Decimal(0), decimal_places=2, initial=Decimal("10.00"),
                                   localize=True, widget=forms.TextInput(attrs={"inputmode": "decimal"}))
    payout_percent = forms.IntegerField(label=_("payout of entry fees (%)"), min_value=0, max_value=100, initial=100)
    preset = forms.ChoiceField(label=_("ruleset"), choices=PRESET_CHOICES, initial="default")

    def __init__(self, *args, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs if clubs is not None else Club.objects.none()

    def clean(self):
        data = super().clean()
        if data.get("name") and not data.get("slug"):
            data["slug"] = slugify(data["name"])[:100]
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
    entry_fee = forms.DecimalField(label=_("entry fee (€)"), min_value=Decimal(0), decimal_places=2, localize=True,
                                   widget=forms.TextInput(attrs={"inputmode": "decimal"}))
    payout_percent = forms.IntegerField(label=_("payout of entry fees (%)"), min_value=0, max_value=100)
    sponsored = forms.DecimalField(label=_("sponsored amount (€)"), min_value=Decimal(0), decimal_places=2, localize=True,
                                   widget=forms.TextInput(attrs={"inputmode": "decimal"}))


def _int(label, lo=0, hi=None, **kw):
    return forms.IntegerField(label=label, min_value=lo, max_value=hi, **kw)


class RulesForm(forms.Form):
    """Every ruleset key as a field; validated by the rules engine, each error on its own field."""

    scoring = forms.ChoiceField(label=_("scoring"), choices=[("plus_minus", _("plus/minus points")),
                                                              ("plus_only", _("plus points only"))])
    unit_cents = _int(_("one point is worth (cents)"))
    rufspiel_base = _int(_("Rufspiel base value"), 1)
    solo_base = _int(_("Wenz and Farbsolo base value"), 1)
    schneider_bonus = _int(_("Schneider"))
    schwarz_bonus = _int(_("Schwarz"))
    laufende_bonus = _int(_("each Laufender"))
    laufende_min__rufspiel = _int(_("Laufende count from (Rufspiel)"), 1, 14)
    laufende_min__solo = _int(_("Laufende count from (Farbsolo)"), 1, 14)
    laufende_min__wenz = _int(_("Laufende count from (Wenz)"), 1, 4)
    laufende_max = _int(_("Laufende cap"), 1, 14, required=False, help_text=_("Empty: no cap."))
    tout_allowed = forms.BooleanField(label=_("Tout allowed"), required=False)
    sie_allowed = forms.BooleanField(label=_("Sie allowed"), required=False)
    tout_factor = _int(_("Tout factor"), 1)
    sie_factor = _int(_("Sie factor"), 1)
    kontra_allowed = forms.BooleanField(label=_("Kontra allowed"), required=False)
    all_pass = forms.ChoiceField(label=_("when all pass"), choices=[("muss", _("Muss")),
                                                                     ("redeal", _("throw in (Weitergeld)")),
                                                                     ("kreuz", _("play über Kreuz (1+3 against 2+4)"))])
    kreuz_tie = forms.ChoiceField(label=_("a Kreuz ending 60:60"), choices=[
        ("lost", _("is lost by the declaring pair")), ("replay", _("is thrown in and dealt again"))])
    muss_win = forms.TypedChoiceField(label=_("a Muss wins with"), coerce=int,
                                      choices=[(60, _("60 Augen")), (61, _("61 Augen"))])
    reuegeld_cents__rufspiel = _int(_("Reuegeld lost Rufspiel (cents)"))
    reuegeld_cents__solo = _int(_("Reuegeld lost solo (cents)"))
    reuegeld_cents__tout = _int(_("Reuegeld lost Tout (cents)"))
    reuegeld_free_solos = _int(_("free lost solos per round"), 0, 64)
    weitergeld_cents = _int(_("Weitergeld per player (cents)"))
    reuegeld_tischbester_percent = _int(_("share for the Tischbester (%)"), 0, 100)
    rounds = _int(_("rounds"), 1, 6)
    games_per_round = _int(_("games per round (table of four)"), 8, 64, help_text=_("A multiple of 4."))
    tiebreaks = forms.ChoiceField(label=_("ties on points"), choices=TIEBREAK_CHOICES)
    keep_clubs_apart = forms.BooleanField(label=_("keep members of a club apart"), required=False)
    draw_mode = forms.ChoiceField(label=_("seat draw"), choices=[
        ("each_round", _("draw every round anew")), ("all_in_advance", _("draw all rounds in advance")),
        ("keep_first_round", _("keep the tables of round 1"))])

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


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name", "town", "logo"]

    def clean_logo(self):
        logo = self.cleaned_data.get("logo")
        if logo and getattr(logo, "size", 0) > 2_000_000:
            raise forms.ValidationError(_("The logo is too large (at most 2 MB)."))
        return logo


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["first_name", "last_name", "club", "contact"]


class MergeForm(forms.Form):
    keep = forms.ModelChoiceField(label=_("keep this record"), queryset=Player.objects.none())
    remove = forms.ModelChoiceField(label=_("merge this record into it"), queryset=Player.objects.none())

    def __init__(self, *args, players=None, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("keep", "remove"):
            self.fields[name].queryset = players if players is not None else Player.objects.none()


class CsvImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"), help_text=_(
        "Columns: Vorname, Nachname (or one column name), optional Verein and Kontakt; comma or semicolon."))

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
