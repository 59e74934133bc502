"""The organiser's form for a series (Saison or Cup): scoring, best N, placement points, minimum, tie-breaks."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Club, Series
from .slugs import german_slugify

SERIES_TIEBREAK_CHOICES = [
    ("participations,wins,best_result,lot", _("more participations, more wins, better best result, then lot")),
    ("wins,participations,best_result,lot", _("more wins, more participations, better best result, then lot")),
    ("best_result,participations,wins,lot", _("better best result, more participations, more wins, then lot")),
    ("participations,wins,best_result", _("more participations, more wins, better best result, then shared place")),
    ("lot", _("lot")),
]


class SeriesForm(forms.Form):
    club = forms.ModelChoiceField(label=_("club"), queryset=Club.objects.none())
    name = forms.CharField(label=_("name"), max_length=200)
    slug = forms.SlugField(
        label=_("short name (URL)"), max_length=100, required=False, help_text=_("Made from the name when left empty.")
    )
    kind = forms.ChoiceField(label=_("kind"), choices=Series.Kind.choices, initial=Series.Kind.SEASON)
    scoring = forms.ChoiceField(label=_("scoring"), choices=Series.Scoring.choices, initial=Series.Scoring.SUM)
    best = forms.IntegerField(
        label=_("best results that count"),
        min_value=1,
        max_value=99,
        required=False,
        help_text=_("Best N of M: only a player's N best results count."),
    )
    placement_points = forms.CharField(
        label=_("placement points"),
        required=False,
        max_length=500,
        help_text=_("Points for 1st, 2nd, 3rd ... place, e.g. 25, 20, 16; places beyond get 0."),
    )
    per_player_beaten = forms.BooleanField(label=_("one point per player beaten"), required=False)
    min_participations = forms.IntegerField(label=_("minimum participations"), min_value=0, max_value=99, initial=1)
    tiebreaks = forms.ChoiceField(
        label=_("tie-breaks"), choices=SERIES_TIEBREAK_CHOICES, initial=SERIES_TIEBREAK_CHOICES[0][0]
    )
    public = forms.BooleanField(label=_("standings visible to the public"), required=False)

    def __init__(self, *args, clubs=None, instance: Series | None = None, **kwargs):
        if instance is not None:
            kwargs.setdefault(
                "initial",
                {
                    "name": instance.name,
                    "kind": instance.kind,
                    "scoring": instance.scoring,
                    "best": instance.best,
                    "placement_points": ", ".join(str(p) for p in instance.placement_points or []),
                    "per_player_beaten": instance.per_player_beaten,
                    "min_participations": instance.min_participations,
                    "tiebreaks": ",".join(instance.tiebreaks),
                    "public": instance.public,
                },
            )
        super().__init__(*args, **kwargs)
        self.instance = instance
        if instance is not None:  # the club and the URL stay
            del self.fields["club"], self.fields["slug"]
        else:
            self.fields["club"].queryset = clubs if clubs is not None else Club.objects.none()
        choices = dict(SERIES_TIEBREAK_CHOICES)
        current = (self.initial or {}).get("tiebreaks")
        if current and current not in choices:  # an order set elsewhere (the API, the admin) stays choosable
            self.fields["tiebreaks"].choices = [*SERIES_TIEBREAK_CHOICES, (current, current.replace(",", ", "))]

    def clean_placement_points(self) -> list[int] | None:
        text = self.cleaned_data.get("placement_points", "").strip()
        if not text:
            return None
        try:
            points = [int(part) for part in text.replace(";", ",").split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError(_("Whole numbers, separated by commas.")) from None
        return points or None

    def clean(self):
        data = super().clean()
        if self.instance is None:
            if data.get("name") and not data.get("slug"):
                data["slug"] = german_slugify(data["name"])
            if data.get("slug") and Series.objects.filter(slug=data["slug"]).exists():
                self.add_error("slug", _("This short name is taken; choose another."))
        return data

    def service_kwargs(self, *, update: bool = False) -> dict:
        data = self.cleaned_data
        kwargs = {
            name: data[name]
            for name in ("name", "kind", "scoring", "best", "placement_points", "per_player_beaten", "public")
        }
        kwargs["min_participations"] = data["min_participations"] if data.get("min_participations") is not None else 1
        kwargs["tiebreaks"] = data["tiebreaks"].split(",")
        if not update:
            kwargs["club"], kwargs["slug"] = data["club"], data["slug"]
        return kwargs
