"""Mein Zugang: the logged-in user's own page: roles, password, the API token."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from knox.models import AuthToken

from ..models import ClubMembership
from ..services.account import api_token_create, api_token_revoke


@login_required
def account(request: HttpRequest) -> HttpResponse:
    token = AuthToken.objects.filter(user=request.user).first()
    return render(
        request,
        "console/account.html",
        {
            "memberships": ClubMembership.objects.filter(user=request.user).select_related("club"),
            "token": token,
            # The key is shown once, right after it was made; afterwards only its first characters.
            "new_key": request.session.pop("new_api_token", None),
        },
    )


@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    request.session["new_api_token"] = api_token_create(user=request.user)
    messages.success(request, _("A new API token was made. Any older token no longer works."))
    return redirect("tournaments:account")


@login_required
@require_POST
def token_revoke(request: HttpRequest) -> HttpResponse:
    if api_token_revoke(user=request.user):
        messages.success(request, _("The API token was revoked: it no longer works."))
    return redirect("tournaments:account")
