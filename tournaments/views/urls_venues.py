"""An evening in several venues: the organiser's venues (o/<slug>/orte/) and each venue's desk (o/<slug>/ort/<id>/)."""

from django.urls import path

from . import venues

urlpatterns = [
    path("o/<slug:slug>/orte/", venues.venues_manage, name="venues"),
    path("o/<slug:slug>/orte/<int:venue_id>/helfer/", venues.venue_helper, name="venue_helper"),
    path("o/<slug:slug>/ort/<int:venue_id>/", venues.venue_desk, name="venue_desk"),
    path("o/<slug:slug>/ort/<int:venue_id>/einlass/", venues.venue_checkin_view, name="venue_checkin"),
    path("o/<slug:slug>/ort/<int:venue_id>/tisch/<int:table_id>/summen/", venues.venue_totals, name="venue_totals"),
    path("o/<slug:slug>/ort/<int:venue_id>/runde/<int:number>/sitzplan/", venues.venue_seatlist, name="venue_seatlist"),
    path(
        "o/<slug:slug>/ort/<int:venue_id>/runde/<int:number>/druckpaket.pdf",
        venues.venue_print_pack,
        name="venue_print_pack",
    ),
    path("o/<slug:slug>/ort/<int:venue_id>/beamer/", venues.venue_projector, name="venue_projector"),
]
