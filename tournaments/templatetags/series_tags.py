"""Series in the pages: a result cell, a tie-break note, and the small includes other pages carry
(the public series on the home page, a tournament's statistics and series, the link to a player's history)."""

from django import template
from django.utils.translation import gettext as _

from schafkopfrennen.formats import number

from ..models import Series
from ..selectors.series import series_list

register = template.Library()

TIEBREAK_REASONS = {
    "participations": lambda: _("ahead on more participations"),
    "wins": lambda: _("ahead on more tournament wins"),
    "best_result": lambda: _("ahead on a better best result"),
    "lot": lambda: _("ahead by lot"),
    "shared": lambda: _("shared place"),
}


@register.simple_tag
def series_result(row, tournament):
    """{"text": "25" or "−3", "counted": bool} for a row's result in a tournament, or None if he did not play."""
    value = row.results.get(tournament.slug)
    if value is None:
        return None
    text = number(value)
    return {"text": text, "counted": tournament.slug in row.counted}


@register.filter
def series_tiebreak(reason: str) -> str:
    return TIEBREAK_REASONS.get(reason, lambda: reason)()


@register.inclusion_tag("series/_home_list.html")
def public_series():
    return {"series_list": list(series_list(public_only=True)[:12])}


@register.inclusion_tag("series/_tournament_links.html")
def tournament_series_links(tournament):
    return {
        "tournament": tournament,
        "series_list": list(Series.objects.filter(entries__tournament=tournament, public=True)),
    }
