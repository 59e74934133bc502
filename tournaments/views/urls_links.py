"""The evening's private links: a table card's all-evening link (tk/..., "Tischkarte") and a player's page (s/...).

Under each, ``<round>/...`` are the entry page's actions bound to the round it was opened in.
"""

from django.urls import path

from . import links


def round_actions(prefix: str, name: str, kind: str) -> list:
    at = prefix + "<int:round>/"
    extra = {"kind": kind}
    return [
        path(at, links.link_round, extra, name=f"{name}_round"),
        path(at + "spiel/", links.LinkEntry.as_view(action="record"), extra, name=f"{name}_record"),
        path(at + "spiel/<int:number>/", links.LinkEntry.as_view(action="game"), extra, name=f"{name}_game"),
        path(
            at + "spiel/<int:number>/loeschen/", links.LinkEntry.as_view(action="delete"), extra, name=f"{name}_delete"
        ),
        path(
            at + "spiel/<int:number>/konflikt/",
            links.LinkEntry.as_view(action="conflict"),
            extra,
            name=f"{name}_conflict",
        ),
        path(at + "vorschau/", links.LinkEntry.as_view(action="preview"), extra, name=f"{name}_preview"),
        path(at + "bestaetigen/", links.link_confirm, extra, name=f"{name}_confirm"),
    ]


urlpatterns = [
    path("tk/<str:key>/", links.table_link, name="table_link"),
    path("tk/<str:key>/stand/", links.table_link_status, name="table_link_status"),
    path("tk/<str:key>/manifest.webmanifest", links.table_link_manifest, name="table_link_manifest"),
    *round_actions("tk/<str:key>/", "table_link", links.TABLE),
    path("s/<str:key>/", links.player, name="player"),
    path("s/<str:key>/stand/", links.player_status, name="player_status"),
    path("s/<str:key>/tisch/", links.player_table, name="player_table"),
    path("s/<str:key>/bestaetigen/", links.player_confirm, name="player_confirm"),
    *round_actions("s/<str:key>/", "player_table", links.PLAYER),
    # the desk prints them
    path("o/<slug:slug>/meldestelle/startkarten.pdf", links.start_cards, name="start_cards"),
    path("o/<slug:slug>/meldestelle/<int:number>/startkarte.pdf", links.start_card, name="start_card"),
]
