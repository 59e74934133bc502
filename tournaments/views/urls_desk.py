"""The organiser's desk (o/<slug>/meldestelle/) and rounds page (o/<slug>/runden/), the public tournament and seat list (t/...)."""

from django.urls import path

from . import desk, rounds, seatlist

urlpatterns = [
    path("o/", desk.organiser_home, name="organiser_home"),
    path("o/<slug:slug>/meldestelle/", desk.desk, name="desk"),
    path("o/<slug:slug>/meldestelle/eintragen/", desk.register, name="desk_register"),
    path("o/<slug:slug>/meldestelle/neu/", desk.quick_add, name="desk_quick_add"),
    path("o/<slug:slug>/meldestelle/<int:number>/status/", desk.flag, name="desk_flag"),
    path("o/<slug:slug>/meldestelle/<int:number>/zurueckziehen/", desk.withdraw, name="desk_withdraw"),
    path("o/<slug:slug>/meldestelle/<int:number>/ersatz/", desk.substitute, name="desk_substitute"),
    path("o/<slug:slug>/runden/", rounds.rounds, name="rounds"),
    path("o/<slug:slug>/runden/auslosen/", rounds.draw, name="rounds_draw"),
    path("o/<slug:slug>/runden/<int:number>/neu-auslosen/", rounds.redraw, name="rounds_redraw"),
    path("o/<slug:slug>/runden/<int:number>/veroeffentlichen/", rounds.publish, name="rounds_publish"),
    path("o/<slug:slug>/runden/<int:number>/schliessen/", rounds.close, name="rounds_close"),
    path("o/<slug:slug>/runden/<int:number>/wieder-oeffnen/", rounds.reopen, name="rounds_reopen"),
    path("o/<slug:slug>/runden/<int:number>/tauschen/", rounds.swap, name="rounds_swap"),
    path("t/<slug:slug>/", seatlist.tournament_page, name="public_tournament"),
    path("t/<slug:slug>/sitzplan/", seatlist.seatlist, name="seatlist"),
    path("t/<slug:slug>/sitzplan/tische/", seatlist.seatlist_tables, name="seatlist_tables"),
]
