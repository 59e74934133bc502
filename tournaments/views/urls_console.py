from django.urls import path

from . import account, archive, audit, console, personal

urlpatterns = [
    path("o/zugang/", account.account, name="account"),
    path("o/zugang/token/", account.token_create, name="account_token_create"),
    path("o/zugang/token/widerrufen/", account.token_revoke, name="account_token_revoke"),
    path("o/neu/", console.tournament_new, name="tournament_new"),
    path("o/neu/archiv/", archive.upload, name="archive_upload"),
    path("o/verein/<int:club_id>/", console.club, name="club"),
    path("o/verein/<int:club_id>/stammdaten/", console.club_details, name="club_details"),
    path("o/verein/<int:club_id>/import/", console.club_import, name="club_import"),
    path("o/verein/<int:club_id>/zusammenfuehren/", console.club_merge, name="club_merge"),
    path("o/verein/<int:club_id>/protokoll/", audit.club_log, name="club_log"),
    path("o/spieler/<int:player_id>/", console.player_edit, name="player_edit"),
    path("o/spieler/<int:player_id>/daten.json", personal.player_export, name="player_export"),
    path("o/spieler/<int:player_id>/anonymisieren/", personal.player_anonymise_view, name="player_anonymise"),
    path("o/<slug:slug>/", console.control, name="control"),
    path("o/<slug:slug>/einstellungen/", console.tournament_settings, name="settings"),
    path("o/<slug:slug>/beenden/", console.finish, name="tournament_finish"),
    path("o/<slug:slug>/protokoll/", audit.tournament_log, name="tournament_log"),
    path("o/<slug:slug>/einstellungen/beispiele/", console.rules_examples, name="rules_examples"),
    path("o/<slug:slug>/kopieren/", console.tournament_copy_view, name="copy"),
    path("o/<slug:slug>/archiv.json", archive.download, name="archive_download"),
]
