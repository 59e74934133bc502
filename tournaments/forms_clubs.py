"""Forms of a club's own registration ("Verein anlegen") and of the public calendar's filters."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .forms import ServiceErrorMixin


class ClubRegisterForm(ServiceErrorMixin, forms.Form):
    name = forms.CharField(label=_("Club name"), max_length=200, error_messages={"required": _("Say the club's name.")})
    town = forms.CharField(label=_("Town"), max_length=200, required=False)
    postcode = forms.CharField(
        label=_("Postcode"),
        max_length=5,
        required=False,
        help_text=_("Where the club usually plays: places its tournaments in the calendar."),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "postal-code"}),
    )
    username = forms.CharField(
        label=_("Your user name"),
        max_length=150,
        error_messages={"required": _("Choose a user name.")},
        widget=forms.TextInput(attrs={"autocomplete": "username"}),
    )
    email = forms.EmailField(
        label=_("Your e-mail"),
        help_text=_("The confirmation link is sent here."),
        error_messages={"required": _("The confirmation is sent to this address.")},
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password = forms.CharField(
        label=_("Password"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )
    password_again = forms.CharField(
        label=_("Password again"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password_again") and data["password"] != data["password_again"]:
            self.add_error("password_again", _("The two passwords differ."))
        return data


class ClubStatusForm(forms.Form):
    status = forms.ChoiceField(choices=[("active", "active"), ("suspended", "suspended")])


class CalendarFilterForm(forms.Form):
    """The calendar's filters; each is optional, a wrong one is shown at its field and ignored."""

    von = forms.DateField(label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    bis = forms.DateField(label=_("Until"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    plz = forms.RegexField(
        label=_("Postcode"),
        regex=r"^\d{1,5}$",
        required=False,
        error_messages={"invalid": _("Up to five digits: 9 is all of 9xxxx, 93047 one town.")},
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "postal-code"}),
    )
    km = forms.IntegerField(
        label=_("Within km"),
        required=False,
        min_value=1,
        max_value=500,
        help_text=_("With a full postcode: distance as the crow flies."),
    )

    def clean(self):
        data = super().clean()
        if data.get("km") and data.get("plz") and len(data["plz"]) != 5:
            self.add_error("plz", _("A distance needs the full five-digit postcode."))
        return data
