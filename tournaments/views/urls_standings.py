"""The standings (t/<slug>/rangliste/...: page, projector, downloads) and the organiser's prizes and cash list."""

from django.urls import path, re_path

from . import callup, prize_plan, standings

urlpatterns = [
    path("t/<slug:slug>/rangliste/", standings.standings, name="standings"),
    path("t/<slug:slug>/rangliste/beamer/", standings.projector, name="standings_projector"),
    path("t/<slug:slug>/rangliste/top10.png", standings.top_ten_image, name="standings_top_ten"),
    re_path(r"^t/(?P<slug>[-\w]+)/rangliste\.(?P<fmt>csv|json)$", standings.download, name="standings_download"),
    path("o/<slug:slug>/rangliste/veroeffentlichen/", standings.publish, name="standings_publish"),
    path("o/<slug:slug>/rangliste/neu-zaehlen/", standings.refresh, name="standings_refresh"),
    path("o/<slug:slug>/preise/", standings.prizes, name="prizes"),
    path("o/<slug:slug>/preise/ausgehaendigt/", standings.prize_handed_over, name="prize_handed_over"),
    path("o/<slug:slug>/preise/plan/", standings.prize_plan_save, name="prize_plan_save"),
    path("o/<slug:slug>/preise/plan/vorschau/", prize_plan.preview, name="prize_plan_preview"),
    path("o/<slug:slug>/preise/sonderwertungen/", standings.prize_categories_save, name="prize_categories_save"),
    path("o/<slug:slug>/preistisch/", callup.desk, name="prize_callup"),
    path("t/<slug:slug>/preistisch/beamer/", callup.projector, name="prize_callup_projector"),
    path("o/<slug:slug>/kasse/", standings.cash, name="cash"),
]
