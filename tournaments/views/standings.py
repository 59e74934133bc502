"""The standings pages (public, projector), downloads, and the organiser's prize and cash lists."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from schafkopfrennen import forget
from schafkopfrennen.formats import signed
from schafkopfrennen.polling import polled_page, polled_state
from scoring.forms import PrizeFormSet

from .. import access
from ..forms_setup import PrizeCategoryFormSet, PrizePlanForm, cents_to_euro
from ..http import form_status
from ..models import Tournament
from ..params import parse_int
from ..selectors.public import tournament_for_slug
from ..selectors.standings import cash_list, name_with_substitute, prize_list, standings_state, standings_view
from ..selectors.venues import venue_start_numbers
from ..services.errors import ServiceError
from ..services.prizes import (
    prize_categories_set,
    prize_hand_over,
    prize_plan_apply,
    prize_plan_set,
    prizes_set,
    tournament_standings_publish,
)
from ..services.schedule import standings_schedule
from ..share_image import top_ten_png
from ..spreadsheet import csv_writer
from .prize_plan import plan_context


def _visible_tournament(request: HttpRequest, slug: str) -> tuple[Tournament, bool]:
    tournament = tournament_for_slug(slug)
    if tournament is None:
        raise Http404("No such tournament")
    organiser = access.has_role(request.user, tournament, access.ANY_ROLE)
    return tournament, tournament.standings_public or organiser


def _round_param(request: HttpRequest) -> int | None:
    return parse_int(request.GET.get("runde"), min_value=1)


def _number_param(request: HttpRequest, name: str) -> int | None:
    return parse_int(request.GET.get(name), max_value=999_999)


def _venue(request: HttpRequest, tournament: Tournament):
    """``?ort=<id>``: one venue's list of the joint standings (a venue of this tournament, else the whole list)."""
    venue_id = parse_int(request.GET.get("ort"), min_value=1)
    return None if venue_id is None else tournament.venues.filter(pk=venue_id).first()


def _view(request: HttpRequest, tournament: Tournament, **paging):
    # A GET only reads: lagging standings are caught up by the next change, a starting worker, or an
    # organiser's "count again" (refresh, a POST) -- never by a page view.
    state = polled_state(request)  # the poll's read: the snapshot, whether newer games wait
    venue = _venue(request, tournament)
    return standings_view(
        tournament,
        round=_round_param(request),
        query=request.GET.get("q", ""),
        poll=state[2] if state else None,
        start_numbers=venue_start_numbers(venue) if venue else None,
        **paging,
    )


@polled_page(standings_state)
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The top of the list, a search, the viewer's own row (``?ich=<start number>`` from his player
    page) and pages through the rest (``?seite=2``); an unchanged poll is a 304."""
    tournament, visible = _visible_tournament(request, slug)
    if not visible:
        return render(request, "standings/hidden.html", {"tournament": tournament})
    me = _number_param(request, "ich")
    view = _view(request, tournament, paged=True, page=_number_param(request, "seite"), me=me)
    q = request.GET.get("q", "")
    # The list is rendered once per snapshot version for everyone asking the same (a fragment cache);
    # the viewer's own row is rendered apart, so that his phone shares the list with every other.
    # The rows follow from the snapshot's version alone; the status and progress lines above them from
    # the poll's token, which changes more often (every game until its merge, every confirmation).
    rows = "|".join(
        str(part)
        for part in (
            tournament.pk,
            view.version,
            view.computed_at and view.computed_at.timestamp(),
            view.round,
            view.page,
            q.strip().casefold()[:40],
            get_language(),
            forget.generation(),
            request.GET.get("ort", "")[:8],
        )
    )
    key = f"standings-html:{polled_state(request)[0]}|{view.current}|{rows}"
    table_html = cache.get(key)
    if table_html is None:
        context = {"tournament": tournament, "view": view, "q": q, "paged": True}
        rows_html = cache.get("standings-rows:" + rows)
        if rows_html is None:
            rows_html = render_to_string("standings/_rows.html", context, request)
            cache.set("standings-rows:" + rows, rows_html, timeout=600)
        table_html = render_to_string("standings/_table.html", {**context, "rows_html": mark_safe(rows_html)}, request)
        cache.set(key, table_html, timeout=600)
    if view.me:
        table_html = render_to_string("standings/_me.html", {"view": view}, request) + table_html
    if request.htmx:
        return HttpResponse(table_html)
    return render(
        request,
        "standings/page.html",
        {
            "tournament": tournament,
            "view": view,
            "q": q,
            "table_html": table_html,
            "venues": list(tournament.venues.all()),
            "venue": _venue(request, tournament),
            "can_publish": access.has_role(request.user, tournament, access.ORGANISER),
            "can_refresh": not view.current and access.has_role(request.user, tournament, access.DESK),
        },
    )


def projector(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, visible = _visible_tournament(request, slug)
    if not visible:
        return render(request, "standings/hidden.html", {"tournament": tournament})
    context = {"tournament": tournament, "view": _view(request, tournament), "projector": True}
    template = "standings/_table.html" if request.htmx else "standings/projector.html"
    return render(request, template, context)


def download(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    tournament, visible = _visible_tournament(request, slug)
    if not visible:
        return HttpResponse(_("The standings are not published yet."), status=403, content_type="text/plain")
    view = standings_view(tournament, round=_round_param(request))
    name = f"rangliste-{tournament.slug}" + (f"-runde-{view.round}" if view.round else "")
    if fmt == "json":
        response = JsonResponse(
            {
                "tournament": tournament.slug,
                "round": view.round,
                "current": view.current,
                "computed_at": view.computed_at.isoformat() if view.computed_at else None,
                "not_counted_since": view.waiting_since.isoformat() if view.waiting_since else None,
                "standings": [
                    {
                        **{
                            key: row[key]
                            for key in (
                                "rank",
                                "start_number",
                                "name",
                                "club",
                                "points",
                                "won_solos",
                                "lost_solos",
                                "round_points",
                                "note",
                            )
                        },
                        "substitute_for": row.get("substitute_for") or None,
                        "mark": view.short.get(row["start_number"]),
                    }  # fewer games, or left in round r
                    for row in view.rows
                ],
            },
            json_dumps_params={"ensure_ascii": False, "indent": 1},
        )
    else:
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response.write("\ufeff")  # so spreadsheet programs read the umlauts right
        writer = csv_writer(response, delimiter=";")  # a name like "=HYPERLINK(...)" stays text
        if view.stale_note:  # first, where a reader looks: the list is behind, and since when
            writer.writerow([view.stale_note])
        rounds = [f"{_('Round')} {r}" for r in (view.rounds if view.round is None else [view.round])]
        marks = [_("Note")] if view.short else []  # fewer games, or left in round r: a column only when someone has one
        writer.writerow(
            [
                _("Place"),
                _("Start number"),
                _("Name"),
                _("Club"),
                _("Points"),
                _("Won solos"),
                _("Lost solos"),
                *rounds,
                *marks,
            ]
        )
        for row in view.rows:
            writer.writerow(
                [
                    row["rank"],
                    row["start_number"],
                    name_with_substitute(row["name"], row.get("substitute_for") or ""),
                    row["club"],
                    row["points"],
                    row["won_solos"],
                    row["lost_solos"],
                    *row["round_points"],
                    *([view.short.get(row["start_number"], "")] if marks else []),
                ]
            )
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response


@login_required
@require_POST
def refresh(request: HttpRequest, slug: str) -> HttpResponse:
    """Count every game again (standings that lag after an outage): a recompute is sent, the page follows."""
    tournament = access.tournament_for(request.user, slug, access.DESK)
    standings_schedule(tournament.pk)
    messages.success(request, _("The standings are being counted again."))
    return redirect("tournaments:standings", slug=slug)


def top_ten_image(request: HttpRequest, slug: str) -> HttpResponse:
    """The top 10 as a picture (1200 × 630) for the club's group chat; hidden standings (the blackout) show
    nothing to the public, like every other surface."""
    tournament, visible = _visible_tournament(request, slug)
    if not visible:
        return HttpResponse(_("The standings are not published yet."), status=403, content_type="text/plain")
    view = standings_view(tournament)
    heading = _("Final standings") if tournament.status == Tournament.Status.FINISHED else _("Standings")
    png = top_ten_png(
        title=tournament.name,
        heading=f"{heading} · {tournament.club.name}",
        rows=[(f"{row['rank']}.", row["name"], signed(row["points"])) for row in list(view.rows)[:10]],
    )
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = "private, max-age=60" if not tournament.standings_public else "public, max-age=60"
    return response


@login_required
@require_POST
def publish(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access.tournament_for(request.user, slug, access.ORGANISER)
    public = request.POST.get("public") == "1"
    tournament_standings_publish(tournament=tournament, public=public, by=request.user)
    messages.success(request, _("The standings are public now.") if public else _("The standings are hidden now."))
    return redirect("tournaments:standings", slug=slug)


@login_required
def prizes(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access.tournament_for(request.user, slug, access.ANY_ROLE)
    can_edit = access.has_role(request.user, tournament, access.ORGANISER)
    if request.method == "POST" and not can_edit:
        return HttpResponse(status=403)
    prizes_now = prize_list(tournament)
    formset = _prize_formset(prizes_now, request.POST or None)
    if request.method == "POST" and can_edit and formset.is_valid():
        try:
            prizes_set(tournament=tournament, prizes=formset.prizes(), by=request.user)
        except ServiceError as err:
            formset._non_form_errors = formset.error_class([err.message])
        else:
            messages.success(request, _("Prizes saved."))
            return redirect("tournaments:prizes", slug=slug)
    return _render_prizes(request, tournament, prizes_now, formset)


def _prize_formset(prizes_now, data=None) -> PrizeFormSet:
    initial = [
        {
            "last_place": p.place is None,
            "place": p.place,
            "amount_euro": cents_to_euro(p.amount_cents),
            "goods": p.goods,
        }
        for p in prizes_now.prizes
    ]
    return PrizeFormSet(data, initial=initial, prefix="prize")


def _render_prizes(
    request: HttpRequest,
    tournament: Tournament,
    prizes_now,
    formset,
    *,
    handover_error: str = "",
    status: int | None = None,
    plan_form=None,
    category_forms=None,
) -> HttpResponse:
    can_edit = access.has_role(request.user, tournament, access.ORGANISER)
    can_desk = can_edit or access.has_role(request.user, tournament, access.DESK)
    return render(
        request,
        "standings/prizes.html",
        {
            "tournament": tournament,
            "prize_list": prizes_now,
            "formset": formset,
            "can_edit": can_edit,
            "can_print": can_desk,
            "can_hand_over": can_desk,
            "handover_error": handover_error,
            **plan_context(tournament, plan_form, category_forms),
        },
        status=form_status(request, formset) if status is None else status,
    )


def render_prizes(
    request: HttpRequest, tournament: Tournament, *, plan_form=None, category_forms=None, status: int | None = None
):
    """The prize page as it stands, with a refused plan or category form shown again."""
    prizes_now = prize_list(tournament)
    return _render_prizes(
        request,
        tournament,
        prizes_now,
        _prize_formset(prizes_now),
        plan_form=plan_form,
        category_forms=category_forms,
        status=status,
    )


@login_required
@require_POST
def prize_handed_over(request: HttpRequest, slug: str) -> HttpResponse:
    """The desk's tick per winner at the prize-giving (``start_number``, ``handed_over`` 1 or 0)."""
    tournament = access.tournament_for(request.user, slug, access.DESK)
    number = parse_int(request.POST.get("start_number"), min_value=1)
    try:
        if number is None:
            raise ServiceError("start_number", _("Start number: a whole number is needed."))
        prize_hand_over(
            tournament=tournament,
            start_number=number,
            handed_over=request.POST.get("handed_over") == "1",
            by=request.user,
        )
    except ServiceError as err:
        prizes_now = prize_list(tournament)
        return _render_prizes(
            request, tournament, prizes_now, _prize_formset(prizes_now), handover_error=err.message, status=400
        )
    return redirect(reverse("tournaments:prizes", args=[slug]) + f"#award-{number}")


@login_required
def cash(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access.tournament_for(request.user, slug, access.DESK)
    return render(request, "standings/cash.html", {"tournament": tournament, "cash": cash_list(tournament)})


@login_required
@require_POST
def prize_plan_save(request: HttpRequest, slug: str) -> HttpResponse:
    """Save the plan; with ``apply`` also write its prizes as the prize list."""
    tournament = access.tournament_for(request.user, slug, access.ORGANISER)
    form = PrizePlanForm(request.POST, auto_id="plan_%s")
    if form.is_valid():
        try:
            prize_plan_set(tournament=tournament, values=form.values(), by=request.user)
            if "apply" in request.POST:
                prize_plan_apply(tournament=tournament, by=request.user)
        except ServiceError as err:
            field = {"first_cents": "first_euro", "table_bp": "table", "costs_cents": "costs_euro"}.get(
                err.field, err.field
            )
            if field in form.fields:
                form.add_error(field, err.message)
            else:
                form.add_error(None, err.message)
        else:
            messages.success(
                request,
                _("Prize plan applied: the prize list follows it.")
                if "apply" in request.POST
                else _("Prize plan saved."),
            )
            return redirect("tournaments:prizes", slug=slug)
    return render_prizes(request, tournament, plan_form=form, status=400)


@login_required
@require_POST
def prize_categories_save(request: HttpRequest, slug: str) -> HttpResponse:
    """Save the category prizes in the order of the form (the better prize first)."""
    tournament = access.tournament_for(request.user, slug, access.ORGANISER)
    forms = PrizeCategoryFormSet(request.POST, prefix="category")
    if forms.is_valid():
        try:
            prize_categories_set(
                tournament=tournament,
                categories=[c for f in forms if (c := f.category())],
                allow_both=request.POST.get("allow_both") == "1",
                by=request.user,
            )
        except ServiceError as err:
            forms._non_form_errors = forms.error_class([err.message])
        else:
            messages.success(request, _("Category prizes saved."))
            return redirect(reverse("tournaments:prizes", args=[slug]) + "#categories")
    return render_prizes(request, tournament, category_forms=forms, status=400)
