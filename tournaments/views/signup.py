"""The online sign-up: the public form (t/<slug>/anmelden/), the player's confirmation under his personal link
(anmeldung/<key>/: start number, QR code, withdraw, consent), the rules PDF; for the club: the options, the
list of sign-ups with the returning players to confirm, and next year's invitations (CSV)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from schafkopfrennen.formats import euro, signed
from scoring.rules import ruleset_from_dict
from scoring.rules.examples import worked_examples

from .. import access
from ..forms_setup import RulesForm
from ..forms_signup import MatchForm, SignUpForm, SignUpOptionsForm
from ..http import error_status
from ..models import SignUp, Tournament
from ..pdf.rules_sheet import RulesSheet, render_rules_sheet
from ..qr import epc_qr_svg, qr_svg
from ..ratelimit import signup_allowed
from ..rules_text import night_rules
from ..selectors import signup as signup_selectors
from ..selectors.desk import club_names
from ..selectors.payments import payment_details
from ..selectors.public import public_tournaments
from ..selectors.signup import DEFAULT_CONSENT, signup_options_for
from ..services.errors import ServiceError
from ..services.signups import (
    signup_consent_withdraw,
    signup_create,
    signup_match_resolve,
    signup_options_update,
    signup_withdraw,
)
from ..spreadsheet import csv_writer
from .console import EXAMPLE_LABELS


def _url_base(request: HttpRequest) -> str:
    return request.build_absolute_uri("/")


def _public_tournament(slug: str) -> Tournament:
    return get_object_or_404(public_tournaments(), slug=slug)


# --- the public form ------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _public_tournament(slug)
    state = signup_selectors.signup_form_state(tournament)
    if not state.options.open:
        raise Http404("The online sign-up is not open")
    status, error = 200, ""
    form = SignUpForm(request.POST or None, initial=None)
    if request.method == "POST":
        allowed, wait = signup_allowed(request)
        if not allowed:
            error = _(
                "Too many sign-ups from your address in a short time: please wait %(seconds)d seconds and send "
                "the form again."
            ) % {"seconds": wait}
            status = 429
        elif state.refusal:
            error, status = state.refusal, 409
        elif form.is_valid():
            data = form.cleaned_data
            try:
                entry = signup_create(
                    tournament=tournament,
                    first_name=data["first_name"],
                    last_name=data["last_name"],
                    club_name=data["club_name"],
                    email=data["email"],
                    phone=data["phone"],
                    consent=data["consent"],
                    language=get_language() or "",
                    url_base=_url_base(request),
                    another_person=data["another_person"],
                )
            except ServiceError as err:
                if err.field in ("tournament",):
                    error = err.message
                else:
                    form.add_service_error(err)
                status = error_status(err)
            else:
                return redirect("tournaments:signup_page", key=entry.key)
        else:
            status = 400
    response = render(
        request,
        "signup/form.html",
        {
            "tournament": tournament,
            "state": state,
            "form": form,
            "error": error,
            "club_names": club_names(),
            "spam": form.is_bound and form.errors and form.is_spam,
        },
        status=status,
    )
    if status == 429:
        response["Retry-After"] = str(wait)
    return response


# --- the player's own confirmation (his personal key) ---------------------------------------------------


def _signup_or_404(key: str) -> SignUp:
    entry = signup_selectors.signup_for_key(key)
    if entry is None:
        raise Http404("No such sign-up")
    return entry


@never_cache
@require_GET
def signup_page(request: HttpRequest, key: str) -> HttpResponse:
    entry = _signup_or_404(key)
    page = signup_selectors.signup_page_data(entry)
    return render(
        request,
        "signup/page.html",
        {
            "page": page,
            "tournament": page.tournament,
            "signup": entry,
            "payment": payment_details(entry),
            "personal_url": request.build_absolute_uri(reverse("tournaments:signup_page", args=[key])),
            "player_url": reverse("tournaments:player", args=[key]) if page.start_number else "",
        },
    )


@require_GET
def signup_qr(request: HttpRequest, key: str) -> HttpResponse:
    """The QR code the desk scans: the personal link itself."""
    entry = _signup_or_404(key)
    link = request.build_absolute_uri(reverse("tournaments:signup_page", args=[entry.key]))
    response = HttpResponse(qr_svg(link), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=3600"
    return response


@require_GET
def signup_girocode(request: HttpRequest, key: str) -> HttpResponse:
    """The GiroCode (EPC-QR) of the entry fee: the player's banking app fills in the transfer from it."""
    details = payment_details(_signup_or_404(key))
    if details is None:
        raise Http404("Nothing to pay by transfer")
    response = HttpResponse(
        epc_qr_svg(
            name=details["name"],
            iban=details["iban"],
            amount_cents=details["amount_cents"],
            reference=details["reference"],
        ),
        content_type="image/svg+xml",
    )
    response["Cache-Control"] = "private, no-store"
    return response


@require_POST
def signup_withdraw_view(request: HttpRequest, key: str) -> HttpResponse:
    entry = _signup_or_404(key)
    try:
        signup_withdraw(signup=entry, url_base=_url_base(request))
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("You have withdrawn. Thank you for telling us."))
    return redirect("tournaments:signup_page", key=key)


@require_POST
def signup_consent_view(request: HttpRequest, key: str) -> HttpResponse:
    entry = _signup_or_404(key)
    try:
        signup_consent_withdraw(signup=entry)
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("Your consent is withdrawn and your contact details are deleted."))
    return redirect("tournaments:signup_page", key=key)


# --- the rules as PDF (public, like the tournament's page) ----------------------------------------------


def _rule_value(field, value) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None or value == "":
        return "–"
    choices = dict(getattr(field, "choices", []) or [])
    return str(choices.get(value, choices.get(str(value), value)))


def rules_sheet_data(tournament: Tournament) -> RulesSheet:
    options = signup_options_for(tournament)
    initial = RulesForm.initial_from(tournament.rules)
    # A setting that does not apply under this ruleset is left out (no Kreuz rule when all-pass is a Muss).
    needs = {
        "kreuz_tie": initial["all_pass"] == "kreuz",
        "muss_win": initial["all_pass"] == "muss",
        "tout_factor": initial["tout_allowed"],
        "sie_factor": initial["sie_allowed"],
    }
    rules = tuple(
        (str(field.label), _rule_value(field, initial[name]))
        for name, field in RulesForm.base_fields.items()
        if needs.get(name, True)
    )
    examples = tuple(
        (
            str(EXAMPLE_LABELS[e.code]),
            signed(e.points[0]) if e.points else _("not allowed"),
            signed(e.points[3]) if e.points else "",
        )
        for e in worked_examples(ruleset_from_dict(tournament.rules))
    )
    when = date_format(tournament.date, "l, j. F Y")
    if options.start_time:
        when += ", " + date_format(options.start_time, "TIME_FORMAT")
    return RulesSheet(
        tournament=tournament.name,
        club=tournament.club.name,
        when=when,
        venue=tournament.venue,
        entry_fee=euro(tournament.entry_fee_cents),
        rules=rules,
        examples=examples,
        night=night_rules(tournament.ruleset),
    )


@require_GET
def rules_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _public_tournament(slug)
    response = HttpResponse(render_rules_sheet(rules_sheet_data(tournament)), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="regeln-{slug}.pdf"'
    return response


# --- the club's side: options, the list of sign-ups, returning players, invitations --------------------


@login_required
@require_http_methods(["GET", "POST"])
def signup_options(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access.tournament_for(request.user, slug, access.ORGANISER)
    options = signup_options_for(tournament)
    form = SignUpOptionsForm(
        request.POST or None,
        initial={
            "open": options.open,
            "closes_at": options.closes_at and timezone.localtime(options.closes_at),
            "capacity": options.capacity,
            "waiting_list": options.waiting_list,
            "start_time": options.start_time,
            "consent_text": options.consent_text,
            "pay_until": options.pay_until and timezone.localtime(options.pay_until),
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            signup_options_update(tournament=tournament, by=request.user, **form.cleaned_data)
        except ServiceError as err:
            form.add_error(None, err.message)
        else:
            messages.success(request, _("Saved."))
            return redirect("tournaments:signup_options", slug=slug)
    return render(
        request,
        "signup/options.html",
        {
            "tournament": tournament,
            "form": form,
            "options": options,
            "default_consent": DEFAULT_CONSENT,
            "public_url": request.build_absolute_uri(reverse("tournaments:signup", args=[slug])),
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_GET
def signups(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access.tournament_for(request.user, slug, access.DESK)
    return render(
        request,
        "signup/list.html",
        {
            "tournament": tournament,
            "signups": signup_selectors.signups_for_desk(tournament),
            "to_confirm": signup_selectors.signups_to_confirm(tournament),
            "counts": signup_selectors.checkin_counts_data(tournament),
            "can_organise": access.has_role(request.user, tournament, access.ORGANISER),
            "options": signup_options_for(tournament),
        },
    )


@login_required
@require_POST
def signup_match(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The desk says whether a returning player is the one of the club database."""
    tournament = access.tournament_for(request.user, slug, access.DESK)
    entry = get_object_or_404(SignUp, tournament=tournament, pk=pk)
    form = MatchForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say whether it is the same person."))
        return redirect("tournaments:signups", slug=slug)
    try:
        signup_match_resolve(signup=entry, same=form.cleaned_data["same"], by=request.user)
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("Saved: %(name)s.") % {"name": entry.name})
    return redirect("tournaments:signups", slug=slug)


@login_required
@require_GET
def invitations_csv(request: HttpRequest, club_id: int) -> HttpResponse:
    """Past participants of the club's tournaments who consented: for next year's invitations."""
    club = access.club_for(request.user, club_id, access.ORGANISER)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="einladungen-{club.pk}.csv"'
    response["Cache-Control"] = "private, no-store"
    response.write("\ufeff")  # Excel opens UTF-8 with umlauts correctly
    writer = csv_writer(response)  # a name typed as a formula is written as text
    writer.writerow(
        [_("First name"), _("Last name"), _("Club"), _("E-mail"), _("Phone"), _("Last tournament"), _("Date")]
    )
    for row in signup_selectors.invitations(club):
        writer.writerow(
            [
                row.first_name,
                row.last_name,
                row.club,
                row.email,
                row.phone,
                row.last_tournament,
                row.last_date.isoformat(),
            ]
        )
    return response
