"""The audit log pages: what organisers did, per tournament and per club (organisers only)."""

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .. import access
from ..selectors.audit import audit_for_club, audit_for_tournament, audit_rows

PER_PAGE = 50


def _page(request: HttpRequest, entries):
    page = Paginator(entries, PER_PAGE).get_page(request.GET.get("seite"))
    return page, audit_rows(page.object_list)


@login_required
def tournament_log(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access.tournament_for(request.user, slug, access.ORGANISER)
    page, rows = _page(request, audit_for_tournament(tournament))
    return render(
        request, "console/audit.html", {"tournament": tournament, "club": tournament.club, "page": page, "rows": rows}
    )


@login_required
def club_log(request: HttpRequest, club_id: int) -> HttpResponse:
    club = access.club_for(request.user, club_id, access.ORGANISER)
    page, rows = _page(request, audit_for_club(club))
    return render(request, "console/audit.html", {"club": club, "page": page, "rows": rows, "per_club": True})
