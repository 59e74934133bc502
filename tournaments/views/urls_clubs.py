"""A club's home on a hosted instance: the public calendar and its feeds, a club's own registration, the
operator's page of clubs."""

from django.urls import path

from . import calendar, clubs

urlpatterns = [
    path("kalender/", calendar.calendar, name="calendar"),
    path("kalender.ics", calendar.calendar_ics, name="calendar_ics"),
    path("kalender/<int:club_id>.ics", calendar.club_calendar_ics, name="club_calendar_ics"),
    path("kalender/<slug:slug>/bild.png", calendar.share_image, name="share_image"),
    path("verein-anlegen/", clubs.club_register_view, name="club_register"),
    path("verein-anlegen/bestaetigen/<str:token>/", clubs.club_confirm_view, name="club_confirm"),
    path("betrieb/vereine/", clubs.operator_clubs_view, name="operator_clubs"),
    path("betrieb/vereine/<int:club_id>/status/", clubs.operator_club_status, name="operator_club_status"),
]
