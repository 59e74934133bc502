"""Check-in at the door (o/<slug>/einlass/): one input for the code from a USB scanner (it types the code and
Enter) or the phone's camera (static/js/checkin-camera.js), a name search for those without their code,
the live counts, and closing check-in (organisers).

static/js/checkin.js sends each code in the background and empties the input at once, so the next
code can come while the answer is on its way; without script every form is a plain POST that comes
back to this page.
"""

from csp.constants import SELF
from csp.decorators import csp_update
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from .. import access
from ..forms import SearchForm
from ..forms_signup import CheckinCloseForm, CheckinCodeForm, CheckinCollectForm
from ..http import error_status
from ..models import Registration, SignUp, Tournament
from ..selectors import signup as signup_selectors
from ..selectors.signup import signup_options_for
from ..services.errors import ServiceError
from ..services.registration import registration_update
from ..services.signups import CheckIn, checkin_close, checkin_number, checkin_scan, checkin_waiting_here

COLLECT_SESSION = "checkin_collect"


def _tournament(request: HttpRequest, slug: str) -> Tournament:
    return access.tournament_for(request.user, slug, access.DESK)


def _wants_fragment(request: HttpRequest) -> bool:
    return request.headers.get("X-Checkin") == "1"


def _collect(request: HttpRequest, form_data) -> bool:
    """Whether this desk collects the fee at check-in; remembered per device (its session)."""
    form = CheckinCollectForm(form_data)
    collect = form.is_valid() and form.cleaned_data["collect"]
    request.session[COLLECT_SESSION] = collect
    return collect


def _answer(
    request: HttpRequest, tournament: Tournament, result: CheckIn | None, *, error: str = "", status: int = 200
) -> HttpResponse:
    """checkin.js: the result line and the counts; a plain form: back to the page with the result as a message."""
    context = {
        "result": result,
        "error": error,
        "tournament": tournament,
        "counts": signup_selectors.checkin_counts_data(tournament),
        "oob": True,
    }
    if _wants_fragment(request):
        html = render_to_string("checkin/_answer.html", context, request=request)
        return HttpResponse(html, status=status)
    text = render_to_string("checkin/_result_text.txt", context, request=request).strip()
    (messages.success if result is not None and result.ok else messages.error)(request, text)
    return redirect("tournaments:checkin", slug=tournament.slug)


@csp_update({"worker-src": [SELF, "blob:"]})  # the camera's QR reader decodes in a worker made from a blob
@login_required
@require_GET
def checkin(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    form = SearchForm(request.GET)
    query = form.cleaned_data["q"].strip() if form.is_valid() else ""
    context = {"tournament": tournament, "q": query, "found": signup_selectors.checkin_search(tournament, query)}
    if request.htmx and request.htmx.target == "checkin-found":
        return render(request, "checkin/_found.html", context)
    return render(
        request,
        "checkin/page.html",
        {
            **context,
            "counts": signup_selectors.checkin_counts_data(tournament),
            "options": signup_options_for(tournament),
            "code_form": CheckinCodeForm(initial={"collect": request.session.get(COLLECT_SESSION, True)}),
            "close_form": CheckinCloseForm(initial={"fill": True}),
            "can_organise": access.has_role(request.user, tournament, access.ORGANISER),
            "to_confirm": len(signup_selectors.signups_to_confirm(tournament)),
        },
    )


@login_required
@require_GET
def checkin_counts(request: HttpRequest, slug: str) -> HttpResponse:
    """The live counts (polled by the page)."""
    tournament = _tournament(request, slug)
    return render(
        request,
        "checkin/_counts.html",
        {"counts": signup_selectors.checkin_counts_data(tournament), "tournament": tournament, "poll": True},
    )


@login_required
@require_POST
def checkin_code(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    form = CheckinCodeForm(request.POST)
    collect = _collect(request, request.POST)
    if not form.is_valid():
        return _answer(request, tournament, None, error=_("Scan a code or type a start number."), status=400)
    try:
        result = checkin_scan(tournament=tournament, code=form.cleaned_data["code"], collect=collect, by=request.user)
    except ServiceError as err:
        return _answer(request, tournament, None, error=err.message, status=error_status(err))
    return _answer(request, tournament, result, status=404 if result.outcome == CheckIn.UNKNOWN else 200)


@login_required
@require_POST
def checkin_by_number(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """From the name search: a player without his code."""
    tournament = _tournament(request, slug)
    collect = _collect(request, request.POST)
    try:
        result = checkin_number(tournament=tournament, start_number=number, collect=collect, by=request.user)
    except ServiceError as err:
        return _answer(request, tournament, None, error=err.message, status=error_status(err))
    return _answer(request, tournament, result)


@login_required
@require_POST
def checkin_waiting(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A player of the waiting list found by name: noted as here."""
    tournament = _tournament(request, slug)
    entry = get_object_or_404(SignUp, tournament=tournament, pk=pk)
    try:
        result = checkin_waiting_here(signup=entry)
    except ServiceError as err:
        return _answer(request, tournament, None, error=err.message, status=error_status(err))
    return _answer(request, tournament, result)


@login_required
@require_POST
def checkin_paid(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """He pays what the check-in said he owes."""
    tournament = _tournament(request, slug)
    reg = get_object_or_404(
        Registration.objects.select_related("player", "tournament"), tournament=tournament, start_number=number
    )
    try:
        reg = registration_update(registration=reg, paid=True, by=request.user)
    except ServiceError as err:
        return _answer(request, tournament, None, error=err.message, status=error_status(err))
    return _answer(
        request, tournament, CheckIn(CheckIn.ALREADY, str(number), reg, owed_cents=0, extra={"just_paid": True})
    )


@login_required
@require_http_methods(["POST"])
def checkin_close_view(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser ends check-in: who is not here is left out of the draw; the waiting list may fill up."""
    tournament = access.tournament_for(request.user, slug, access.ORGANISER)
    form = CheckinCloseForm(request.POST)
    fill = form.is_valid() and form.cleaned_data["fill"]
    try:
        closed = checkin_close(tournament=tournament, fill_from_waiting_list=fill, by=request.user)
    except ServiceError as err:
        messages.error(request, err.message)
        return redirect("tournaments:checkin", slug=slug)
    messages.success(
        request,
        _(
            "Check-in is closed: %(missing)d not here are left out of the draw, %(moved)d moved "
            "up from the waiting list."
        )
        % {"missing": len(closed.no_shows), "moved": len(closed.moved_up)},
    )
    return redirect("tournaments:checkin", slug=slug)
