"""Entry fees paid by transfer: the desk's bank statement upload, the organiser's release of places not paid
by the deadline."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from .. import access
from ..forms_signup import BankStatementForm
from ..http import error_status, form_status
from ..services.errors import ServiceError
from ..services.payments import bank_statement_apply, unpaid_release


def _text(upload) -> str:
    raw = upload.read(2_000_000)
    for encoding in ("utf-8-sig", "cp1252"):  # German banks export either
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return raw.decode("latin-1")


@login_required
@require_http_methods(["GET", "POST"])
def bank_statement(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access.tournament_for(request.user, slug, access.DESK)
    posted = request.method == "POST"
    form = BankStatementForm(request.POST if posted else None, request.FILES if posted else None)
    result, status = None, 200
    if request.method == "POST":
        if form.is_valid():
            try:
                result = bank_statement_apply(
                    tournament=tournament, text=_text(form.cleaned_data["file"]), by=request.user
                )
            except ServiceError as err:
                form.add_error("file", err.message)
                status = error_status(err)
        else:
            status = form_status(request, form)
    return render(
        request,
        "desk/bank.html",
        {"tournament": tournament, "form": form, "result": result, "nav": "bank"},
        status=status,
    )


@login_required
@require_POST
def unpaid_release_view(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access.tournament_for(request.user, slug, access.ORGANISER)
    try:
        released = unpaid_release(tournament=tournament, by=request.user, url_base=request.build_absolute_uri("/"))
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("%(n)d unpaid places given to the waiting list.") % {"n": len(released)})
    return redirect("tournaments:signups", slug=slug)
