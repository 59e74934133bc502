"""Forms of a qualifier series: its settings, a wildcard (the services decide)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .forms import ServiceErrorMixin
from .models import Series, Tournament


class QualificationForm(ServiceErrorMixin, forms.Form):
    per_evening = forms.IntegerField(label=_("Qualify per evening"), min_value=0, max_value=100, initial=2)
    mode = forms.ChoiceField(label=_("Who qualifies"), choices=Series.QualifyMode.choices)
    lottery_places = forms.IntegerField(label=_("Final places drawn by lot"), min_value=0, max_value=1000, initial=0)
    lottery_min_evenings = forms.IntegerField(
        label=_("Evenings for the lottery"), min_value=1, max_value=1000, initial=1
    )
    final = forms.ModelChoiceField(label=_("Final"), queryset=Tournament.objects.none(), required=False)
    invitation_deadline = forms.DateField(
        label=_("Answer by"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args, series: Series, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # the final is a tournament of the series' own club (another club's is never offered nor accepted)
        self.fields["final"].queryset = Tournament.objects.filter(club_id=series.club_id).order_by("-date")


class WildcardForm(ServiceErrorMixin, forms.Form):
    player = forms.ModelChoiceField(label=_("Player"), queryset=None)
    reason = forms.CharField(label=_("Reason (e.g. defending champion)"), max_length=200)

    def __init__(self, *args, candidates, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = candidates
