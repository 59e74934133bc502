"""The organiser console: the dashboard, tournament setup and rules, the club's player database."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from scoring.rules import ruleset_from_dict
from scoring.rules.examples import worked_examples

from .. import access
from ..forms import SearchForm
from ..forms_setup import (
    ClubForm,
    CopyForm,
    CsvImportForm,
    MergeForm,
    PlayerForm,
    RulesForm,
    TournamentDetailsForm,
    TournamentForm,
    cents_to_euro,
    euro_to_cents,
)
from ..http import error_status, form_status
from ..models import Player, Tournament
from ..selectors.calendar import CLASH_KM, clashes, tournament_postcode
from ..selectors.console import (
    QUIET_MINUTES,
    field_ready,
    tournament_finishable,
    tournament_panels,
    unpaid_registrations,
)
from ..selectors.venues import current_round, venue_progress
from ..services.errors import ServiceError
from ..services.players import club_update, player_update, players_import_csv, players_merge
from ..services.tournament import rules_locked, tournament_copy, tournament_create, tournament_finish, tournament_update

# Lazy: the labels are read when a page renders, in its language (not once at import).
EXAMPLE_LABELS = {
    "rufspiel_won": gettext_lazy("won Rufspiel"),
    "rufspiel_schneider_3_laufende": gettext_lazy("Rufspiel won Schneider, 3 Laufende"),
    "solo_won_3_laufende_schneider": gettext_lazy("won solo with 3 Laufende, Schneider"),
    "wenz_won_2_laufende": gettext_lazy("won Wenz with 2 Laufende"),
    "solo_lost": gettext_lazy("lost solo"),
    "solo_tout_won_4_laufende": gettext_lazy("won Solo-Tout with 4 Laufende"),
    "kreuz_won": gettext_lazy("Kreuz 1+3 won with 72"),
    "kreuz_60_60": gettext_lazy("Kreuz 1+3 with 60:60"),
}


def _service_error(form, err: ServiceError) -> None:
    form.add_error(err.field if err.field in form.fields else None, err.message)


@login_required
def control(request: HttpRequest, slug: str, *, error: str = "", status: int = 200) -> HttpResponse:
    """The screen for the night: every round's state and next action, every table at a glance."""
    tournament = access.tournament_for(request.user, slug, access.ANY_ROLE)
    panels, can_draw = tournament_panels(tournament)
    context = {
        "tournament": tournament,
        "panels": panels,
        "can_draw": can_draw,
        "organiser": access.has_role(request.user, tournament, access.ORGANISER),
        # the printed documents are for the organisers and the desk (tournaments/views/printing.py)
        "can_print": access.has_role(request.user, tournament, access.DESK),
        "quiet_minutes": QUIET_MINUTES,
        "unpaid": unpaid_registrations(tournament) if can_draw else [],
        "field_ready": field_ready(tournament) if can_draw else True,
        "can_finish": tournament_finishable(tournament),
        "finish_error": error,
        "venue_progress": venue_progress(tournament),
        "venue_round": current_round(tournament),
    }
    template = "console/_panels.html" if request.htmx else "console/control.html"
    return render(request, template, context, status=status)


@login_required
@require_POST
def finish(request: HttpRequest, slug: str) -> HttpResponse:
    """ "Turnier beenden": after the last round, the standings final and the evening closed."""
    tournament = access.tournament_for(request.user, slug, access.ORGANISER)
    try:
        tournament_finish(tournament=tournament, by=request.user)
    except ServiceError as err:
        return control(request, slug, error=err.message, status=error_status(err))
    messages.success(request, _("The tournament is finished: the standings are final."))
    return redirect("tournaments:control", slug=slug)


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    clubs = access.clubs_for(request.user, access.ORGANISER)
    if not clubs.exists():
        raise PermissionDenied
    form = TournamentForm(request.POST or None, clubs=clubs, initial={"club": clubs.first()})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = tournament_create(
                club=data["club"],
                name=data["name"],
                slug=data["slug"],
                date=data["date"],
                venue=data["venue"],
                postcode=data["postcode"],
                listed=data["listed"],
                entry_fee_cents=euro_to_cents(data["entry_fee"]),
                payout_percent=data["payout_percent"],
                preset=data["preset"],
            )
        except ServiceError as err:
            _service_error(form, err)
        else:
            messages.success(request, _("Tournament created. Check the rules, then register the players."))
            return redirect("tournaments:settings", slug=tournament.slug)
    return render(request, "console/tournament_new.html", {"form": form}, status=form_status(request, form))


def _examples(rules: dict) -> list[tuple[str, tuple[int, ...] | None]]:
    return [(EXAMPLE_LABELS[e.code], e.points) for e in worked_examples(ruleset_from_dict(rules))]


@login_required
def tournament_settings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access.tournament_for(request.user, slug, access.ORGANISER)
    locked = rules_locked(tournament)
    details = TournamentDetailsForm(
        request.POST if "details" in request.POST else None,
        initial={
            "name": tournament.name,
            "date": tournament.date,
            "venue": tournament.venue,
            "postcode": tournament.postcode,
            "listed": tournament.listed,
            "entry_fee": cents_to_euro(tournament.entry_fee_cents),
            "payout_percent": tournament.payout_percent,
            "sponsored": cents_to_euro(tournament.sponsored_cents),
            "blackout_last_round": tournament.blackout_last_round,
        },
    )
    rules_form = RulesForm(
        request.POST if "rules" in request.POST else None, initial=RulesForm.initial_from(tournament.rules)
    )
    if "details" in request.POST and details.is_valid():
        data = details.cleaned_data
        try:
            tournament_update(
                tournament=tournament,
                by=request.user,
                name=data["name"],
                date=data["date"],
                venue=data["venue"],
                postcode=data["postcode"],
                listed=data["listed"],
                blackout_last_round=data["blackout_last_round"],
                entry_fee_cents=euro_to_cents(data["entry_fee"]),
                payout_percent=data["payout_percent"],
                sponsored_cents=euro_to_cents(data["sponsored"]),
            )
        except ServiceError as err:
            _service_error(details, err)
        else:
            messages.success(request, _("Saved."))
            return redirect("tournaments:settings", slug=slug)
    if "rules" in request.POST and rules_form.is_valid():
        try:
            tournament_update(tournament=tournament, rules=rules_form.rules, by=request.user)
        except ServiceError as err:
            rules_form.add_error(None, err.message)
        else:
            messages.success(request, _("Rules saved."))
            return redirect("tournaments:settings", slug=slug)
    return render(
        request,
        "console/settings.html",
        {
            "tournament": tournament,
            "details": details,
            "rules_form": rules_form,
            "locked": locked,
            "clashes": clashes(
                date=tournament.date,
                postcode=tournament_postcode(tournament),
                club=tournament.club,
                exclude_id=tournament.pk,
            )
            if tournament.status == Tournament.Status.PLANNED
            else [],
            "clash_km": CLASH_KM,
            "examples": _examples(tournament.rules),
            "copy_form": CopyForm(
                initial={
                    "name": tournament.name,
                    "date": tournament.date.replace(year=tournament.date.year + 1),
                    "slug": f"{tournament.slug}-{tournament.date.year + 1}",
                }
            ),
        },
        status=form_status(request, details, rules_form),
    )


@login_required
def rules_examples(request: HttpRequest, slug: str) -> HttpResponse:
    """htmx: the worked examples for the rules as they stand in the form (not saved)."""
    access.tournament_for(request.user, slug, access.ORGANISER)
    form = RulesForm(request.POST)
    if not form.is_valid():
        return render(request, "console/_examples.html", {"errors": form.errors})
    return render(request, "console/_examples.html", {"examples": _examples(form.rules)})


@login_required
def tournament_copy_view(request: HttpRequest, slug: str) -> HttpResponse:
    source = access.tournament_for(request.user, slug, access.ORGANISER)
    form = CopyForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            copy = tournament_copy(source=source, **form.cleaned_data)
        except ServiceError as err:
            _service_error(form, err)
        else:
            messages.success(request, _("Copied: same rules, fee, venue and prizes; no players yet."))
            return redirect("tournaments:settings", slug=copy.slug)
    return render(request, "console/copy.html", {"tournament": source, "form": form}, status=form_status(request, form))


def _club_page(request: HttpRequest, club, **forms) -> HttpResponse:
    """The club's page: its players (searched, 50 a page) and, for its organisers, a form each for the
    club's details, a CSV import and merging two records. ``forms``: a form posted with an error."""
    can_edit = access.clubs_for(request.user, access.DESK).filter(pk=club.pk).exists()  # a player's details
    can_manage = access.clubs_for(request.user, access.ORGANISER).filter(pk=club.pk).exists()  # import, merge, club
    players = Player.objects.filter(club=club).order_by("last_name", "first_name")
    search = SearchForm(request.GET)  # (a NUL, which PostgreSQL refuses, is no search)
    q = search.cleaned_data["q"].strip() if search.is_valid() else ""
    if q:
        players = players.filter(Q(last_name__icontains=q) | Q(first_name__icontains=q))
    page = Paginator(players, 50).get_page(request.GET.get("seite"))
    context = {
        "club": club,
        "page": page,
        "q": q,
        "can_edit": can_edit,
        "can_manage": can_manage,
        "club_form": forms.get("club_form") or ClubForm(instance=club),
        "imports": forms.get("imports") or CsvImportForm(),
        "merge": forms.get("merge") or MergeForm(players=Player.objects.filter(club=club)),
    }
    template = "console/_players.html" if request.htmx else "console/club.html"
    return render(request, template, context, status=form_status(request, *forms.values()))


def _managed_club(request: HttpRequest, club_id: int):
    """The club, for its organisers (a viewer or the desk sees the page, but changes nothing)."""
    club = access.club_for(request.user, club_id)
    if not access.clubs_for(request.user, access.ORGANISER).filter(pk=club.pk).exists():
        raise PermissionDenied
    return club


@login_required
@require_GET
def club(request: HttpRequest, club_id: int) -> HttpResponse:
    return _club_page(request, access.club_for(request.user, club_id))


@login_required
@require_POST
def club_details(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's name, town and logo."""
    club = _managed_club(request, club_id)
    form = ClubForm(request.POST, request.FILES, instance=club)
    if form.is_valid():
        data = form.cleaned_data
        try:
            club_update(
                club=club,
                name=data["name"],
                town=data["town"],
                logo=data["logo"],
                postcode=data["postcode"],
                account_holder=data["account_holder"],
                iban=data["iban"],
            )
        except ServiceError as err:
            _service_error(form, err)
        else:
            messages.success(request, _("Saved."))
            return redirect("tournaments:club", club_id=club.pk)
    return _club_page(request, club, club_form=form)


@login_required
@require_POST
def club_import(request: HttpRequest, club_id: int) -> HttpResponse:
    """Players from a CSV file (first name, last name; known ones are kept)."""
    club = _managed_club(request, club_id)
    form = CsvImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            created, known = players_import_csv(club=club, text=form.cleaned_data["file"])
        except ServiceError as err:
            form.add_error("file", err.message)
        else:
            messages.success(
                request,
                _("%(created)d players imported, %(known)d were known already.") % {"created": created, "known": known},
            )
            return redirect("tournaments:club", club_id=club.pk)
    return _club_page(request, club, imports=form)


@login_required
@require_POST
def club_merge(request: HttpRequest, club_id: int) -> HttpResponse:
    """Two records of the same person become one (his registrations move to the one kept)."""
    club = _managed_club(request, club_id)
    form = MergeForm(request.POST, players=Player.objects.filter(club=club))
    if form.is_valid():
        try:
            kept = players_merge(keep=form.cleaned_data["keep"], remove=form.cleaned_data["remove"], club=club)
        except ServiceError as err:
            _service_error(form, err)
        else:
            messages.success(request, _("Merged into %(name)s.") % {"name": kept.name})
            return redirect("tournaments:club", club_id=club.pk)
    return _club_page(request, club, merge=form)


@login_required
def player_edit(request: HttpRequest, player_id: int) -> HttpResponse:
    clubs = access.clubs_for(request.user, access.DESK)
    player = Player.objects.filter(pk=player_id, club__in=clubs).first()
    if player is None:
        raise Http404
    form = PlayerForm(request.POST or None, instance=player)
    form.fields["club"].queryset = clubs
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            player_update(
                player=player,
                first_name=data["first_name"],
                last_name=data["last_name"],
                club=data["club"],
                contact=data["contact"],
            )
        except ServiceError as err:
            _service_error(form, err)
        else:
            messages.success(request, _("Saved."))
            return redirect("tournaments:club", club_id=player.club_id)
    return render(
        request,
        "console/player_edit.html",
        {
            "player": player,
            "form": form,
            # personal data (export, anonymise): organisers of the player's club (tournaments/views/personal.py)
            "can_manage": access.clubs_for(request.user, access.ORGANISER).filter(pk=player.club_id).exists(),
        },
        status=form_status(request, form),
    )
