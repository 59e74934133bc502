"""Login throttling with django-axes: which logins it watches, and what a locked-out person reads."""

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_cool_off
from django.contrib.auth import views as auth_views
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render


class LoginThrottleBackend(AxesStandaloneBackend):
    """django-axes' lock for every login that comes with a request: the web login and the admin's.

    ``authenticate()`` without a request (the test client's ``login()``, a shell) has no address to
    count; the next backend then checks the password as usual.
    """

    def authenticate(self, request: HttpRequest | None, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)


class ClubBackend(ModelBackend):
    """Django's password login, closed to a user whose clubs are all waiting for approval or suspended
    (``access.club_blocked``): the login fails and a session he had stops at his next request."""

    def user_can_authenticate(self, user) -> bool:
        from tournaments.access import club_blocked  # the project package is imported before the app's models

        return super().user_can_authenticate(user) and not club_blocked(user)


class ClubAuthenticationForm(AuthenticationForm):
    """The login form; a right password of a blocked club says why instead of "wrong password"."""

    def clean(self):
        try:
            return super().clean()
        except ValidationError:
            from django.contrib.auth import get_user_model
            from django.utils.translation import gettext as _

            from tournaments.access import club_blocked  # see ClubBackend
            from tournaments.models import Club  # see ClubBackend

            user = get_user_model().objects.filter(username=self.cleaned_data.get("username")).first()
            if (
                user is not None
                and user.is_active
                and user.check_password(self.cleaned_data.get("password") or "")
                and club_blocked(user)
            ):
                statuses = set(user.club_memberships.values_list("club__status", flat=True))
                if Club.Status.PENDING in statuses:
                    raise ValidationError(
                        _("Your club is waiting for the operator's approval. You can log in once it is approved."),
                        code="club_pending",
                    ) from None
                raise ValidationError(
                    _("Your club is suspended: ask the operator of this site."), code="club_suspended"
                ) from None
            raise


def client_address(request: HttpRequest) -> str:
    """The address the login lock counts: REMOTE_ADDR, or behind ``PROXY_COUNT`` proxies the address the
    outermost of ours saw (counted from the right of X-Forwarded-For: what a client writes there itself
    stands further left and is ignored)."""
    from django.conf import settings

    count = settings.PROXY_COUNT
    if count:
        hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
        if len(hops) >= count:
            return hops[-count]
    return request.META.get("REMOTE_ADDR", "")


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """The login page again, with a plain message how long the lock lasts (HTTP 429)."""
    cool_off = get_cool_off(request)
    minutes = max(1, round(cool_off.total_seconds() / 60)) if cool_off else None
    form = AuthenticationForm(request)
    return render(
        request,
        "registration/login.html",
        {
            "form": form,
            "locked_out": True,
            "lock_minutes": minutes,
            **login_help(),
            "next": request.POST.get("next", "") if request.method == "POST" else "",
        },
        status=429,
    )


def login_help() -> dict:
    """What the login page offers a person who forgot the password: a reset by e-mail, or whom to ask."""
    from django.conf import settings

    return {"password_reset_by_email": settings.PASSWORD_RESET_BY_EMAIL, "account_help": settings.ACCOUNT_HELP}


class LoginView(auth_views.LoginView):
    form_class = ClubAuthenticationForm

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), **login_help()}


class EmailOnlyMixin:
    """Password reset by e-mail exists only when e-mail is configured (else: 404, the login page says whom to ask)."""

    def dispatch(self, request, *args, **kwargs):
        from django.conf import settings

        if not settings.PASSWORD_RESET_BY_EMAIL:
            raise Http404("Password reset needs e-mail")
        return super().dispatch(request, *args, **kwargs)


class PasswordResetView(EmailOnlyMixin, auth_views.PasswordResetView):
    pass


class PasswordResetDoneView(EmailOnlyMixin, auth_views.PasswordResetDoneView):
    pass


class PasswordResetConfirmView(EmailOnlyMixin, auth_views.PasswordResetConfirmView):
    pass
