from django import template

from schafkopfrennen import formats

from ..selectors.standings import podium, tie_note, tournament_progress

register = template.Library()
register.filter("tie_note", tie_note)


@register.filter
def euro(cents) -> str:
    """12,50 € (in the active language's number format); −2,50 € with a real minus sign."""
    return formats.euro(cents)


@register.filter
def euro_or_dash(cents) -> str:
    """Like euro, but "–" for nothing: a cash list reads faster without columns of zeros."""
    return "–" if not cents else euro(cents)


@register.filter
def signed(value) -> str:
    """+5 / −3 / 0 with a real minus sign."""
    return formats.signed(value)


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
