"""The organiser's desk and rounds pages (o/...) and the public tournament and seat list (t/...)."""
from django.urls import path

from . import desk, rounds, seatlist

urlpatterns = [
    path("o/", desk.organiser_home, name="organiser_home"),
    path("o/<slug:slug>/desk/", desk.desk, name="desk"),
    path("o/<slug:slug>/desk/register/", desk.register, name="desk_register"),
    path("o/<slug:slug>/desk/new/", desk.quick_add, name="desk_quick_add"),
    path("o/<slug:slug>/desk/<int:number>/flag/", desk.flag, name="desk_flag"),
    path("o/<slug:slug>/desk/<int:number>/withdraw/", desk.withdraw, name="desk_withdraw"),
    path("o/<slug:slug>/desk/<int:number>/substitute/", desk.substitute, name="desk_substitute"),
    path("o/<slug:slug>/rounds/", rounds.rounds, name="rounds"),
    path("o/<slug:slug>/rounds/draw/", rounds.draw, name="rounds_draw"),
    path("o/<slug:slug>/rounds/<int:number>/redraw/", rounds.redraw, name="rounds_redraw"),
    path("o/<slug:slug>/rounds/<int:number>/publish/", rounds.publish, name="rounds_publish"),
    path("o/<slug:slug>/rounds/<int:number>/close/", rounds.close, name="rounds_close"),
    path("o/<slug:slug>/rounds/<int:number>/swap/", rounds.swap, name="rounds_swap"),
    path("t/<slug:slug>/", seatlist.tournament_page, name="public_tournament"),
    path("t/<slug:slug>/sitzplan/", seatlist.seatlist, name="seatlist"),
    path("t/<slug:slug>/sitzplan/tische/", seatlist.seatlist_tables, name="seatlist_tables"),
]
