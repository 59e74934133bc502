from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _


class PrizeForm(forms.Form):
    last_place = forms.BooleanField(label=_("last place"), required=False)
    place = forms.IntegerField(label=_("place"), min_value=1, required=False)
    amount_euro = forms.DecimalField(
        label=_("amount (€)"),
        min_value=Decimal(0),
        decimal_places=2,
        required=False,
        localize=True,
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
    )
    goods = forms.CharField(label=_("goods"), max_length=200, required=False)

    def clean(self):
        data = super().clean()
        if not self.has_changed() and not data.get("place") and not data.get("last_place"):
            return data
        if not data.get("last_place") and not data.get("place"):
            self.add_error("place", _("Enter the place, or tick “last place”."))
        if data.get("amount_euro") is None and not data.get("goods"):
            self.add_error("goods", _("Enter an amount or the goods."))
        return data


class BasePrizeFormSet(forms.BaseFormSet):
    def prizes(self) -> list[dict]:
        result = []
        for form in self.forms:
            data = form.cleaned_data
            if not data or (not data.get("place") and not data.get("last_place")):
                continue
            amount = data.get("amount_euro")
            result.append(
                {
                    "place": None if data.get("last_place") else data["place"],
                    "amount_cents": None if amount is None else int(amount * 100),
                    "goods": data.get("goods", ""),
                }
            )
        return result


PrizeFormSet = forms.formset_factory(PrizeForm, formset=BasePrizeFormSet, extra=2)
