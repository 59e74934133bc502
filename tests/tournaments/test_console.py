"""The organiser console: tournament setup and rules, the club's player database, the control panel."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments.models import Club, ClubMembership, Player, Tournament
from tournaments.services.errors import ServiceError
from tournaments.services.players import players_import_csv, players_merge
from tournaments.services.rounds import round_draw, round_publish

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def organiser(client):
    club = ClubFactory(name="Schafkopffreunde Musterdorf")
    user = get_user_model().objects.create_user("orga", password="pw-12345-x")
    ClubMembership.objects.create(user=user, club=club, role=ClubMembership.Role.ORGANISER)
    client.force_login(user)
    return club


def test_csv_import_refuses_a_file_with_a_bad_row_naming_the_line_and_imports_nothing(organiser):
    text = "Vorname;Nachname;Verein\nAnna;Huber;\nJosef;;\nMaria;Maier;SK Hinterdorf\n;;\nXaver;;x\n"
    with translation.override("en"), pytest.raises(ServiceError) as exc:
        players_import_csv(club=organiser, text=text)
    assert exc.value.field == "file"
    assert "line 3" in exc.value.message and "line 6" in exc.value.message
    assert Player.objects.count() == 0


def test_csv_import_names_the_line_a_record_starts_on_after_a_value_spanning_lines(organiser):
    text = (
        "Vorname;Nachname;Kontakt\n"
        'Anna;Huber;"Hauptstraße 1\n12345 Musterdorf"\n'  # lines 2-3: one record
        "Josef;;\n"  # line 4: no last name
        'Maria;;"Tel.\n0171 1234567"\n'
    )  # lines 5-6: no last name
    with translation.override("en"), pytest.raises(ServiceError) as exc:
        players_import_csv(club=organiser, text=text)
    assert exc.value.message == "line 4: the name is missing; line 5: the name is missing"
    assert Player.objects.count() == 0


def test_csv_import_of_a_clean_file(organiser):
    text = "name,club,contact\nAnna Huber,,anna@example.org\nJosef Bauer,schafkopffreunde  musterdorf,\nAnna Huber,,\n"
    created, known = players_import_csv(club=organiser, text=text)
    assert (created, known) == (2, 1)
    assert Player.objects.get(last_name="Bauer").club == Player.objects.get(last_name="Huber").club == organiser


def test_csv_import_refuses_a_row_naming_another_club_and_writes_nothing_into_it(organiser):
    """Issue 33 (several clubs on one server): the club page's import files players only in its own club."""
    other = ClubFactory(name="SK Hinterdorf")
    text = "name,club\nAnna Huber,\nJosef Bauer,SK Hinterdorf\nSepp Maier,Neuer Verein\n"
    with translation.override("en"), pytest.raises(ServiceError) as exc:
        players_import_csv(club=organiser, text=text)
    assert exc.value.field == "file"
    assert exc.value.message == (
        "line 3: SK Hinterdorf is not this club; a club imports only its own players; "
        "line 4: Neuer Verein is not this club; a club imports only its own players"
    )
    assert Player.objects.count() == 0 and not other.players.exists()
    assert not Club.objects.filter(name="Neuer Verein").exists()


def test_csv_import_page_shows_the_error(client, organiser):
    upload = SimpleUploadedFile("spieler.csv", b"Vorname,Nachname\nAnna,\n")
    page = client.post(f"/o/verein/{organiser.pk}/import/", {"file": upload}, **EN)
    assert page.status_code == 400  # a form refused: 400, not 200
    assert "line 2: the name is missing" in page.content.decode()
    assert Player.objects.count() == 0


def test_merge_moves_registrations_and_refuses_two_people_in_one_tournament(organiser):
    a, b = PlayerFactory(club=organiser, last_name="Huber"), PlayerFactory(club=organiser, last_name="Huber")
    reg = RegistrationFactory(player=b)
    kept = players_merge(keep=a, remove=b)
    reg.refresh_from_db()
    assert reg.player == kept == a and not Player.objects.filter(pk=b.pk).exists()
    c = PlayerFactory(club=organiser)
    RegistrationFactory(tournament=reg.tournament, player=c, start_number=99)
    with pytest.raises(ServiceError) as exc:
        players_merge(keep=a, remove=c)
    assert exc.value.field == "remove" and Player.objects.filter(pk=c.pk).exists()


def test_new_tournament_from_a_preset(client, organiser):
    response = client.post(
        "/o/neu/",
        {
            "club": organiser.pk,
            "name": "Frühjahrsrennen 2027",
            "slug": "",
            "date": "2027-03-20",
            "venue": "Post",
            "entry_fee": "12.50",
            "payout_percent": "80",
            "preset": "sechs_zwei",
        },
        **EN,
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(slug="fruehjahrsrennen-2027")  # German transliteration: ü → ue
    assert tournament.entry_fee_cents == 1250 and tournament.rules["solo_base"] == 2


def test_a_new_short_name_is_transliterated_the_german_way(client, organiser):
    response = client.post(
        "/o/neu/",
        {
            "club": organiser.pk,
            "name": "Großes Kärwa-Rennen Öd",
            "slug": "",
            "date": "2027-07-20",
            "venue": "Post",
            "entry_fee": "10",
            "payout_percent": "100",
            "preset": "default",
        },
        **EN,
    )
    assert response.status_code == 302
    assert Tournament.objects.filter(slug="grosses-kaerwa-rennen-oed").exists()


def test_rules_form_error_names_the_key_and_nothing_changes(client, organiser):
    tournament = TournamentFactory(club=organiser)
    form = {**_rules_post(tournament), "games_per_round": "30"}
    page = client.post(f"/o/{tournament.slug}/einstellungen/", form, **EN)
    assert page.status_code == 400
    errors = page.context["rules_form"].errors
    assert "games_per_round" in errors
    tournament.refresh_from_db()
    assert tournament.rules["games_per_round"] == 32


def test_rules_save_and_worked_example(client, organiser):
    tournament = TournamentFactory(club=organiser)
    form = {**_rules_post(tournament), "solo_base": "2"}
    assert client.post(f"/o/{tournament.slug}/einstellungen/", form).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rules["solo_base"] == 2
    example = client.post(f"/o/{tournament.slug}/einstellungen/beispiele/", {**form, "solo_base": "5"}).content.decode()
    assert "+27" in example and "−9" in example  # won solo, 3 Laufende, Schneider under 5 base


def test_rules_are_locked_once_play_started(client, organiser):
    tournament = TournamentFactory(club=organiser)
    for _ in range(4):
        RegistrationFactory(tournament=tournament)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    round_publish(round=rnd)
    page = client.post(f"/o/{tournament.slug}/einstellungen/", {**_rules_post(tournament), "solo_base": "2"}, **EN)
    assert "Play has started" in page.content.decode()
    tournament.refresh_from_db()
    assert tournament.rules["solo_base"] == 5


def test_copy_for_next_year(client, organiser):
    tournament = TournamentFactory(club=organiser, rules={"solo_base": 2}, venue="Post")
    response = client.post(
        f"/o/{tournament.slug}/kopieren/", {"name": "Rennen 2027", "slug": "rennen-2027", "date": "2027-11-20"}
    )
    assert response.status_code == 302
    copy = Tournament.objects.get(slug="rennen-2027")
    assert copy.ruleset == tournament.ruleset and copy.venue == "Post" and copy.date == datetime.date(2027, 11, 20)
    assert copy.registrations.count() == 0


def test_control_panel_shows_tables_and_warnings(client):
    call_command("demo", allow_without_debug=True)
    client.login(username="organisator", password="herbstrennen-demo")
    page = client.get("/o/herbstrennen/", **EN)
    body = page.content.decode()
    assert page.status_code == 200
    assert 'data-testid="tile-1-1"' in body and "20/40 games" in body and "16/32 games" in body
    from django.utils import timezone

    later = timezone.now() + datetime.timedelta(minutes=20)
    from tournaments.selectors.console import round_panel

    panel = round_panel(Tournament.objects.get(slug="herbstrennen").rounds.get(), now=later)
    assert all(tile.quiet for tile in panel.tiles)


def test_control_panel_offers_the_print_pack_of_a_drawn_round_to_those_who_may_print(
    client, organiser, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    tournament = TournamentFactory(club=organiser)
    for _ in range(4):
        RegistrationFactory(tournament=tournament)
    round_draw(tournament=tournament, seed=1)
    print_url = reverse("tournaments:print_round", args=[tournament.slug, 1])
    link = f'href="{print_url}" data-testid="print-1"'

    panel = client.get(f"/o/{tournament.slug}/", **EN).content.decode()
    polled = client.get(f"/o/{tournament.slug}/", HTTP_HX_REQUEST="true", **EN).content.decode()
    assert link in panel and link in polled and 'data-testid="publish-1"' in panel
    page = client.get(print_url, **EN)
    assert page.status_code == 200 and "printing/round.html" in [t.name for t in page.templates]

    helpers = {}
    for role in (ClubMembership.Role.DESK, ClubMembership.Role.VIEWER):
        user = get_user_model().objects.create_user(f"helper-{role}", password="pw-12345-x")
        ClubMembership.objects.create(user=user, club=organiser, role=role)
        helpers[role] = Client()
        helpers[role].force_login(user)
    desk = helpers[ClubMembership.Role.DESK]
    assert link in desk.get(f"/o/{tournament.slug}/", **EN).content.decode()
    assert link in desk.get(reverse("tournaments:rounds", args=[tournament.slug]), **EN).content.decode()
    assert desk.get(print_url).status_code == 200
    viewer = helpers[ClubMembership.Role.VIEWER]
    assert print_url not in viewer.get(f"/o/{tournament.slug}/", **EN).content.decode()
    assert viewer.get(print_url).status_code == 404


def _rules_post(tournament) -> dict:
    from tournaments.forms_setup import RulesForm

    data = {"rules": "1"}
    for key, value in RulesForm.initial_from(tournament.rules).items():
        if isinstance(value, bool):
            if value:
                data[key] = "on"
        elif value is None:
            data[key] = ""
        else:
            data[key] = str(value)
    return data


def test_club_logo_upload(client, organiser, tmp_path, settings):
    import io

    from PIL import Image

    settings.MEDIA_ROOT = tmp_path
    buffer = io.BytesIO()
    Image.new("RGB", (40, 20), "darkgreen").save(buffer, "PNG")
    upload = SimpleUploadedFile("logo.png", buffer.getvalue(), content_type="image/png")
    response = client.post(
        f"/o/verein/{organiser.pk}/stammdaten/", {"name": organiser.name, "town": "Musterdorf", "logo": upload}
    )
    assert response.status_code == 302
    organiser.refresh_from_db()
    assert organiser.logo.name.startswith("logos/") and organiser.town == "Musterdorf"
    bad = SimpleUploadedFile("logo.png", b"not an image", content_type="image/png")
    page = client.post(f"/o/verein/{organiser.pk}/stammdaten/", {"name": organiser.name, "logo": bad}, **EN)
    assert page.status_code == 400 and "logo" in page.context["club_form"].errors


def test_kreuz_statt_muss_preset_rules_form_and_worked_examples(client, organiser):
    response = client.post(
        "/o/neu/",
        {
            "club": organiser.pk,
            "name": "Kreuzrennen",
            "slug": "kreuz",
            "date": "2027-03-20",
            "venue": "Post",
            "entry_fee": "10",
            "payout_percent": "100",
            "preset": "kreuz_statt_muss",
        },
        **EN,
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(slug="kreuz")
    assert (tournament.rules["all_pass"], tournament.rules["kreuz_tie"]) == ("kreuz", "lost")
    page = client.get(f"/o/{tournament.slug}/einstellungen/", **EN).content.decode()
    assert "Kreuz 1+3 won with 72" in page and 'value="kreuz" selected' in page

    form = {**_rules_post(tournament), "kreuz_tie": "replay"}
    assert client.post(f"/o/{tournament.slug}/einstellungen/", form).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rules["kreuz_tie"] == "replay"
    example = client.post(f"/o/{tournament.slug}/einstellungen/beispiele/", form, **EN)
    examples = dict(example.context["examples"])
    assert examples["Kreuz 1+3 won with 72"] == (1, -1, 1, -1)
    assert examples["Kreuz 1+3 with 60:60"] == (0, 0, 0, 0)  # thrown in and dealt again
    lost = client.post(f"/o/{tournament.slug}/einstellungen/beispiele/", {**form, "kreuz_tie": "lost"}, **EN)
    assert dict(lost.context["examples"])["Kreuz 1+3 with 60:60"] == (-1, 1, -1, 1)
    bad = client.post(f"/o/{tournament.slug}/einstellungen/", {**form, "kreuz_tie": "draw"}, **EN)
    assert "kreuz_tie" in bad.context["rules_form"].errors


def test_rules_stored_before_kreuz_existed_open_in_the_form(client, organiser):
    tournament = TournamentFactory(club=organiser)
    rules = dict(tournament.rules)
    rules.pop("kreuz_tie", None)
    Tournament.objects.filter(pk=tournament.pk).update(rules=rules)
    page = client.get(f"/o/{tournament.slug}/einstellungen/", **EN)
    assert page.status_code == 200 and page.context["rules_form"].initial["kreuz_tie"] == "lost"
