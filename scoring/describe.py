"""A game in words, for the tablet's sheet and the printed score sheet: one home for the game and suit names.

The pure ``scoring.rules.describe.describe_hand`` says what a game was (codes); this module words it
in the active language. ``game_name`` is the sheet's bold label ("Herz-Solo Tout"), ``game_text`` the
full description ("Rufspiel mit der Gras-Sau"), ``game_short`` the printed sheet's narrow column
("Ruf Gras", "Wenz-Tout", "1+3 über Kreuz ×2").
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .rules.describe import HandDescription, describe_hand

#: The four suits by their code: every page, form, model choice and PDF names them from here.
SUIT_NAMES = {
    "eichel": gettext_lazy("Eichel"),
    "gras": gettext_lazy("Gras"),
    "herz": gettext_lazy("Herz"),
    "schellen": gettext_lazy("Schellen"),
}

_RECORD_ATTRIBUTES = (
    "contract",
    "muss",
    "called",
    "trump",
    "tout",
    "sie",
    "renonce",
    "schwarz",
    "kontra",
    "declarer",
    "partner",
    "augen",
    "thrown_in",
)


def describe(game: Any, **overrides: Any) -> HandDescription:
    """The description of a stored game, a sheet row or anything else with a record's attributes."""
    fields = {name: getattr(game, name, None) for name in _RECORD_ATTRIBUTES}
    fields["thrown_in"] = bool(fields["thrown_in"])
    return describe_hand(**{**fields, **overrides})


def suit_name(code: str | None) -> str:
    return str(SUIT_NAMES.get(code or "", ""))


def game_name(d: HandDescription) -> str:
    """The game's label on the sheet: Rufspiel, Muss, Wenz, Kreuz, Sie, Herz-Solo; "Tout" after it."""
    names = {"rufspiel": _("Rufspiel"), "muss": _("Muss"), "wenz": _("Wenz"), "kreuz": _("Kreuz"), "sie": _("Sie")}
    name = names.get(d.game)
    if name is None:
        name = f"{suit_name(d.suit)}-{_('Solo')}" if d.game == "solo" else d.game
    return f"{name} {_('Tout')}" if d.tout else name


def game_text(d: HandDescription) -> str:
    """The game in a sentence: "Rufspiel mit der Gras-Sau", "Muss mit der Eichel-Sau, Renonce", "Herz-Solo Tout"."""
    if d.game == "weiter":
        return _("Strich (all passed)")
    if d.game == "kreuz_replay":
        return _("Strich (Kreuz 60:60)")
    if d.game == "kreuz":
        text = "+".join(str(seat) for seat in d.pair) + " " + _("über Kreuz") if d.pair else _("Kreuz")
    elif d.game in ("rufspiel", "muss") and d.suit:
        text = (_("Muss with the %(suit)s Sau") if d.game == "muss" else _("Rufspiel with the %(suit)s Sau")) % {
            "suit": suit_name(d.suit)
        }
    else:
        text = game_name(d)
    details = [_("Renonce")] if d.renonce else []
    if d.schwarz:
        details.append(_("Schwarz"))
    if d.kontra:
        details.append(_("Kontra and Re") if d.kontra == 2 else _("Kontra"))
    return ", ".join([text, *details])


def game_short(d: HandDescription) -> str:
    """The printed score sheet's contract column: "Ruf Gras", "Muss Gras Ren.", "Wenz-Tout", "Tout Herz", "Sie"."""
    if d.game == "weiter":
        return _("Strich (all passed)")
    if d.game == "kreuz_replay":
        return _("Strich (Kreuz 60:60)")
    suit = suit_name(d.suit)
    if d.game == "kreuz":
        text = "+".join(str(seat) for seat in d.pair) + " " + _("über Kreuz")
    elif d.game in ("rufspiel", "muss"):
        text = f"{_('Muss') if d.game == 'muss' else _('Ruf')} {suit}"
        if d.renonce:
            text += " " + _("Ren.")
    elif d.game == "wenz":
        text = f"{_('Wenz')}-{_('Tout')}" if d.tout else _("Wenz")
    elif d.game in ("solo", "sie"):
        kind = _("Sie") if d.game == "sie" else _("Tout") if d.tout else _("Solo")
        text = f"{kind} {suit}"
    else:
        text = d.game
    if d.schwarz:
        text += " " + _("schw.")
    if d.kontra:
        text += f" \u00d7{d.kontra_factor}"
    return text.strip()
