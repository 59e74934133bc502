from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ..selectors.public import tournament_list_public


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/home.html",
        {"tournaments": tournament_list_public(), "club_registration": settings.CLUB_REGISTRATION != "off"},
    )


def accessibility(request: HttpRequest) -> HttpResponse:
    """The accessibility statement: what is met, what is not, whom to tell (the operator, from the settings)."""
    return render(request, "public/accessibility.html", {"contact": settings.ACCESSIBILITY_CONTACT})
