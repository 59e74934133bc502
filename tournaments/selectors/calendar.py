"""The public calendar (``/kalender/``, its iCal feeds, the clash warning): every upcoming tournament a club
listed, of every active club. One home for what "listed" means: ``listed_tournaments``."""

import dataclasses
import datetime
from dataclasses import dataclass
from urllib.parse import urlencode

from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from schafkopfrennen.formats import euro
from scoring.rules import Ruleset

from ..models import Club, Prize, SignUpOptions, Tournament
from ..postcodes import centroid, haversine_km
from .signup import signup_refusal

CLASH_KM = 10  # the clash warning's radius: another listed tournament this near on the same day


def _all_pass_label(value: str) -> str:
    meta = next(f.metadata for f in dataclasses.fields(Ruleset) if f.name == "all_pass")
    return _(meta["choice_labels"].get(value, value))


def listed_tournaments(*, today: datetime.date | None = None) -> QuerySet[Tournament]:
    """What the calendar shows: listed by its club, the club active, the day not past, not finished."""
    today = today or timezone.localdate()
    return (
        Tournament.objects.filter(listed=True, club__status=Club.Status.ACTIVE, date__gte=today)
        .exclude(status=Tournament.Status.FINISHED)
        .select_related("club")
    )


def tournament_postcode(tournament: Tournament) -> str:
    """Where the tournament is placed: its venue's postcode, else its club's."""
    return tournament.postcode or tournament.club.postcode


def map_url(tournament: Tournament) -> str:
    """An OpenStreetMap link (a URL only; no tiles are loaded): the venue's address searched, else the
    postcode's centroid marked."""
    postcode = tournament_postcode(tournament)
    if tournament.venue:
        return "https://www.openstreetmap.org/search?" + urlencode(
            {"query": ", ".join(p for p in (tournament.venue, postcode, tournament.club.town) if p)}
        )
    point = centroid(postcode)
    if point is None:
        return ""
    lat, lon = point
    return f"https://www.openstreetmap.org/?mlat={lat:.4f}&mlon={lon:.4f}#map=13/{lat:.4f}/{lon:.4f}"


@dataclass(frozen=True)
class CalendarEntry:
    tournament: Tournament
    club: Club
    start_time: datetime.time | None
    postcode: str
    map_url: str
    rounds: int
    games_per_round: int
    all_pass: str
    entry_fee_cents: int
    prizes: tuple[str, ...]
    places_left: int | None  # None: no limit
    signup_open: bool
    distance_km: float | None

    @property
    def starts_at(self) -> datetime.datetime | None:
        if self.start_time is None:
            return None
        return timezone.make_aware(datetime.datetime.combine(self.tournament.date, self.start_time))


def _prize_texts(prizes: list[Prize]) -> tuple[str, ...]:
    texts = []
    for prize in prizes:
        where = _("last place") if prize.place is None else f"{prize.place}."
        what = " + ".join(p for p in (euro(prize.amount_cents) if prize.amount_cents else "", prize.goods) if p)
        texts.append(f"{where} {what}")
    return tuple(texts)


@dataclass(frozen=True)
class CalendarQuery:
    date_from: datetime.date | None = None
    date_to: datetime.date | None = None
    postcode: str = ""  # a prefix ("9", "93") is an area; with km, the full postcode is the centre
    km: int | None = None
    club_id: int | None = None


def calendar_entries(
    query: CalendarQuery = CalendarQuery(), *, today: datetime.date | None = None
) -> list[CalendarEntry]:
    """The listed tournaments the query asks for, by date and start, with what a player needs to decide."""
    qs = listed_tournaments(today=today)
    if query.club_id is not None:
        qs = qs.filter(club_id=query.club_id)
    if query.date_from:
        qs = qs.filter(date__gte=query.date_from)
    if query.date_to:
        qs = qs.filter(date__lte=query.date_to)
    centre = centroid(query.postcode) if query.km and len(query.postcode) == 5 else None
    if query.postcode and centre is None:
        qs = qs.filter(
            Q(postcode__startswith=query.postcode) | Q(postcode="", club__postcode__startswith=query.postcode)
        )
    if query.km and centre is None:
        return []  # a distance around an unknown postcode: nothing is near it
    entries = _entries(qs, centre=centre, km=query.km)
    entries.sort(key=lambda e: (e.tournament.date, e.start_time or datetime.time(0), e.tournament.name))
    return entries


def _entries(
    qs: QuerySet[Tournament], *, centre: tuple[float, float] | None = None, km: int | None = None
) -> list[CalendarEntry]:
    tournaments = list(
        qs.annotate(places_taken=Count("registrations", filter=Q(registrations__withdrawn_after_round__isnull=True)))
    )
    ids = [t.pk for t in tournaments]
    options = {o.tournament_id: o for o in SignUpOptions.objects.filter(tournament_id__in=ids)}
    prizes: dict[int, list[Prize]] = {}
    for prize in Prize.objects.filter(tournament_id__in=ids):
        prizes.setdefault(prize.tournament_id, []).append(prize)
    entries = []
    for t in tournaments:
        postcode = tournament_postcode(t)
        where = centroid(postcode)
        distance = haversine_km(centre, where) if centre and where else None
        if centre is not None and (distance is None or distance > km):
            continue
        opts = options.get(t.pk) or SignUpOptions(tournament=t)
        left = None if opts.capacity is None else max(opts.capacity - t.places_taken, 0)
        rules = t.ruleset
        entries.append(
            CalendarEntry(
                tournament=t,
                club=t.club,
                start_time=opts.start_time,
                postcode=postcode,
                map_url=map_url(t),
                rounds=rules.rounds,
                games_per_round=rules.games_per_round,
                all_pass=_all_pass_label(rules.all_pass),
                entry_fee_cents=t.entry_fee_cents,
                prizes=_prize_texts(prizes.get(t.pk, [])),
                places_left=left,
                signup_open=opts.open and signup_refusal(t, opts) is None,
                distance_km=distance,
            )
        )
    return entries


def calendar_entry(tournament: Tournament) -> CalendarEntry:
    """One tournament's announcement as the calendar shows it (for its share image: any public tournament)."""
    return _entries(Tournament.objects.filter(pk=tournament.pk).select_related("club"))[0]


@dataclass(frozen=True)
class Clash:
    tournament: Tournament
    distance_km: float


def clashes(
    *, date: datetime.date, postcode: str, club: Club, exclude_id: int | None = None, km: float = CLASH_KM
) -> list[Clash]:
    """Other listed tournaments on ``date`` within ``km`` of ``postcode`` (the organiser's warning when he
    creates or moves a tournament). A postcode the list does not know warns of nothing."""
    here = centroid(postcode or club.postcode)
    if here is None:
        return []
    found = []
    others = listed_tournaments(today=date).filter(date=date)
    if exclude_id is not None:
        others = others.exclude(pk=exclude_id)
    for other in others:
        there = centroid(tournament_postcode(other))
        if there is not None and (distance := haversine_km(here, there)) <= km:
            found.append(Clash(other, distance))
    return sorted(found, key=lambda c: c.distance_km)
