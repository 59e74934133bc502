"""A club joins the instance itself ("Verein anlegen", the mail's link) and the operator's page of clubs
(approve, suspend, let in again)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ..forms_clubs import ClubRegisterForm, ClubStatusForm
from ..http import error_status, form_status
from ..models import Club
from ..ratelimit import signup_allowed
from ..selectors.clubs import operator_clubs
from ..services.clubs import club_confirm, club_register, club_status_set
from ..services.errors import ServiceError


def operator_required(view):
    """The instance's operator (staff or superuser): others logged in get 403, the anonymous the login."""

    @login_required
    def wrapped(request, *args, **kwargs):
        if not (request.user.is_staff or request.user.is_superuser):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    wrapped.__name__, wrapped.__doc__ = view.__name__, view.__doc__
    return wrapped


@require_http_methods(["GET", "POST"])
def club_register_view(request: HttpRequest) -> HttpResponse:
    if settings.CLUB_REGISTRATION == "off":
        raise Http404("This instance takes no new clubs")
    form = ClubRegisterForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        allowed, wait = signup_allowed(request)
        if not allowed:
            form.add_error(
                None,
                _(
                    "Too many sendings from your address in a short time: please wait %(seconds)d "
                    "seconds and send the form again."
                )
                % {"seconds": wait},
            )
            status = 429
        elif form.is_valid():
            data = form.cleaned_data
            try:
                club = club_register(
                    name=data["name"],
                    town=data["town"],
                    postcode=data["postcode"],
                    username=data["username"],
                    email=data["email"],
                    password=data["password"],
                    url_base=request.build_absolute_uri("/"),
                )
            except ServiceError as err:
                form.add_service_error(err)
                status = error_status(err)
            else:
                return render(request, "clubs/registered.html", {"club": club})
        else:
            status = form_status(request, form)
    return render(
        request,
        "clubs/register.html",
        {"form": form, "approval": settings.CLUB_REGISTRATION == "approved"},
        status=status,
    )


@require_GET
def club_confirm_view(request: HttpRequest, token: str) -> HttpResponse:
    """The link of the confirmation mail (a GET that writes once: following the link is the confirmation;
    following it again changes nothing)."""
    try:
        club = club_confirm(token=token)
    except ServiceError as err:
        return render(request, "clubs/confirmed.html", {"error": err.message}, status=400)
    return render(request, "clubs/confirmed.html", {"club": club})


@operator_required
@require_GET
def operator_clubs_view(request: HttpRequest) -> HttpResponse:
    return render(
        request, "clubs/operator.html", {"clubs": operator_clubs(), "registration": settings.CLUB_REGISTRATION}
    )


@operator_required
@require_POST
def operator_club_status(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    form = ClubStatusForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose approve or suspend."))
    else:
        try:
            club = club_status_set(club=club, status=form.cleaned_data["status"], by=request.user)
        except ServiceError as err:
            messages.error(request, err.message)
        else:
            messages.success(
                request, _("%(club)s: %(status)s.") % {"club": club.name, "status": club.get_status_display()}
            )
    return redirect("tournaments:operator_clubs")
