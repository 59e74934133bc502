from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .. import selectors


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/home.html", {"tournaments": selectors.tournament_list_public()})
