from django.urls import path, re_path

from . import views

app_name = "scoring"

urlpatterns = [
    path("t/<slug:slug>/rangliste/", views.standings, name="standings"),
    path("t/<slug:slug>/rangliste/beamer/", views.projector, name="projector"),
    re_path(r"^t/(?P<slug>[-\w]+)/rangliste\.(?P<fmt>csv|json)$", views.download, name="download"),
    path("o/<slug:slug>/rangliste/veroeffentlichen/", views.publish, name="publish"),
    path("o/<slug:slug>/preise/", views.prizes, name="prizes"),
    path("o/<slug:slug>/kasse/", views.cash, name="cash"),
]
