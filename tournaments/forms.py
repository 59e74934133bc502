"""Forms of the organiser's pages: they parse and validate input; the services decide."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .services.errors import ServiceError


class ServiceErrorMixin:
    def add_service_error(self, err: ServiceError) -> None:
        """Show a refused write next to its field (or above the form when no field matches)."""
        shown = err.field in self.fields and not self.fields[err.field].widget.is_hidden
        self.add_error(err.field if shown else None, err.message)


class SearchForm(forms.Form):
    q = forms.CharField(label=_("Find a player"), required=False, max_length=100)


class RegisterForm(ServiceErrorMixin, forms.Form):
    """Register a player found in the club's database."""

    player = forms.IntegerField(widget=forms.HiddenInput)
    paid = forms.BooleanField(label=_("paid"), required=False)
    checked_in = forms.BooleanField(label=_("checked in"), required=False)


class QuickAddForm(ServiceErrorMixin, forms.Form):
    """A person not yet in the database: created and registered in one step."""

    first_name = forms.CharField(label=_("First name"), max_length=100, required=False)
    last_name = forms.CharField(label=_("Last name"), max_length=100)
    club_name = forms.CharField(
        label=_("Club"),
        max_length=200,
        required=False,
        widget=forms.TextInput(attrs={"list": "club-names", "autocomplete": "off"}),
    )
    paid = forms.BooleanField(label=_("paid"), required=False)
    checked_in = forms.BooleanField(label=_("checked in"), required=False)

    def clean_last_name(self) -> str:
        value = self.cleaned_data["last_name"].strip()
        if not value:
            raise forms.ValidationError(_("Please enter a last name."))
        return value


class FlagForm(forms.Form):
    """One of a registration's flags set from the desk (a toggle button)."""

    field = forms.ChoiceField(choices=[("paid", "paid"), ("checked_in", "checked_in")])
    value = forms.BooleanField(required=False)


class SubstituteForm(ServiceErrorMixin, forms.Form):
    """Who takes over a withdrawn player's seat: a player of the database or a new person."""

    player = forms.IntegerField(required=False, widget=forms.HiddenInput)
    first_name = forms.CharField(label=_("First name"), max_length=100, required=False)
    last_name = forms.CharField(label=_("Last name"), max_length=100, required=False)
    club_name = forms.CharField(
        label=_("Club"),
        max_length=200,
        required=False,
        widget=forms.TextInput(attrs={"list": "club-names", "autocomplete": "off"}),
    )
    # The desk's answer to "does the substitute pay an entry fee?"; empty: not asked yet (the page asks).
    pays_fee = forms.TypedChoiceField(
        choices=[("no", _("no")), ("yes", _("yes"))],
        required=False,
        coerce=lambda value: value == "yes",
        empty_value=None,
    )

    def clean(self) -> dict:
        data = super().clean()
        data["last_name"] = (data.get("last_name") or "").strip()
        if data.get("player") is None and not data["last_name"]:
            self.add_error("last_name", _("Choose a player above or enter the new person's last name."))
        return data


class SeatSwapForm(ServiceErrorMixin, forms.Form):
    """Two players (by start number) exchange their seats before play."""

    first = forms.IntegerField(label=_("Start number"), min_value=1)
    second = forms.IntegerField(label=_("swaps with start number"), min_value=1)

    def clean(self) -> dict:
        data = super().clean()
        if data.get("first") is not None and data.get("first") == data.get("second"):
            self.add_error("second", _("Choose two different players."))
        return data
