"""Start cards: each player's own link as a QR code, four to an A4 sheet, printed by the desk (all or one)."""

import io

import pypdf
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.pdf.conftest import URL_BASE, page_drawing, pdf_pages
from tournaments.models import ClubMembership
from tournaments.pdf.qr import qr_code
from tournaments.pdf.start_cards import render_start_cards
from tournaments.selectors.printing import start_cards_data
from tournaments.services.registration import registration_withdraw


@pytest.mark.django_db
def test_every_playing_registration_gets_a_card_with_its_own_link(played_round):
    tournament = played_round.tournament
    gone = tournament.registrations.order_by("start_number").last()
    registration_withdraw(registration=gone)
    data = start_cards_data(tournament, url_base=URL_BASE + "/")
    registrations = list(tournament.registrations.exclude(pk=gone.pk).order_by("start_number"))
    assert [c.start_number for c in data.cards] == [r.start_number for r in registrations]  # 20
    content = render_start_cards(data)
    reader = pypdf.PdfReader(io.BytesIO(content))
    assert len(reader.pages) == 5  # four to a sheet
    assert all((round(float(p.mediabox.width)), round(float(p.mediabox.height))) == (595, 842) for p in reader.pages)
    pages = pdf_pages(content)
    for index, registration in enumerate(registrations):
        page, lines = reader.pages[index // 4], pages[index // 4]
        url = f"{URL_BASE}/s/{registration.key}/"
        assert url == URL_BASE + reverse("tournaments:player", args=[registration.key])
        assert registration.player.name in lines and url in lines
        assert qr_code(url)[1].encode() in page_drawing(page)
        assert "This link is yours alone: do not pass it on." in lines
    assert all(gone.player.name not in page_lines for page_lines in pages)
    assert content == render_start_cards(start_cards_data(tournament, url_base=URL_BASE))


@pytest.mark.django_db
def test_the_desk_prints_all_cards_or_one_and_a_viewer_none(client, played_round):
    tournament = played_round.tournament
    desk = get_user_model().objects.create_user("tresen", password="pw")
    ClubMembership.objects.create(user=desk, club=tournament.club, role=ClubMembership.Role.DESK)
    client.force_login(desk)
    everyone = client.get(reverse("tournaments:start_cards", args=[tournament.slug]))
    assert everyone.status_code == 200 and everyone["Content-Type"] == "application/pdf"
    assert everyone["Cache-Control"] == "private, no-store"
    assert len(pypdf.PdfReader(io.BytesIO(everyone.content)).pages) == 6  # 21 players
    registration = tournament.registrations.get(start_number=7)
    one = client.get(reverse("tournaments:start_card", args=[tournament.slug, 7]))
    (lines,) = pdf_pages(one.content)
    assert registration.player.name in lines and f"http://testserver/s/{registration.key}/" in lines
    assert client.get(reverse("tournaments:start_card", args=[tournament.slug, 99])).status_code == 404
    desk_page = client.get(reverse("tournaments:desk", args=[tournament.slug])).content.decode()
    assert reverse("tournaments:start_cards", args=[tournament.slug]) in desk_page
    assert reverse("tournaments:start_card", args=[tournament.slug, 7]) in desk_page
    viewer = get_user_model().objects.create_user("schauer", password="pw")
    ClubMembership.objects.create(user=viewer, club=tournament.club, role=ClubMembership.Role.VIEWER)
    client.force_login(viewer)
    assert client.get(reverse("tournaments:start_cards", args=[tournament.slug])).status_code in (403, 404)
