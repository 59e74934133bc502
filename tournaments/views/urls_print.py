"""The printed documents of a round (o/<slug>/runde/<n>/...): the print page, the pack, single PDFs."""
from django.urls import path

from . import printing

urlpatterns = [
    path("o/<slug:slug>/runde/<int:number>/druck/", printing.print_round, name="print_round"),
    path("o/<slug:slug>/runde/<int:number>/druck/status/", printing.print_status, name="print_status"),
    path("o/<slug:slug>/runde/<int:number>/druck/druckpaket.pdf", printing.print_pack, name="print_pack"),
    path("o/<slug:slug>/runde/<int:number>/druck/tisch/", printing.print_table_pick, name="print_table_pick"),
    path("o/<slug:slug>/runde/<int:number>/druck/<slug:doc>.pdf", printing.print_document, name="print_document"),
    path("o/<slug:slug>/runde/<int:number>/tisch/<int:table>/<slug:doc>.pdf", printing.print_table_document,
         name="print_table_document"),
]
