"""The organiser's forms at a table that cannot finish by itself (confirm for a player, close with a reason)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Table
from .services.errors import ServiceError


class ConfirmForForm(forms.Form):
    seat = forms.TypedChoiceField(label=_("player"), coerce=int)
    reason = forms.CharField(
        label=_("reason"),
        max_length=300,
        widget=forms.TextInput(attrs={"placeholder": _("e.g. left early, confirmed by phone")}),
    )

    def __init__(self, *args, seats: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = seats


class TableCloseForm(forms.Form):
    reason = forms.CharField(
        label=_("reason"),
        max_length=300,
        widget=forms.TextInput(attrs={"placeholder": _("e.g. a player fell ill after game 20")}),
    )


class TableFourForm(forms.Form):
    """A table of five that lost a player plays on with four: whose seat is empty now."""

    seat = forms.TypedChoiceField(label=_("player who left"), coerce=int)
    reason = forms.CharField(
        label=_("reason"),
        max_length=300,
        widget=forms.TextInput(attrs={"placeholder": _("e.g. went home after game 17")}),
    )

    def __init__(self, *args, seats: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = seats


class TableReopenForm(forms.Form):
    reason = forms.CharField(
        label=_("reason"), max_length=300, widget=forms.TextInput(attrs={"placeholder": _("e.g. closed by mistake")})
    )


class ReasonForm(forms.Form):
    """The reason that goes with a change (deleting a game, reopening a round): at most 300 characters, no
    NUL (PostgreSQL refuses it in text). Whether one is needed is the service's rule."""

    reason = forms.CharField(label=_("reason"), max_length=300, required=False)

    def refusal(self) -> ServiceError:
        """The form's first error as the refusal the views already show, naming the field."""
        return ServiceError("reason", f"{self.fields['reason'].label}: {self.errors['reason'][0]}")


def unconfirmed_seats(table: Table) -> list[tuple[int, str]]:
    confirmed = set(table.confirmations.values_list("seat", flat=True))
    return [
        (s.number, f"{s.number} · {s.registration.player.name}")
        for s in table.seats.select_related("registration__player").order_by("number")
        if s.number not in confirmed
    ]


def seated(table: Table) -> list[tuple[int, str]]:
    return [
        (s.number, f"{s.number} · {s.registration.player.name}")
        for s in table.seats.select_related("registration__player").order_by("number")
    ]


def action_forms(
    table: Table,
    confirm_for: ConfirmForForm | None = None,
    close: TableCloseForm | None = None,
    reopen: TableReopenForm | None = None,
    four: TableFourForm | None = None,
) -> dict:
    forms_ = {
        "confirm_for_form": confirm_for or ConfirmForForm(seats=unconfirmed_seats(table), prefix="cf"),
        "close_form": close or TableCloseForm(prefix="close"),
        "reopen_form": reopen or TableReopenForm(prefix="reopen"),
    }
    if table.size == 5 and table.seat_left is None:  # a table of five may lose a player and play on with four
        forms_["four_form"] = four or TableFourForm(seats=seated(table), prefix="four")
    return forms_
