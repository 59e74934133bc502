"""The printed documents of a round (o/<slug>/runde/<n>/...): the print page, the pack, single PDFs;
and of the tournament's end (o/<slug>/druck/...): standings, prize list, cash list, certificates."""

from django.urls import path

from . import printing

urlpatterns = [
    path("o/<slug:slug>/runde/<int:number>/druck/", printing.print_round, name="print_round"),
    path("o/<slug:slug>/runde/<int:number>/druck/status/", printing.print_status, name="print_status"),
    path(
        "o/<slug:slug>/runde/<int:number>/druck/neue-tischkarten/",
        printing.table_cards_renew_view,
        name="table_cards_renew",
    ),
    path("o/<slug:slug>/runde/<int:number>/druck/druckpaket.pdf", printing.print_pack, name="print_pack"),
    path("o/<slug:slug>/runde/<int:number>/druck/tisch/", printing.print_table_pick, name="print_table_pick"),
    path("o/<slug:slug>/runde/<int:number>/druck/<slug:doc>.pdf", printing.print_document, name="print_document"),
    path(
        "o/<slug:slug>/runde/<int:number>/tisch/<int:table>/<slug:doc>.pdf",
        printing.print_table_document,
        name="print_table_document",
    ),
    path("o/<slug:slug>/druck/rangliste.pdf", printing.print_standings, name="print_standings"),
    path("o/<slug:slug>/druck/preisliste.pdf", printing.print_prizes, name="print_prizes"),
    path("o/<slug:slug>/druck/kassenliste.pdf", printing.print_cash, name="print_cash"),
    path("o/<slug:slug>/druck/urkunden.pdf", printing.print_certificates, name="print_certificates"),
]
