"""Series pages: the public standings with statistics and charts, a player's history, the downloads;
the organisers' pages to set a series up and to add their tournaments to it."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from .. import access
from ..charts import bar_chart, line_chart
from ..forms_series import SeriesForm
from ..http import error_status, form_status
from ..models import Player, Registration, Series
from ..params import parse_int
from ..pdf.certificates import render_certificates
from ..pdf.series import render_series, render_statistics
from ..selectors.public import public_tournaments
from ..selectors.series import (
    category_label,
    player_games,
    player_history,
    scoring_text,
    series_certificates_data,
    series_csv,
    series_document,
    series_pdf_data,
    series_standings,
    series_statistics,
    statistics_facts,
    tournament_statistics,
    tournament_statistics_pdf_data,
)
from ..services.errors import ServiceError
from ..services.series import series_create, series_tournament_add, series_tournament_remove, series_update
from .printing import _pdf


def _is_member(user, series: Series, roles=access.ANY_ROLE) -> bool:
    return access.clubs_for(user, roles).filter(pk=series.club_id).exists()


def _visible_series(request: HttpRequest, slug: str) -> Series:
    """The series, if the public may see it or the user has a role in its club; else 404."""
    series = get_object_or_404(Series.objects.select_related("club"), slug=slug)
    if not series.public and not _is_member(request.user, series):
        raise Http404("No such series")
    return series


def _charts(stats, *, steps_label: str) -> dict:
    progression = (
        line_chart(
            title=_("Standings progression"),
            x_label=steps_label,
            y_label=_("Points"),
            steps=stats.steps,
            lines=stats.progression,
            testid="progression-chart",
        )
        if stats.progression
        else ""
    )
    mix = (
        bar_chart(
            title=_("Contract mix"),
            bars=[(category_label(m.category), m.games) for m in stats.games.mix],
            testid="mix-chart",
        )
        if stats.games.mix
        else ""
    )
    players = [
        (name, games, [(category_label(s.category), s.games, s.won) for s in games.by_category])
        for name, games in stats.player_rows
    ]
    return {
        "progression_chart": progression,
        "mix_chart": mix,
        "facts": statistics_facts(stats),
        "player_stats": players,
    }


def series_page(request: HttpRequest, series: str) -> HttpResponse:
    obj = _visible_series(request, series)
    data = series_standings(obj)
    stats = series_statistics(data)
    context = {
        "series": obj,
        "data": data,
        "scoring": scoring_text(obj),
        "numbers": list(enumerate(data.played, start=1)),
        "organiser": _is_member(request.user, obj, access.ORGANISER),
        **_charts(stats, steps_label=_("Tournament")),
    }
    return render(request, "series/page.html", context)


def series_download(request: HttpRequest, series: str, fmt: str) -> HttpResponse:
    obj = _visible_series(request, series)
    data = series_standings(obj)
    name = f"wertung-{obj.slug}"
    if fmt == "pdf":
        return _pdf(render_series(series_pdf_data(data)), f"{name}.pdf")
    if fmt == "json":
        response = JsonResponse(series_document(data), json_dumps_params={"ensure_ascii": False, "indent": 1})
    else:
        response = HttpResponse("\ufeff" + series_csv(data), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response


def series_player(request: HttpRequest, series: str, player_id: int) -> HttpResponse:
    """A player's history within the series: every tournament of it he played."""
    obj = _visible_series(request, series)
    player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
    tournaments = [e.tournament for e in obj.entries.select_related("tournament__club")]
    history = player_history(player, tournaments=tournaments, public=True)
    if not history.rows:
        raise Http404("The player played no tournament of this series")
    data = series_standings(obj)
    row = next((r for r in data.all_rows if r.player_id == player.pk), None)
    return render(
        request,
        "series/player.html",
        {"series": obj, "player": player, "history": history, "row": row, **_player_context(player, history)},
    )


def _player_context(player: Player, history) -> dict:
    stats = player_games(player, history)
    points = [r.points or 0 for r in reversed(history.rows) if r.place is not None]
    chart = (
        line_chart(
            title=_("Points per tournament"),
            x_label=_("Tournament"),
            y_label=_("Points"),
            steps=[r.tournament.name for r in reversed(history.rows) if r.place is not None],
            lines=[(player.name, points)],
            testid="history-chart",
        )
        if points
        else ""
    )
    return {"history_chart": chart, "player_games": stats}


def player_history_page(request: HttpRequest, player_key: str) -> HttpResponse:
    """The player's whole history, opened with his personal key (from his private page)."""
    registration = get_object_or_404(Registration.objects.select_related("player__club", "tournament"), key=player_key)
    player = registration.player
    history = player_history(player, public=True)
    return render(
        request,
        "series/player.html",
        {
            "series": None,
            "player": player,
            "history": history,
            "registration": registration,
            "row": None,
            **_player_context(player, history),
        },
    )


def tournament_statistics_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(public_tournaments(), slug=slug)
    if not tournament.standings_public and not access.has_role(request.user, tournament, access.ANY_ROLE):
        return render(request, "standings/hidden.html", {"tournament": tournament})
    stats = tournament_statistics(tournament)
    return render(
        request,
        "series/tournament_statistics.html",
        {"tournament": tournament, **_charts(stats, steps_label=_("Round"))},
    )


def tournament_statistics_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """The statistics page as a PDF with ReportLab's charts; standings not published: the club only."""
    tournament = get_object_or_404(public_tournaments(), slug=slug)
    if not tournament.standings_public and not access.has_role(request.user, tournament, access.ANY_ROLE):
        raise PermissionDenied
    data = tournament_statistics_pdf_data(tournament, tournament_statistics(tournament))
    return _pdf(render_statistics(data), f"statistik-{tournament.slug}.pdf")


# --- organisers ------------------------------------------------------------------------------------


@login_required
def series_manage_list(request: HttpRequest) -> HttpResponse:
    """The series of the user's clubs (and those he added a tournament to); a new one."""
    clubs = access.clubs_for(request.user, access.ORGANISER)
    if not clubs.exists():
        raise PermissionDenied
    form = SeriesForm(request.POST or None, clubs=clubs, initial={"club": clubs.first()})
    if request.method == "POST" and form.is_valid():
        try:
            created = series_create(by=request.user, **form.service_kwargs())
        except ServiceError as err:
            form.add_error(err.field if err.field in form.fields else None, err.message)
        else:
            messages.success(request, _("Series created. Now add its tournaments."))
            return redirect("tournaments:series_manage", series=created.slug)
    own = Series.objects.filter(club__in=clubs).select_related("club")
    return render(
        request, "series/manage_list.html", {"form": form, "series_list": own}, status=form_status(request, form)
    )


@login_required
def series_manage(request: HttpRequest, series: str) -> HttpResponse:
    """Settings (the owning club's organisers) and tournaments (each added by its own club's organisers).

    Another club's series is open only when it is public (a cup across clubs); a private one is a 404."""
    obj = _visible_series(request, series)
    owner = _is_member(request.user, obj, access.ORGANISER)
    mine = access.tournaments_for(request.user, access.ORGANISER)
    if not owner and not mine.exists():
        raise PermissionDenied
    form = SeriesForm(request.POST or None, instance=obj) if owner else None
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action in ("add", "remove"):
            # a club adds and removes its own tournaments; the owning club may also take out another's
            pk = parse_int(request.POST.get("tournament")) or 0
            tournament = mine.filter(pk=pk).first()
            if tournament is None and action == "remove" and owner:
                tournament = obj.tournaments.filter(pk=pk).first()
            if tournament is None:
                messages.error(request, _("Choose one of your club's tournaments."))
                return render(request, "series/manage.html", _manage_context(obj, owner, form, mine), status=400)
            try:
                if action == "add":
                    series_tournament_add(series=obj, tournament=tournament, by=request.user)
                else:
                    series_tournament_remove(series=obj, tournament=tournament, by=request.user)
            except ServiceError as err:
                messages.error(request, err.message)
                return render(
                    request, "series/manage.html", _manage_context(obj, owner, form, mine), status=error_status(err)
                )
            return redirect("tournaments:series_manage", series=obj.slug)
        if action != "settings":
            return HttpResponse(
                _("action: add, remove or settings is needed."), status=400, content_type="text/plain; charset=utf-8"
            )
        if not owner:
            raise PermissionDenied
        if form.is_valid():
            try:
                series_update(series=obj, by=request.user, **form.service_kwargs(update=True))
            except ServiceError as err:
                form.add_error(err.field if err.field in form.fields else None, err.message)
            else:
                messages.success(request, _("Series saved."))
                return redirect("tournaments:series_manage", series=obj.slug)
        return render(request, "series/manage.html", _manage_context(obj, owner, form, mine), status=400)
    return render(request, "series/manage.html", _manage_context(obj, owner, form, mine))


def _manage_context(series: Series, owner: bool, form, mine) -> dict:
    entries = list(series.entries.select_related("tournament__club").order_by("tournament__date"))
    mine_ids = set(mine.values_list("pk", flat=True))
    included = {e.tournament_id for e in entries}
    if owner:  # the owning club may take any tournament out of its series
        mine_ids |= included
    return {
        "series": series,
        "owner": owner,
        "form": form,
        "entries": entries,
        "mine_ids": mine_ids,
        "addable": [t for t in mine.order_by("-date") if t.pk not in included],
    }


@login_required
def series_certificates(request: HttpRequest, series: str) -> HttpResponse:
    obj = get_object_or_404(Series.objects.select_related("club"), slug=series)
    if not _is_member(request.user, obj, access.DESK):
        raise Http404("No such series")
    places = parse_int(request.GET.get("plaetze", "3"), min_value=1, max_value=50)
    if places is None:
        return HttpResponse(
            _("plaetze: a number of places from 1 to %(max)d is needed.") % {"max": 50},
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    data = series_certificates_data(series_standings(obj), places=places)
    return _pdf(render_certificates(data), f"urkunden-{obj.slug}.pdf")
