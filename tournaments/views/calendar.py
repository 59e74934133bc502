"""The public calendar: ``/kalender/`` (filters by date, postcode area, distance), its iCal feeds
(``/kalender.ics``, per club ``/kalender/<club>.ics``) and a tournament's share image (Open Graph)."""

import datetime
import json

import icalendar
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from schafkopfrennen.formats import euro

from ..forms_clubs import CalendarFilterForm
from ..models import Club
from ..selectors.calendar import CalendarEntry, CalendarQuery, calendar_entries, calendar_entry
from ..selectors.public import public_tournaments
from ..share_image import announcement_png

ICS_TYPE = "text/calendar; charset=utf-8"


def _query(form: CalendarFilterForm) -> CalendarQuery:
    if not form.is_valid():
        data = {k: v for k, v in form.cleaned_data.items() if k not in form.errors}
    else:
        data = form.cleaned_data
    return CalendarQuery(
        date_from=data.get("von"), date_to=data.get("bis"), postcode=data.get("plz") or "", km=data.get("km")
    )


def _where(entry: CalendarEntry) -> str:
    return ", ".join(p for p in (entry.tournament.venue, f"{entry.postcode} {entry.club.town}".strip()) if p)


def _event_json_ld(request: HttpRequest, entry: CalendarEntry) -> dict:
    """schema.org ``Event`` for search engines."""
    t = entry.tournament
    event = {
        "@context": "https://schema.org",
        "@type": "Event",
        "name": t.name,
        "startDate": entry.starts_at.isoformat() if entry.starts_at else t.date.isoformat(),
        "eventStatus": "https://schema.org/EventScheduled",
        "eventAttendanceMode": "https://schema.org/OfflineEventAttendanceMode",
        "location": {
            "@type": "Place",
            "name": t.venue or entry.club.town or entry.club.name,
            "address": {
                "@type": "PostalAddress",
                "postalCode": entry.postcode,
                "addressLocality": entry.club.town,
                "addressCountry": "DE",
            },
        },
        "organizer": {"@type": "Organization", "name": entry.club.name},
        "offers": {
            "@type": "Offer",
            "price": f"{t.entry_fee_cents / 100:.2f}",
            "priceCurrency": "EUR",
            "url": request.build_absolute_uri(reverse("tournaments:signup", args=[t.slug])),
            "availability": "https://schema.org/SoldOut" if entry.places_left == 0 else "https://schema.org/InStock",
        },
        "image": request.build_absolute_uri(reverse("tournaments:share_image", args=[t.slug])),
    }
    return event


@require_GET
def calendar(request: HttpRequest) -> HttpResponse:
    form = CalendarFilterForm(request.GET or None)
    entries = calendar_entries(_query(form)) if form.is_bound else calendar_entries()
    json_ld = json.dumps([_event_json_ld(request, e) for e in entries], ensure_ascii=False)
    response = render(
        request,
        "calendar/page.html",
        {
            "form": form,
            "entries": entries,
            "json_ld": json_ld.replace("<", "\\u003c"),  # never closes its script element
            "share_image": request.build_absolute_uri(
                reverse("tournaments:share_image", args=[entries[0].tournament.slug])
            )
            if entries
            else "",
            "feed_url": request.build_absolute_uri(reverse("tournaments:calendar_ics")),
        },
        status=400 if form.is_bound and form.errors else 200,
    )
    return response


def _ics(request: HttpRequest, entries: list[CalendarEntry], name: str) -> HttpResponse:
    cal = icalendar.Calendar()
    cal.add("prodid", "-//Schafkopfrennen//Kalender//DE")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", name)
    host = request.get_host().split(":")[0]
    stamp = timezone.now()
    for entry in entries:
        t = entry.tournament
        event = icalendar.Event()
        event.add("uid", f"turnier-{t.pk}@{host}")
        event.add("dtstamp", stamp)
        event.add("summary", f"{t.name} ({entry.club.name})")
        if entry.starts_at:
            event.add("dtstart", entry.starts_at)
            event.add("duration", datetime.timedelta(hours=5))
        else:
            event.add("dtstart", t.date)
        where = _where(entry)
        if where:
            event.add("location", where)
        lines = [
            _("%(rounds)d rounds × %(games)d games, tables of 4 (5 when needed), when all pass: %(all_pass)s")
            % {"rounds": entry.rounds, "games": entry.games_per_round, "all_pass": entry.all_pass},
            _("Entry fee") + ": " + euro(entry.entry_fee_cents),
        ]
        if entry.prizes:
            lines.append(_("Prizes") + ": " + ", ".join(entry.prizes))
        if entry.map_url:
            lines.append(entry.map_url)
        event.add("description", "\n".join(lines))
        event.add("url", request.build_absolute_uri(reverse("tournaments:signup", args=[t.slug])))
        cal.add_component(event)
    response = HttpResponse(cal.to_ical(), content_type=ICS_TYPE)
    response["Content-Disposition"] = 'inline; filename="kalender.ics"'
    response["Cache-Control"] = "public, max-age=300"
    return response


@require_GET
def calendar_ics(request: HttpRequest) -> HttpResponse:
    return _ics(request, calendar_entries(), _("Schafkopf tournaments"))


@require_GET
def club_calendar_ics(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id, status=Club.Status.ACTIVE)
    return _ics(request, calendar_entries(CalendarQuery(club_id=club.pk)), club.name)


@require_GET
def share_image(request: HttpRequest, slug: str) -> HttpResponse:
    """The announcement as a picture (1200 × 630) for the club's group chat (any public tournament's)."""
    entry = calendar_entry(get_object_or_404(public_tournaments(), slug=slug))
    when = date_format(entry.tournament.date, "l, j. F Y")
    if entry.start_time:
        when += ", " + entry.start_time.strftime("%H:%M")
    png = announcement_png(
        title=entry.tournament.name,
        club=entry.club.name,
        when=when,
        where=_where(entry),
        facts=[
            _("%(rounds)d rounds × %(games)d games") % {"rounds": entry.rounds, "games": entry.games_per_round},
            _("Entry fee") + " " + euro(entry.entry_fee_cents),
        ]
        + ([_("Prizes") + ": " + ", ".join(entry.prizes[:3])] if entry.prizes else []),
    )
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = "public, max-age=600"
    return response
