"""Writes of a series (Saison or Cup): create, change its scoring, add and remove tournaments.

Who may: a club's organisers create and change the club's series (the view checks); a tournament
is added or removed by an organiser of the tournament's own club, so a cup runs across clubs.
"""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Club, Series, SeriesTournament, Tournament
from .audit import audit_record
from .errors import NotFound, ServiceError, StateConflict

SETTINGS = (
    "name",
    "kind",
    "scoring",
    "best",
    "placement_points",
    "per_player_beaten",
    "min_participations",
    "tiebreaks",
    "public",
)


def _full_clean(series: Series) -> None:
    try:
        series.full_clean()
    except ValidationError as err:
        field, messages = next(iter(err.message_dict.items()))
        raise ServiceError(field, messages[0]) from err


def _settings(series: Series) -> dict:
    return {name: getattr(series, name) for name in SETTINGS}


@transaction.atomic
def series_create(*, club: Club, name: str, slug: str, by=None, **settings) -> Series:
    """A new series of ``club``; ``settings`` are Series fields (scoring, best, placement_points ...)."""
    unknown = set(settings) - set(SETTINGS)
    if unknown:
        raise ServiceError(sorted(unknown)[0], _("Not a setting of a series."))
    series = Series(club=club, name=name.strip(), slug=slug, **settings)
    _full_clean(series)
    series.save()
    audit_record(action="series_create", by=by, club=club, subject=series.name, after=_settings(series))
    return series


@transaction.atomic
def series_update(*, series: Series, by=None, **settings) -> Series:
    unknown = set(settings) - set(SETTINGS)
    if unknown:
        raise ServiceError(sorted(unknown)[0], _("Not a setting of a series."))
    series = Series.objects.select_for_update().get(pk=series.pk)
    before = _settings(series)
    for name, value in settings.items():
        setattr(series, name, value)
    _full_clean(series)
    series.save()
    audit_record(
        action="series_update", by=by, club=series.club, subject=series.name, before=before, after=_settings(series)
    )
    return series


@transaction.atomic
def series_tournament_add(*, series: Series, tournament: Tournament, by=None) -> SeriesTournament:
    series = Series.objects.select_for_update().get(pk=series.pk)
    if SeriesTournament.objects.filter(series=series, tournament=tournament).exists():
        raise StateConflict(
            "tournament", _("%(tournament)s is already part of this series.") % {"tournament": tournament.name}
        )
    entry = SeriesTournament.objects.create(
        series=series, tournament=tournament, added_by=by if getattr(by, "is_authenticated", False) else None
    )
    audit_record(
        action="series_tournament_add",
        by=by,
        tournament=tournament,
        subject=series.name,
        after={"series": series.slug, "tournament": tournament.slug},
    )
    return entry


@transaction.atomic
def series_tournament_remove(*, series: Series, tournament: Tournament, by=None) -> None:
    series = Series.objects.select_for_update().get(pk=series.pk)
    deleted, _rows = SeriesTournament.objects.filter(series=series, tournament=tournament).delete()
    if not deleted:
        raise NotFound("tournament", _("%(tournament)s is not part of this series.") % {"tournament": tournament.name})
    audit_record(
        action="series_tournament_remove",
        by=by,
        tournament=tournament,
        subject=series.name,
        before={"series": series.slug, "tournament": tournament.slug},
    )
