"""Online sign-up (public form, the player's confirmation under his key, the rules) and check-in at the door."""

from django.urls import path

from . import checkin, payments, signup

urlpatterns = [
    path("t/<slug:slug>/anmelden/", signup.signup, name="signup"),
    path("t/<slug:slug>/regeln.pdf", signup.rules_pdf, name="rules_pdf"),
    path("anmeldung/<str:key>/", signup.signup_page, name="signup_page"),
    path("anmeldung/<str:key>/qr.svg", signup.signup_qr, name="signup_qr"),
    path("anmeldung/<str:key>/girocode.svg", signup.signup_girocode, name="signup_girocode"),
    path("anmeldung/<str:key>/abmelden/", signup.signup_withdraw_view, name="signup_withdraw"),
    path("anmeldung/<str:key>/einwilligung/", signup.signup_consent_view, name="signup_consent"),
    path("o/verein/<int:club_id>/einladungen.csv", signup.invitations_csv, name="invitations"),
    path("o/<slug:slug>/anmeldung/", signup.signup_options, name="signup_options"),
    path("o/<slug:slug>/anmeldungen/", signup.signups, name="signups"),
    path("o/<slug:slug>/anmeldungen/unbezahlte-freigeben/", payments.unpaid_release_view, name="unpaid_release"),
    path("o/<slug:slug>/kontoauszug/", payments.bank_statement, name="bank_statement"),
    path("o/<slug:slug>/anmeldungen/<int:pk>/person/", signup.signup_match, name="signup_match"),
    path("o/<slug:slug>/einlass/", checkin.checkin, name="checkin"),
    path("o/<slug:slug>/einlass/stand/", checkin.checkin_counts, name="checkin_counts"),
    path("o/<slug:slug>/einlass/code/", checkin.checkin_code, name="checkin_code"),
    path("o/<slug:slug>/einlass/schliessen/", checkin.checkin_close_view, name="checkin_close"),
    path("o/<slug:slug>/einlass/<int:number>/", checkin.checkin_by_number, name="checkin_number"),
    path("o/<slug:slug>/einlass/<int:number>/bezahlt/", checkin.checkin_paid, name="checkin_paid"),
    path("o/<slug:slug>/einlass/warteliste/<int:pk>/", checkin.checkin_waiting, name="checkin_waiting"),
]
