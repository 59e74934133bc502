"""Series (Saison, Cup): public standings, downloads and players' histories; the organisers' setup."""

from django.urls import path, re_path

from . import qualification, series

urlpatterns = [
    path("serie/<slug:series>/", series.series_page, name="series"),
    re_path(
        r"^serie/(?P<series>[-\w]+)/wertung\.(?P<fmt>pdf|csv|json)$", series.series_download, name="series_download"
    ),
    path("serie/<slug:series>/qualifikation/", qualification.qualification_page, name="qualification"),
    path("serie/<slug:series>/qualifikation.pdf", qualification.qualification_pdf, name="qualification_pdf"),
    path("serie/<slug:series>/spieler/<int:player_id>/", series.series_player, name="series_player"),
    path("s/<str:player_key>/verlauf/", series.player_history_page, name="player_history"),
    path("t/<slug:slug>/statistik/", series.tournament_statistics_page, name="tournament_statistics"),
    path("t/<slug:slug>/statistik.pdf", series.tournament_statistics_pdf, name="tournament_statistics_pdf"),
    path("o/serien/", series.series_manage_list, name="series_manage_list"),
    path("o/serien/<slug:series>/", series.series_manage, name="series_manage"),
    path("o/serien/<slug:series>/qualifikation/", qualification.qualification_manage, name="qualification_manage"),
    path("o/serien/<slug:series>/urkunden.pdf", series.series_certificates, name="series_certificates"),
]
