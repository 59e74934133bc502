"""Django's admin: registrations added there get their start number like at the desk; game revisions are
open to inspect and closed to change."""

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, TournamentFactory
from tournaments.models import HandRevision, Registration, Tournament
from tournaments.services.registration import registration_create
from tournaments.services.rounds import round_draw

pytestmark = pytest.mark.django_db


def _form_data(form) -> dict:
    """What the browser would send back for an unchanged form (checkboxes only when ticked)."""
    data = {}
    for field in form:
        value = field.value()
        if value is True:
            data[field.html_name] = "on"
        elif value is not None and value is not False:
            data[field.html_name] = value
    return data


@pytest.fixture
def tournament():
    """Start numbers 1 and 2 given; number 2 deleted again, so the next one is 3."""
    tournament = TournamentFactory()
    registration_create(tournament=tournament, player=PlayerFactory())
    registration_create(tournament=tournament, player=PlayerFactory()).delete()
    return tournament


def test_a_registration_added_in_the_admin_takes_the_next_start_number(admin_client, tournament):
    # given a tournament whose last start number given is 2
    player = PlayerFactory()
    # when a registration is added through the admin's form
    response = admin_client.post(
        reverse("admin:tournaments_registration_add"),
        {
            "tournament": tournament.pk,
            "player": player.pk,
            "paid": "on",
            "withdrawn_after_round": "",
            "substitute_for": "",
        },
    )
    # then it gets number 3, and the tournament remembers it
    assert response.status_code == 302
    registration = Registration.objects.get(tournament=tournament, player=player)
    assert registration.start_number == 3 and registration.paid
    tournament.refresh_from_db()
    assert tournament.last_start_number == 3

    # the same player again is a form error, and takes no number
    again = admin_client.post(
        reverse("admin:tournaments_registration_add"),
        {"tournament": tournament.pk, "player": player.pk, "withdrawn_after_round": "", "substitute_for": ""},
    )
    assert again.status_code == 200 and again.context["adminform"].form.errors
    tournament.refresh_from_db()
    assert tournament.last_start_number == 3

    # a registration's change page keeps its tournament and start number
    change = admin_client.get(reverse("admin:tournaments_registration_change", args=[registration.pk]))
    assert change.status_code == 200
    assert {"tournament", "start_number"} <= set(change.context["adminform"].readonly_fields)


def test_a_registration_added_in_the_tournaments_inline_takes_the_next_start_number(admin_client, tournament):
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    page = admin_client.get(url)
    (inline,) = page.context["inline_admin_formsets"]
    formset = inline.formset
    data = _form_data(page.context["adminform"].form) | _form_data(formset.management_form)
    for form in formset.forms:
        data |= _form_data(form)
    player = PlayerFactory()
    new = formset.total_form_count()
    data |= {
        f"{formset.prefix}-TOTAL_FORMS": new + 1,
        f"{formset.prefix}-{new}-player": player.pk,
        f"{formset.prefix}-{new}-tournament": tournament.pk,
    }

    response = admin_client.post(url, data)

    assert response.status_code == 302, response.context and response.context["errors"]
    assert Registration.objects.get(tournament=tournament, player=player).start_number == 3
    assert sorted(tournament.registrations.values_list("start_number", flat=True)) == [1, 3]
    assert Tournament.objects.get(pk=tournament.pk).last_start_number == 3


def test_game_revisions_can_be_inspected_but_not_changed(admin_client, tournament):
    for _ in range(3):  # with start number 1: four players, one table
        registration_create(tournament=tournament, player=PlayerFactory(), checked_in=True)
    Registration.objects.filter(tournament=tournament).update(checked_in=True)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    revision = HandRevision.objects.create(
        table=rnd.tables.get(),
        number=1,
        action=HandRevision.Action.UPDATE,
        old={"augen": 61},
        new={"augen": 91},
        device="Tablet Tisch 1",
        reason="Augen falsch gezählt",
    )

    changelist = admin_client.get(reverse("admin:tournaments_handrevision_changelist"))
    assert changelist.status_code == 200
    body = changelist.content.decode()
    assert "Tablet Tisch 1" in body and "Augen falsch gezählt" in body

    detail = reverse("admin:tournaments_handrevision_change", args=[revision.pk])
    assert admin_client.get(detail).status_code == 200  # view only
    assert admin_client.post(detail, {"reason": "überschrieben"}).status_code == 403
    assert admin_client.get(reverse("admin:tournaments_handrevision_add")).status_code == 403
    assert (
        admin_client.post(
            reverse("admin:tournaments_handrevision_delete", args=[revision.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    revision.refresh_from_db()
    assert revision.reason == "Augen falsch gezählt"


@pytest.fixture
def played(tournament):
    """A published round of one table with one game entered."""
    from tournaments.services.hands import hand_record
    from tournaments.services.rounds import round_publish

    for _ in range(3):
        registration_create(tournament=tournament, player=PlayerFactory(), checked_in=True)
    Registration.objects.filter(tournament=tournament).update(checked_in=True)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    round_publish(round=rnd)
    table = rnd.tables.get()
    hand, _ = hand_record(
        table=table,
        client_id=__import__("uuid").uuid4(),
        record={"contract": "rufspiel", "declarer": 1, "partner": 3, "called": "gras", "augen": 72},
    )
    return hand


@pytest.mark.parametrize("model", ["hand", "round", "table"])
def test_games_rounds_and_tables_can_be_inspected_but_not_changed_in_the_admin(admin_client, played, model):
    """Issue 13, fix 6: the admin edited games without rescoring, revision, lock or standings, and rounds
    without a reason. Now the rows are open to read and closed to change; the services do the changing."""
    obj = {"hand": played, "table": played.table, "round": played.table.round}[model]
    obj = type(obj).objects.get(pk=obj.pk)  # as stored (the fixture's objects may hold older values)
    before = {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}
    change = reverse(f"admin:tournaments_{model}_change", args=[obj.pk])

    assert admin_client.get(reverse(f"admin:tournaments_{model}_changelist")).status_code == 200
    page = admin_client.get(change)
    assert page.status_code == 200 and not page.context["has_change_permission"]
    assert admin_client.post(change, {"augen": "120", "status": "closed", "size": "5"}).status_code == 403
    assert admin_client.get(reverse(f"admin:tournaments_{model}_add")).status_code == 403
    assert (
        admin_client.post(reverse(f"admin:tournaments_{model}_delete", args=[obj.pk]), {"post": "yes"}).status_code
        == 403
    )
    obj.refresh_from_db()
    assert {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields} == before
    assert HandRevision.objects.filter(action=HandRevision.Action.UPDATE).count() == 0


def test_the_rules_of_a_tournament_under_way_cannot_change_in_the_admin(admin_client, played):
    tournament = played.table.round.tournament
    page = admin_client.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk]))
    assert {"rules", "status"} <= set(page.context["adminform"].readonly_fields)


def _post_form(admin_client, url, **changes):
    """The admin's change form as the browser sends it back, with ``changes`` made."""
    page = admin_client.get(url)
    data = _form_data(page.context["adminform"].form)
    for inline in page.context["inline_admin_formsets"]:
        data |= _form_data(inline.formset.management_form)
        for form in inline.formset.forms:
            data |= _form_data(form)
    for name, value in changes.items():
        if value is False:
            data.pop(name, None)
        else:
            data[name] = value
    return admin_client.post(url, data)


def test_registrations_and_tournament_details_changed_in_the_admin_are_logged(admin_client, admin_user, tournament):
    """The admin goes through the services, so the audit log holds what a superuser changes there too."""
    from tournaments.models import AuditEntry

    player = PlayerFactory()
    added = admin_client.post(
        reverse("admin:tournaments_registration_add"),
        {"tournament": tournament.pk, "player": player.pk, "checked_in": "on"},
    )
    assert added.status_code == 302
    registration = Registration.objects.get(tournament=tournament, player=player)
    assert registration.start_number == 3 and registration.checked_in

    url = reverse("admin:tournaments_registration_change", args=[registration.pk])
    assert {"withdrawn_after_round", "substitute_for", "player"} <= set(
        admin_client.get(url).context["adminform"].readonly_fields
    )  # the desk withdraws and substitutes
    assert _post_form(admin_client, url, paid="on").status_code == 302

    tournament_url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    assert _post_form(admin_client, tournament_url, venue="Gasthof Post").status_code == 302

    logged = {entry.action: entry for entry in AuditEntry.objects.filter(tournament=tournament)}
    assert set(logged) == {"registration.create", "registration.paid", "tournament.details"}
    assert all(entry.by == admin_user for entry in logged.values())
    assert (logged["registration.paid"].before, logged["registration.paid"].after) == (False, True)
    assert logged["tournament.details"].after == {"venue": "Gasthof Post"}
    registration.refresh_from_db()
    assert registration.paid and Tournament.objects.get(pk=tournament.pk).venue == "Gasthof Post"
