"""The private links of the evening: a table card's all-evening link (tk/<key>/) and a player's page (s/<key>/).

A table link resolves its key to that table number's table in the current round and renders the
very entry page of ``entry.py`` (whatever the tablet page does, the link does too), with the page's
own URLs under the link: after a saved game the table stays on the all-evening link. The page's
games go to ``tk/<key>/<round>/...``, the round it was opened in, so a game kept on the device
during an outage never lands in the next round. A light poll (static/js/follow.js) of
``tk/<key>/stand/`` reloads the page when the round changes.

A player's key opens his own page and, from it, the entry page of the table he sits at now
(``s/<key>/tisch/``, its games under ``s/<key>/<round>/...`` in the same way) and nothing else.
"""

import threading

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from schafkopfrennen import forget
from schafkopfrennen.polling import polled_page

from ..access import DESK, tournament_for
from ..http import WrongKey
from ..models import Table
from ..params import parse_int
from ..pdf.start_cards import render_start_cards
from ..selectors import links
from ..selectors import printing as print_selectors
from ..services import hands as hand_services
from ..services.errors import ServiceError
from . import entry_app
from . import entry_base as entry
from .entry_base import EntryMode, EntryUrls

POLL_SECONDS = 10  # how often an open link asks whether the round changed
TABLE, PLAYER = "table", "player"
# kind -> (the table of (key, round), the page's URL name, the round's URL name)
KINDS = {
    TABLE: (links.table_for_link, "tournaments:table_link", "tournaments:table_link_round"),
    PLAYER: (links.table_for_player, "tournaments:player_table", "tournaments:player_table_round"),
}


def link_mode(table: Table, key: str, kind: str = TABLE) -> EntryMode:
    """The tablet's entry mode with the URLs under the private link, bound to the table's round."""
    _resolve, page, round_name = KINDS[kind]
    base = reverse(round_name, args=[key, table.round.number])  # + spiel/, vorschau/, bestaetigen/
    return EntryMode(
        urls=EntryUrls(
            page=reverse(page, args=[key]),
            record=base + "spiel/",
            preview=base + "vorschau/",
            game_prefix=base + "spiel/",
            confirm=base + "bestaetigen/",
            storage_key=f"skr:{table.entry_key}",  # the queue belongs to the round's table, as on its own link
            queue=True,
            service_worker=reverse("tournaments:entry_service_worker"),
            service_worker_scope=reverse(page, args=[key]).removesuffix("tisch/") if kind == PLAYER else "/tk/",
            manifest=reverse("tournaments:table_link_manifest", args=[key]) if kind == TABLE else "",
        )
    )


def _follow(url: str, signature: str) -> dict:
    return {"url": url, "signature": signature, "every": POLL_SECONDS}


def _table_or_404(kind: str, key: str, round_number: int) -> Table:
    table = KINDS[kind][0](key, round_number)
    if table is None:
        raise Http404("No such table")
    return table


def _link_or_404(key: str) -> links.TableLink:
    link = links.table_link_resolve(key)
    if link is None:
        raise WrongKey("No such table link")
    return link


def _registration_or_404(key: str):
    registration = links.registration_for_key(key)
    if registration is None:
        raise WrongKey("No such player")
    return registration


# --- the pages ------------------------------------------------------------------------------------------


@never_cache
@require_GET
def table_link(request: HttpRequest, key: str) -> HttpResponse:
    """The table card's QR code: this number's table now, or what the table waits for."""
    link = _link_or_404(key)
    if link.state == links.TableLink.REVOKED:  # gone for good: the organiser printed new table cards
        return render(request, "entry/link_waiting.html", {"link": link, "tournament": link.tournament}, status=410)
    follow = _follow(reverse("tournaments:table_link_status", args=[key]), link.signature)
    if link.table is not None and link.state != links.TableLink.MISSING:
        mode = link_mode(link.table, key)
        mode.extra.update(link=link, follow=follow)
        return entry.render_page_if_changed(
            request, link.table, mode, signature=link.signature, template="entry/link.html"
        )
    return render(request, "entry/link_waiting.html", {"link": link, "tournament": link.tournament, "follow": follow})


@never_cache
@require_GET
def table_link_status(request: HttpRequest, key: str) -> JsonResponse:
    """What the open page polls: it reloads when ``signature`` changes."""
    link = _link_or_404(key)
    return JsonResponse(
        {
            "signature": link.signature,
            "state": link.state,
            "round": link.round.number if link.round else None,
            "table": link.number,
        }
    )


_ROUND_HTML: dict[tuple, tuple[links.PlayerRound, str]] = {}  # PlayerRound.kept_as + (legend,) -> (it, its section)
_ROUND_HTML_LOCK = threading.Lock()
forget.keeps(_ROUND_HTML.clear)  # rendered names: an erase empties it
_ROUND_HTML_KEPT = 4096  # a round's HTML is a few KB: this bounds the memory of each process


def _round_html(played: links.PlayerRound, legend: bool) -> str:
    """One round's section of a player's page, rendered once per table version, seat and language.

    A changed page is mostly his place in the standings moving: his rounds' games are as they were
    and their rendering (most of the page's work) is kept with the very round the selectors keep
    (``kept_as``; a round read anew is rendered anew).
    """
    key = (*played.kept_as, legend)
    found = _ROUND_HTML.get(key)
    if found is not None and found[0] is played:
        return found[1]
    html = render_to_string("public/_player_round.html", {"r": played, "legend": legend})
    if played.kept_as:
        with _ROUND_HTML_LOCK:  # a threaded server (runserver) shares the dict between requests
            _ROUND_HTML[key] = played, html
            while len(_ROUND_HTML) > _ROUND_HTML_KEPT:
                _ROUND_HTML.pop(next(iter(_ROUND_HTML)))
    return html


@require_GET
@polled_page(links.player_page_state)  # an unchanged poll is a 304 before anything is rendered
def player(request: HttpRequest, key: str) -> HttpResponse:
    """The player's own page: "Round 2: table 7, seat 3", his table mates, his games, his place."""
    registration = _registration_or_404(key)
    page = links.player_page(registration)
    follow = _follow(reverse("tournaments:player_status", args=[key]), page.signature)
    last = len(page.rounds) - 1  # the legend follows the oldest round's games
    rounds_html = [_round_html(r, legend=i == last) for i, r in enumerate(page.rounds)]
    return render(
        request,
        "public/player.html",
        {
            "page": page,
            "tournament": page.tournament,
            "rounds_html": rounds_html,
            "registration": registration,
            "follow": follow,
            "key": key,
        },
    )


@never_cache
@require_GET
def player_status(request: HttpRequest, key: str) -> JsonResponse:
    """What his open page polls (static/js/follow.js): it reloads when ``signature`` changes. One small read."""
    signature = links.player_signature(key)
    if signature is None:
        raise WrongKey("No such player")
    return JsonResponse({"signature": signature})


@never_cache
@require_GET
def player_table(request: HttpRequest, key: str) -> HttpResponse:
    """The entry page of the table he sits at now."""
    page = links.player_page(_registration_or_404(key))
    if page.current is None:
        messages.error(request, _("You have no table in the current round."))
        return redirect("tournaments:player", key=key)
    mode = link_mode(page.current.table, key, PLAYER)
    mode.extra.update(follow=_follow(reverse("tournaments:player_status", args=[key]), page.signature))
    return entry.render_page_if_changed(
        request, page.current.table, mode, signature=page.signature, template="entry/link.html"
    )


@require_POST
def player_confirm(request: HttpRequest, key: str) -> HttpResponse:
    """He confirms his own table's sheet from his own page."""
    page = links.player_page(_registration_or_404(key))
    here = reverse("tournaments:player", args=[key])
    if page.current is None:
        messages.error(request, _("You have no table in the current round."))
        return redirect(here)
    return _confirm(request, page.current.table, here, str(page.current.seat))


# --- the entry page's actions under a link, bound to a round (kind: TABLE or PLAYER from the URL) ----------


@require_GET
def link_round(request: HttpRequest, key: str, round: int, kind: str) -> HttpResponse:
    """The round's part of the link on its own (entry.js goes there after a conflict): the link's page."""
    _table_or_404(kind, key, round)
    return table_link(request, key) if kind == TABLE else player_table(request, key)


class LinkEntry(entry.EntryView):
    """The entry page's actions under a link (``kind``: TABLE or PLAYER from the URL), bound to a round."""

    template_name = "entry/link.html"

    def get_table(self) -> Table:
        return _table_or_404(self.kwargs["kind"], self.kwargs["key"], self.kwargs["round"])

    def get_mode(self, table: Table) -> EntryMode:
        return link_mode(table, self.kwargs["key"], self.kwargs["kind"])


@require_GET
def table_link_manifest(request: HttpRequest, key: str) -> HttpResponse:
    """Installing the table card's page puts the table number on the home screen, for the whole evening."""
    link = _link_or_404(key)
    name = _("Table %(n)d") % {"n": link.number}
    return entry_app.manifest_response(
        request, name=name, tournament=link.tournament, page=reverse("tournaments:table_link", args=[key])
    )


@require_POST
def link_confirm(request: HttpRequest, key: str, round: int, kind: str) -> HttpResponse:
    table = _table_or_404(kind, key, round)
    return _confirm(request, table, link_mode(table, key, kind).urls.page, request.POST.get("seat", ""))


def _confirm(request: HttpRequest, table: Table, page: str, seat_text: str) -> HttpResponse:
    seat = parse_int(seat_text, min_value=1, max_value=5)
    if seat is None:
        messages.error(request, _("Tap your name to confirm."))
        return redirect(page)
    try:
        hand_services.table_confirm(
            table=table, seat=seat, device=entry.device_of(request), device_id=entry.device_id_of(request)
        )
    except ServiceError as err:
        messages.error(request, err.message)
        return redirect(page)
    return redirect(f"{page}#confirm")


# --- the desk prints the start cards --------------------------------------------------------------------


def _start_cards_pdf(request: HttpRequest, slug: str, start_number: int | None, filename: str) -> HttpResponse:
    tournament = tournament_for(request.user, slug, DESK)
    data = print_selectors.start_cards_data(
        tournament, start_number=start_number, url_base=request.build_absolute_uri("/")
    )
    if not data.cards:
        raise Http404("No such start number")
    response = HttpResponse(render_start_cards(data), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"  # the QR codes hold the players' private links
    return response


@login_required
@require_GET
def start_cards(request: HttpRequest, slug: str) -> HttpResponse:
    """Every player's start card (withdrawn players left out), four to an A4 sheet."""
    return _start_cards_pdf(request, slug, None, f"startkarten-{slug}.pdf")


@login_required
@require_GET
def start_card(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One player's start card (a lost card printed again)."""
    return _start_cards_pdf(request, slug, number, f"startkarte-{slug}-{number}.pdf")
