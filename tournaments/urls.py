from django.urls import include, path

from .views import public

app_name = "tournaments"

urlpatterns = [
    path("", public.home, name="home"),
    path("barrierefreiheit/", public.accessibility, name="accessibility"),
    path("", include("tournaments.views.urls_standings")),
    # Each area of the product has its own URL module (they live beside their views).
    path("", include("tournaments.views.urls_series")),  # before o/<slug>/: "o/serien/" is not a tournament
    path("", include("tournaments.views.urls_desk")),
    path("", include("tournaments.views.urls_venues")),
    path("", include("tournaments.views.urls_entry")),
    path("", include("tournaments.views.urls_console")),
    path("", include("tournaments.views.urls_print")),
    path("", include("tournaments.views.urls_links")),
    path("", include("tournaments.views.urls_signup")),
    path("", include("tournaments.views.urls_clubs")),
]
