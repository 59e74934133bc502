"""The game form of the tablet page and of paper mode: buttons in, a hand record (rules.md section 4) out.

The form only parses: which fields belong to the chosen contract, and their types. Whether the
game is valid is the rules engine's business (through the hand services), whose errors name a
field that the page shows next to it.
"""

import json
from dataclasses import dataclass, fields
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.rules import HAND_FIELDS, Ruleset
from scoring.rules.hand import HandRecord

from .models import Hand, Table

MUSS = "muss"  # a button of its own on the tablet; stored as a Rufspiel with muss=True
SIE = "sie"  # a button of its own: stored as a Farbsolo with sie=True and no trump suit (a Sie is not played out)

CONTRACTS = [
    (Hand.Contract.RUFSPIEL, _("Rufspiel")),
    (MUSS, _("Muss")),
    (Hand.Contract.KREUZ, _("Kreuz")),
    (Hand.Contract.WENZ, _("Wenz")),
    (Hand.Contract.SOLO, _("Farbsolo")),
    (SIE, _("Sie")),
    (Hand.Contract.WEITER, _("All passed")),
]
CALLABLE = [(s, label) for s, label in Hand.Suit.choices if s != Hand.Suit.HERZ]
WON = [("1", _("won")), ("0", _("lost"))]
KONTRA = [(0, "–"), (1, _("Kontra")), (2, _("Re"))]
ANNOUNCE = [("", _("normal")), ("tout", _("Tout"))]

# Laufende buttons: none, then runs of 2 to 8 (a run below the contract's minimum is hidden on the page).
LAUFENDE_BUTTONS = (2, 3, 4, 5, 6, 7, 8)
WENZ_MAX_LAUFENDE = 4
AUGEN_QUICK = (0, 30, 31, 60, 61, 90, 91, 120)

# The fields of the page an error can be shown next to; any other field's error goes to the form's top.
ERROR_SLOTS = (
    "contract",
    "called",
    "trump",
    "declarer",
    "pair",
    "partner",
    "augen",
    "schwarz",
    "laufende",
    "announce",
    "won",
    "kontra",
    "called_card",
    "renonce",
    "reason",
    "form",
)
FIELD_SLOT = {"muss": "contract", "dealer": "declarer", "tout": "announce", "sie": "contract"}


# The parts of the page (``data-part`` in templates/entry/_form.html) and what each fills in the hand
# record: record key (a field of the rules' HandRecord dataclass, HAND_FIELDS) -> the form field it is read from.
PARTS: dict[str, dict[str, str]] = {
    "kreuz": {"declarer": "pair"},  # über Kreuz: one seat of the declaring pair; the partner sits opposite
    "called": {"called": "called"},
    "muss": {"called_card": "called_card", "renonce": "renonce"},
    "trump": {"trump": "trump"},
    "declarer": {"declarer": "declarer"},
    "partner": {"partner": "partner"},
    "announce": {"tout": "announce"},
    "won": {"won": "won"},
    "augen": {"augen": "augen", "schwarz": "schwarz"},
    "laufende": {"laufende": "laufende"},
    "kontra": {"kontra": "kontra"},
}


@dataclass(frozen=True)
class Button:
    """A contract button: the record's contract, the keys the button fixes itself, the parts of the page it shows."""

    contract: str
    parts: tuple[str, ...]
    tout: tuple[str, ...] | None = None  # a Wenz or Farbsolo announced Tout shows these instead
    fixed: tuple[tuple[str, Any], ...] = ()

    def shown(self, announce: str) -> tuple[str, ...]:
        return self.tout if self.tout is not None and announce == "tout" else self.parts


_PLAYED = ("augen", "laufende", "kontra")
# Which keys a game of each kind has, declared once: GameForm.record() builds the record from it and the
# page hands it to entry.js (``BUTTONS_JSON``, the form's data-buttons), whose sync() shows just these parts.
BUTTONS: dict[str, Button] = {
    Hand.Contract.RUFSPIEL.value: Button(Hand.Contract.RUFSPIEL.value, ("called", "declarer", "partner", *_PLAYED)),
    MUSS: Button(
        Hand.Contract.RUFSPIEL.value,
        ("called", "muss", "declarer", "partner", "augen", "laufende"),
        fixed=(("muss", True),),
    ),  # no Kontra in a Muss
    # über Kreuz: the pair, Augen, Schwarz, Laufende
    Hand.Contract.KREUZ.value: Button(Hand.Contract.KREUZ.value, ("kreuz", "augen", "laufende")),
    Hand.Contract.WENZ.value: Button(
        Hand.Contract.WENZ.value,
        ("declarer", "announce", *_PLAYED),
        tout=("declarer", "announce", "won", "laufende", "kontra"),
    ),
    Hand.Contract.SOLO.value: Button(
        Hand.Contract.SOLO.value,
        ("trump", "declarer", "announce", *_PLAYED),
        tout=("trump", "declarer", "announce", "won", "laufende", "kontra"),
    ),
    # all four Ober and Unter: who holds them, nothing else (rules.md sections 3 and 5.3)
    SIE: Button(Hand.Contract.SOLO.value, ("declarer",), fixed=(("sie", True),)),
    Hand.Contract.WEITER.value: Button(Hand.Contract.WEITER.value, ()),
}
BUTTONS_JSON = json.dumps({value: {"parts": b.parts, "tout": b.tout} for value, b in BUTTONS.items()})

_KINDS = {f.name: f.metadata["kind"] for f in fields(HandRecord)}  # text, number, flag


def _entered(key: str, value: Any) -> Any:
    """A record key's value from its form field's cleaned value; None: not entered."""
    if key == "tout":  # the announce buttons: normal or Tout
        return True if value == "tout" else None
    if key == "won":  # the Tout's result buttons
        return {"1": True, "0": False}.get(value or "")
    if key == "kontra":  # 0: no Kontra
        return value or None
    if _KINDS[key] == "number":
        return value
    return value or None  # an unchosen suit or card, an unticked flag


def error_slot(field: str) -> str:
    """The place on the page for an error of ``field`` (a service's or the engine's field name)."""
    field = FIELD_SLOT.get(field, field)
    return field if field in ERROR_SLOTS else "form"


class GameForm(forms.Form):
    contract = forms.ChoiceField(label=_("Game"), choices=CONTRACTS, required=False)
    called = forms.ChoiceField(label=_("Called Sau"), choices=CALLABLE, required=False)
    trump = forms.ChoiceField(label=_("Trump suit"), choices=Hand.Suit.choices, required=False)
    declarer = forms.TypedChoiceField(label=_("Player"), coerce=int, required=False, empty_value=None)
    partner = forms.TypedChoiceField(label=_("Partner"), coerce=int, required=False, empty_value=None)
    # über Kreuz: one seat of the declaring pair (the page proposes the Vorhand's pair)
    pair = forms.TypedChoiceField(label=_("Declaring pair"), coerce=int, required=False, empty_value=None)
    announce = forms.ChoiceField(label=_("Announced"), choices=ANNOUNCE, required=False)
    won = forms.ChoiceField(label=_("Tout won?"), choices=WON, required=False)
    augen = forms.IntegerField(label=_("Augen"), required=False)
    schwarz = forms.BooleanField(label=_("Schwarz"), required=False)
    laufende = forms.IntegerField(label=_("Laufende"), required=False, min_value=0, max_value=14)
    kontra = forms.TypedChoiceField(label=_("Kontra"), choices=KONTRA, coerce=int, required=False, empty_value=0)
    called_card = forms.ChoiceField(label=_("Called card"), choices=Hand.CalledCard.choices, required=False)
    renonce = forms.BooleanField(label=_("Renonce"), required=False)
    # The game's number as the page showed it; the client id the page made once for this game.
    number = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    client_id = forms.UUIDField(required=False, widget=forms.HiddenInput)
    device = forms.CharField(required=False, max_length=100, widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason for the correction"), required=False, max_length=300)

    def __init__(self, *args: Any, table_size: int = 4, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seats = [(seat, str(seat)) for seat in range(1, table_size + 1)]
        self.fields["declarer"].choices = seats
        self.fields["partner"].choices = seats
        self.fields["pair"].choices = seats

    def record(self) -> dict[str, Any]:
        """The hand record of the chosen contract: the keys of its button's parts (``BUTTONS``), left-out ones stay out."""
        data = self.cleaned_data
        button = BUTTONS.get(data.get("contract") or "")
        if button is None:  # no contract chosen: the rules engine names what is missing
            return {}
        record: dict[str, Any] = {"contract": button.contract, **dict(button.fixed)}
        for part in button.shown(data.get("announce") or ""):
            for key, name in PARTS[part].items():
                record[key] = _entered(key, data.get(name))
        return {key: record[key] for key in HAND_FIELDS if record.get(key) is not None}

    def record_or_errors(self) -> tuple[dict[str, Any] | None, dict[str, str]]:
        """(record, {}) when the buttons parse; else (None, {slot: message})."""
        if self.is_valid():
            return self.record(), {}
        return None, {error_slot(field): " ".join(errors) for field, errors in self.errors.items()}


def initial_from_hand(hand: Hand) -> dict[str, Any]:
    """The form's values for a stored game (a correction opens the same form, prefilled)."""
    contract = MUSS if hand.muss else SIE if hand.sie else hand.contract
    return {
        "contract": contract,
        "called": hand.called or "",
        "trump": hand.trump or "",
        "declarer": hand.declarer,
        "partner": hand.partner,
        "pair": hand.declarer if hand.contract == Hand.Contract.KREUZ else None,
        "announce": "tout" if hand.tout else "",
        "won": "" if hand.won is None else ("1" if hand.won else "0"),
        "augen": hand.augen,
        "schwarz": bool(hand.schwarz),
        "laufende": hand.laufende or 0,
        "kontra": hand.kontra or 0,
        "called_card": hand.called_card or "",
        "renonce": bool(hand.renonce),
        "number": hand.number,
    }


def laufende_buttons(rules: Ruleset) -> list[dict[str, Any]]:
    """The Laufende buttons with the contracts each one is shown for (a run below the minimum counts nothing)."""
    minimum = rules.laufende_min
    buttons = []
    for n in LAUFENDE_BUTTONS:
        shown = [
            c
            for c, low, high in (
                ("rufspiel", minimum.rufspiel, 14),
                ("muss", minimum.rufspiel, 14),
                ("kreuz", minimum.rufspiel, 14),
                ("solo", minimum.solo, 14),
                ("wenz", minimum.wenz, WENZ_MAX_LAUFENDE),
            )
            if low <= n <= high
        ]
        buttons.append({"value": n, "contracts": shown})
    return buttons


class PaperTotalsForm(forms.Form):
    """Paper mode without games: each seat's round total, as the sheet says."""

    reason = forms.CharField(label=_("Reason for the correction"), required=False, max_length=300)

    def __init__(self, *args: Any, seats: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat, name in seats:
            self.fields[f"seat_{seat}"] = forms.IntegerField(
                label=f"{seat} · {name}", min_value=-Table.PAPER_TOTAL_MAX, max_value=Table.PAPER_TOTAL_MAX
            )
        self.seat_numbers = [seat for seat, _ in seats]

    def totals(self) -> dict[str, int]:
        return {str(seat): self.cleaned_data[f"seat_{seat}"] for seat in self.seat_numbers}
