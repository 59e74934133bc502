"""The REST API, documented at /api/schema/ and /api/docs/."""

from django.urls import path

from . import organiser, prizes, table

app_name = "api"

tournament = "tournaments/<slug:slug>/"
rnd = tournament + "rounds/<int:number>/"
tisch = "tisch/<str:entry_key>/"

urlpatterns = [
    # the tablets' routes first: every game of an evening is resolved through them
    path(tisch, table.TableSheetView.as_view(), name="table"),
    path(tisch + "hands/", table.HandCreateView.as_view(), name="table_hands"),
    path(tisch + "hands/<int:number>/", table.HandDetailView.as_view(), name="table_hand"),
    path(tisch + "preview/", table.HandPreviewView.as_view(), name="table_preview"),
    path(tisch + "confirm/", table.TableConfirmView.as_view(), name="table_confirm"),
    path(tournament + "registrations/", organiser.RegistrationListView.as_view(), name="registrations"),
    path(
        tournament + "registrations/<int:start_number>/",
        organiser.RegistrationDetailView.as_view(),
        name="registration",
    ),
    path(tournament + "standings/", organiser.StandingsView.as_view(), name="standings"),
    path(tournament + "prizes/", prizes.PrizesView.as_view(), name="prizes"),
    path(tournament + "rounds/", organiser.RoundListView.as_view(), name="rounds"),
    path(rnd, organiser.RoundDetailView.as_view(), name="round"),
    path(rnd + "publish/", organiser.RoundPublishView.as_view(), name="round_publish"),
    path(rnd + "redraw/", organiser.RoundRedrawView.as_view(), name="round_redraw"),
    path(rnd + "close/", organiser.RoundCloseView.as_view(), name="round_close"),
    path(rnd + "reopen/", organiser.RoundReopenView.as_view(), name="round_reopen"),
    path(rnd + "tables/", organiser.RoundTablesView.as_view(), name="round_tables"),
    path(rnd + "tables/<int:table>/", organiser.RoundTableSheetView.as_view(), name="round_table"),
    path(rnd + "tables/<int:table>/hands/<int:game>/", organiser.OrganiserHandView.as_view(), name="round_hand"),
    path(rnd + "tables/<int:table>/totals/", organiser.RoundTableTotalsView.as_view(), name="round_table_totals"),
    path("s/<str:key>/", table.PlayerPageView.as_view(), name="player"),
]
