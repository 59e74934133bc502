import orjson
from django import template
from django.template.loader import render_to_string
from django.utils.translation import get_language

from schafkopfrennen import forget, formats

from ..selectors.standings import lot_tie_text, podium, tie_note, tournament_progress

register = template.Library()
register.filter("tie_note", tie_note)
register.simple_tag(lot_tie_text, name="lot_tie_text")
register.filter("euro", formats.euro)  # 12,50 € in the active language's format; −2,50 € with a real minus sign
register.filter("signed", formats.signed)  # +5 / −3 / 0 with a real minus sign


@register.filter
def euro_or_dash(cents) -> str:
    """Like euro, but "–" for nothing: a cash list reads faster without columns of zeros."""
    return "–" if not cents else formats.euro(cents)


# One rendered row of the standings list per what it shows, per process (``standings_row``).
_ROWS: dict[tuple, str] = {}
_ROWS_KEPT = 20_000
forget.keeps(_ROWS.clear)  # rendered names: an erase empties it


@register.simple_tag
def standings_row(row: dict, projector: bool = False, round: int | None = None, short: dict | None = None) -> str:
    """One row of the standings list (``standings/_row.html``), rendered once per process for its content,
    the columns shown and the language.

    A merge moves the players of a table or two; every other row of a page (or of the projector's
    whole list) reads as before, and rendering them again was most of the CPU of a standings poll
    during play (each poll then meets a new snapshot).
    """
    fewer = (short or {}).get(row["start_number"], "")  # fewer games than the round's: why (rules.md section 2)
    key = (orjson.dumps(row), bool(projector), round is None, get_language(), fewer)
    html = _ROWS.get(key)
    if html is None:
        if len(_ROWS) >= _ROWS_KEPT:
            _ROWS.clear()
        html = _ROWS[key] = render_to_string(
            "standings/_row.html", {"row": row, "projector": projector, "overall": round is None, "short": fewer}
        )
    return html


@register.inclusion_tag("standings/_progress.html")
def standings_progress(tournament, projector: bool = False) -> dict:
    """ "Vorläufig · Runde 2 läuft · 6 von 8 Tischen fertig" (or "Endstand"): the standings page and the projector."""
    return {"progress": tournament_progress(tournament), "projector": projector}


@register.inclusion_tag("public/_podium.html")
def tournament_podium(tournament) -> dict:
    """The winners on the public tournament page once the last round is closed and the standings are public."""
    finished = tournament.status == "finished" and tournament.standings_public
    return {"tournament": tournament, "steps": podium(tournament) if finished else []}


@register.filter
def minus(value) -> str:
    """−3 with a real minus sign, positive numbers as they are (running totals, seat totals)."""
    return formats.number(value if value is None or value == "" else int(value))
