"""The tables' tablet pages (tisch/<entry_key>/, no login) and the organiser's tables and paper mode (o/...)."""

from django.urls import path

from . import entry, entry_app, paper, table_actions

urlpatterns = [
    path("tisch/sw.js", entry_app.service_worker, name="entry_service_worker"),
    path("tisch/<str:key>/", entry.table_page, name="entry_table"),
    path("tisch/<str:key>/manifest.webmanifest", entry_app.manifest, name="entry_manifest"),
    path("tisch/<str:key>/spiel/", entry.TabletEntry.as_view(action="record"), name="entry_record"),
    path("tisch/<str:key>/spiel/<int:number>/", entry.TabletEntry.as_view(action="game"), name="entry_game"),
    path(
        "tisch/<str:key>/spiel/<int:number>/loeschen/", entry.TabletEntry.as_view(action="delete"), name="entry_delete"
    ),
    path(
        "tisch/<str:key>/spiel/<int:number>/konflikt/",
        entry.TabletEntry.as_view(action="conflict"),
        name="entry_conflict",
    ),
    path("tisch/<str:key>/vorschau/", entry.TabletEntry.as_view(action="preview"), name="entry_preview"),
    path("tisch/<str:key>/bestaetigen/", entry.confirm, name="entry_confirm"),
    path("o/<slug:slug>/tische/", paper.tables, name="entry_tables"),
    path("o/<slug:slug>/tische/<int:table_id>/qr.svg", paper.table_qr, name="entry_table_qr"),
    path("o/<slug:slug>/tisch/<int:table_id>/papier/", paper.PaperEntry.as_view(action="page"), name="paper"),
    path(
        "o/<slug:slug>/tisch/<int:table_id>/papier/spiel/",
        paper.PaperEntry.as_view(action="record"),
        name="paper_record",
    ),
    path(
        "o/<slug:slug>/tisch/<int:table_id>/papier/spiel/<int:number>/",
        paper.PaperEntry.as_view(action="game"),
        name="paper_game",
    ),
    path(
        "o/<slug:slug>/tisch/<int:table_id>/papier/spiel/<int:number>/loeschen/",
        paper.PaperEntry.as_view(action="delete"),
        name="paper_delete",
    ),
    path(
        "o/<slug:slug>/tisch/<int:table_id>/papier/vorschau/",
        paper.PaperEntry.as_view(action="preview"),
        name="paper_preview",
    ),
    path("o/<slug:slug>/tisch/<int:table_id>/papier/summen/", paper.totals, name="paper_totals"),
    path("o/<slug:slug>/tisch/<int:table_id>/bestaetigen/", table_actions.confirm_for, name="table_confirm_for"),
    path("o/<slug:slug>/tisch/<int:table_id>/schliessen/", table_actions.close, name="table_close"),
    path("o/<slug:slug>/tisch/<int:table_id>/oeffnen/", table_actions.reopen, name="table_reopen"),
    path("o/<slug:slug>/tisch/<int:table_id>/zu-viert/", table_actions.four, name="table_four"),
]
