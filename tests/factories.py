"""factory_boy factories for model tests."""

import datetime

import factory

from tournaments import models


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Club
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Schafkopfclub {n}")
    town = "Musterdorf"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Player

    first_name = factory.Sequence(lambda n: f"Spieler{n}")
    last_name = factory.Sequence(lambda n: f"Nachname{n}")
    club = factory.SubFactory(ClubFactory)


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Tournament

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Rennen {n}")
    slug = factory.Sequence(lambda n: f"rennen-{n}")
    date = datetime.date(2026, 11, 21)


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Registration

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    start_number = factory.Sequence(lambda n: n + 1)
    checked_in = True
