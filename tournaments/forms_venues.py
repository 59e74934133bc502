"""Forms of the venues of an evening in several inns (set up by the organiser, run by each venue's desk)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .forms import ServiceErrorMixin


class VenueForm(ServiceErrorMixin, forms.Form):
    name = forms.CharField(label=_("Name of the venue"), max_length=200)
    address = forms.CharField(label=_("Address"), max_length=300, required=False)
    contact = forms.CharField(label=_("Contact on the evening"), max_length=200, required=False)
    first_table = forms.IntegerField(label=_("First table"), min_value=1, max_value=9999)
    last_table = forms.IntegerField(label=_("Last table"), min_value=1, max_value=9999)

    def clean(self):
        data = super().clean()
        first, last = data.get("first_table"), data.get("last_table")
        if first is not None and last is not None and last < first:
            self.add_error("last_table", _("The last table comes after the first."))
        return data


class VenueHelperForm(ServiceErrorMixin, forms.Form):
    username = forms.CharField(label=_("User name of the desk helper"), max_length=150)


class VenueCheckinForm(ServiceErrorMixin, forms.Form):
    start_number = forms.IntegerField(label=_("Start number"), min_value=1, max_value=999_999)


class VenueMixForm(forms.Form):
    mix = forms.BooleanField(label=_("Mix the venues (everybody may change venue)"), required=False)


__all__ = ["VenueCheckinForm", "VenueForm", "VenueHelperForm", "VenueMixForm"]
