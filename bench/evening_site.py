"""URLs for bench/evening.py: the project as deployed, plus the two floors it measures against in the
same run (a bare view that inserts one row, a bare view that answers a poll with 304). Never used
outside the bench (bench/evening_settings.py points ROOT_URLCONF here)."""

from django.http import HttpResponse, HttpResponseNotModified
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt


@csrf_exempt
def floor_insert(request):
    """The least a save can cost in Django: one request, one INSERT (a row of four short columns), a short JSON
    answer. (It wrote a WorkerPing row while that model existed; the worker's ping is a test fixture now.)"""
    from tournaments.models import Player

    Player.objects.create(first_name=request.body[:60].decode(errors="replace") or "x", last_name="floor")
    return HttpResponse(b'{"ok":true}', content_type="application/json", status=201)


def floor_poll(request):
    """The least an unchanged poll can cost in Django: compare a tag, answer 304."""
    if request.headers.get("If-None-Match") == '"floor"':
        return HttpResponseNotModified()
    response = HttpResponse(b"<p>floor</p>")
    response["ETag"] = '"floor"'
    return response


urlpatterns = [
    path("bench/floor/insert/", floor_insert),
    path("bench/floor/poll/", floor_poll),
    path("", include("schafkopfrennen.urls")),
]
