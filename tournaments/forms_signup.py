"""Forms of the online sign-up, its options and the check-in at the door."""

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from .forms import ServiceErrorMixin
from .services.signups import another_person_label

HONEYPOT = "website"


class SignUpForm(ServiceErrorMixin, forms.Form):
    first_name = forms.CharField(
        label=_("First name"),
        max_length=100,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "given-name"}),
    )
    last_name = forms.CharField(
        label=_("Last name"),
        max_length=100,
        error_messages={"required": _("Please enter a last name.")},
        widget=forms.TextInput(attrs={"autocomplete": "family-name"}),
    )
    club_name = forms.CharField(
        label=_("Club"),
        max_length=200,
        required=False,
        help_text=_("Pick it from the list or type it; empty if you play for no club."),
        widget=forms.TextInput(attrs={"list": "club-names", "autocomplete": "off"}),
    )
    email = forms.EmailField(
        label=_("E-mail (optional)"),
        required=False,
        help_text=_("For your confirmation with your personal link."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    phone = forms.CharField(
        label=_("Phone (optional)"),
        max_length=50,
        required=False,
        widget=forms.TextInput(attrs={"type": "tel", "autocomplete": "tel"}),
    )
    consent = forms.BooleanField(label=_("I agree"), required=False)
    # a genuine namesake of someone signed up already (the refusal of a name taken points here)
    another_person = forms.BooleanField(label=lazy(another_person_label, str)(), required=False)
    # The honeypot: hidden from people by the stylesheet, filled in by programs that fill in everything.
    website = forms.CharField(
        label=_("Leave this field empty"),
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )

    def clean_last_name(self) -> str:
        value = self.cleaned_data["last_name"].strip()
        if not value:
            raise forms.ValidationError(_("Please enter a last name."))
        return value

    def clean(self):
        data = super().clean()
        if data.get(HONEYPOT):
            raise forms.ValidationError(
                _(
                    "Not sent: the hidden field “%(field)s” was filled in, as programs that send spam do. If you are a "
                    "person, leave that field empty and send the form again."
                )
                % {"field": _("Leave this field empty")},
                code="honeypot",
            )
        if not data.get("consent"):
            self.add_error("consent", _("Please agree to the storing of your data: without it we cannot register you."))
        return data

    @property
    def is_spam(self) -> bool:
        return any(e.code == "honeypot" for e in self.errors.as_data().get("__all__", []))


class SignUpOptionsForm(forms.Form):
    open = forms.BooleanField(label=_("Public sign-up open"), required=False)
    closes_at = forms.DateTimeField(
        label=_("Sign-up closes"),
        required=False,
        help_text=_("Empty: open until the evening."),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    capacity = forms.IntegerField(
        label=_("Places"),
        min_value=4,
        max_value=2000,
        required=False,
        help_text=_("Empty: no limit. Registrations at the desk count too."),
    )
    waiting_list = forms.BooleanField(label=_("Waiting list when full"), required=False)
    start_time = forms.TimeField(
        label=_("Start"), required=False, widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )
    pay_until = forms.DateTimeField(
        label=_("Pay by transfer until"),
        required=False,
        help_text=_(
            "Empty: pay at the door. After it, places not paid by transfer can be "
            "given to the waiting list (needs the club's IBAN)."
        ),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    consent_text = forms.CharField(
        label=_("Consent text"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("What the player agrees to. Empty: the standard text below."),
    )


class CheckinCodeForm(forms.Form):
    code = forms.CharField(label=_("Code"), max_length=300)
    collect = forms.BooleanField(label=_("Collect the entry fee at check-in"), required=False)


class CheckinCollectForm(forms.Form):
    collect = forms.BooleanField(required=False)


class CheckinCloseForm(forms.Form):
    fill = forms.BooleanField(
        label=_("Give free places to the waiting list's players at the door, in their order"), required=False
    )


class MatchForm(forms.Form):
    same = forms.TypedChoiceField(choices=[("1", "1"), ("0", "0")], coerce=lambda v: v == "1")


class BankStatementForm(forms.Form):
    file = forms.FileField(
        label=_("Bank statement (CSV)"),
        help_text=_("The export of the club account's transactions (CSV), as the bank gives it."),
    )
