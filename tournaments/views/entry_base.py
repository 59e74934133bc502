"""The entry page of one table, whichever way it is opened: the base the tablet's, the links' and paper mode's views share.

``views/entry.py`` (the tablet's private link tisch/<key>/), ``views/links.py`` (a table card's
all-evening link, a player's link) and ``views/paper.py`` (the organiser types a paper sheet) each
find the table and build an ``EntryMode`` (who enters, where the page's forms go); everything else is
here: the page's context, saving, correcting and deleting a game, the preview, a conflict. The views
keep no rules: the next game and its dealer, who sits out, the Kreuz pairs and which contracts are
dealt again come from ``scoring.rules`` (through ``selectors.entry``), the points from the engine.
Games are posted by static/js/entry.js (JSON answers, retried until the network is back) or, without
JavaScript, as a plain form (redirect after success, the page again with errors).
"""

import json
import uuid
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response
from django.utils.http import quote_etag
from django.utils.log import log_response
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View

from schafkopfrennen.polling import page_etag
from scoring.rules.seats import kreuz_pair, kreuz_pairs
from scoring.rules.table import redeal_contracts
from scoring.rules.table import sits_out as sitting_out_of

from ..forms_entry import (
    AUGEN_QUICK,
    BUTTONS_JSON,
    CONTRACTS,
    ERROR_SLOTS,
    MUSS,
    SIE,
    GameForm,
    error_slot,
    initial_from_hand,
    laufende_buttons,
)
from ..forms_tables import ReasonForm
from ..http import error_status
from ..models import Hand, Round, Table
from ..selectors.entry import EntrySheet, table_entry_sheet, table_entry_version
from ..services import hands as hand_services
from ..services.conflicts import hand_conflict_resolve
from ..services.errors import ServiceError

# What the preview says is still missing, by the engine's field name.
MISSING = {
    "contract": gettext_lazy("the game"),
    "declarer": gettext_lazy("who plays"),
    "partner": gettext_lazy("the partner"),
    "trump": gettext_lazy("the trump suit"),
    "augen": gettext_lazy("the Augen"),
    "won": gettext_lazy("won or lost"),
}


@dataclass
class EntryUrls:
    """Where the page's forms go: the tablet's own URLs or the organiser's paper-mode URLs."""

    page: str
    record: str
    preview: str
    game_prefix: str  # + "<number>/" opens a game for correction
    confirm: str = ""
    storage_key: str = ""
    queue: bool = False  # the tablet keeps games on the device and sends them in order (entry.js)
    manifest: str = ""
    service_worker: str = ""
    service_worker_scope: str = "/tisch/"
    polled: bool = False  # the page is a ``polled_page`` (the tablet's): a saved game's answer carries its ETag

    def game(self, number: int) -> str:
        return f"{self.game_prefix}{number}/"

    def delete(self, number: int) -> str:
        return f"{self.game_prefix}{number}/loeschen/"


@dataclass
class EntryMode:
    """Who enters: the players on the tablet, or an organiser on a laptop (paper mode)."""

    urls: EntryUrls
    organiser: bool = False
    user: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


def device_of(request: HttpRequest, form: GameForm | None = None) -> str:
    """Which device sent a change: the page's own device name and the browser."""
    label = (form.cleaned_data.get("device") if form is not None and hasattr(form, "cleaned_data") else "") or ""
    agent = request.META.get("HTTP_USER_AGENT", "")
    return " · ".join(part for part in (label.strip(), agent) if part)[:200]


def device_id_of(request: HttpRequest) -> str:
    """This browser's device id (a random one kept in its session: Django's session cookie, never the
    session key itself), recorded with a confirmation."""
    return request.session.setdefault("device_id", uuid.uuid4().hex)


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def hand_or_404(table: Table, number: int) -> Hand:
    hand = table.hands.filter(number=number).first()
    if hand is None:
        raise Http404("No such game")
    return hand


def _values(form: GameForm | None, initial: dict[str, Any]) -> dict[str, str]:
    """Each field's current value as text, for checking the right buttons."""
    if form is not None and form.is_bound:
        return {name: form.data.get(name, "") for name in form.fields}
    return {
        name: "" if value is None or value is False else ("on" if value is True else str(value))
        for name, value in initial.items()
    }


#: What the table enters when all passed, by the ruleset's all_pass (rules.md section 6).
ALL_PASS_BUTTON = {"muss": MUSS, "redeal": Hand.Contract.WEITER, "kreuz": Hand.Contract.KREUZ}


def visible_contracts(rules) -> list[tuple[str, str]]:
    """The contract buttons this ruleset plays: of Muss, thrown in and Kreuz only the one of its all_pass."""
    hidden = set(ALL_PASS_BUTTON.values()) - {ALL_PASS_BUTTON[rules.all_pass]}
    if not rules.sie_allowed:
        hidden.add(SIE)
    return [(value, label) for value, label in CONTRACTS if value not in hidden]


def kreuz_buttons(table: Table, dealer: int | None, names: dict[int, str]) -> list[dict[str, Any]]:
    """über Kreuz: a button for each of the deal's two pairs (``rules.seats.kreuz_pairs``), the Vorhand's first."""
    if dealer is None:
        return []
    first, second = kreuz_pairs(dealer, table.size)
    return [
        {"seat": pair[0], "seats": pair, "names": [names.get(s, "") for s in pair], "vorhand": pair is first}
        for pair in (first, second)
    ]


def page_context(
    request: HttpRequest,
    table: Table,
    mode: EntryMode,
    *,
    editing: Hand | None = None,
    form: GameForm | None = None,
    errors: dict[str, str] | None = None,
) -> dict[str, Any]:
    """What the table page and the paper page render: the sheet, the form, its buttons and URLs."""
    entry = table_entry_sheet(table)
    sheet = entry.sheet
    newest_first = entry.open_for_entry and not mode.organiser
    names = entry.names
    rows = [
        {
            "row": row,
            "url": mode.urls.game(row.number),
            "declarer": names.get(row.hand.declarer or 0, ""),
            "partner": names.get(row.partner or 0, ""),
        }
        for row in entry.rows
    ]
    if newest_first:
        rows.reverse()
    if editing is not None:
        number, dealer = editing.number, editing.dealer
        initial = initial_from_hand(editing)
    else:
        number, dealer = sheet.next_number, sheet.next_dealer
        initial = {"number": number, "laufende": 0, "kontra": 0}
    sits_out = sitting_out_of(dealer, table.size)
    pairs = kreuz_buttons(table, dealer, names) if entry.rules.all_pass == "kreuz" else []
    if pairs and not initial.get("pair"):
        initial["pair"] = pairs[0]["seat"]  # the Vorhand's pair, proposed
    preview = None
    if editing is not None and form is None:
        preview = preview_context(table, GameForm(initial, table_size=table.size), number=editing.number)
    return {
        "entry": entry,
        "sheet": sheet,
        "table": table,
        "tournament": entry.tournament,
        "rules": entry.rules,
        "mode": mode,
        "urls": mode.urls,
        "rows": rows,
        "newest_first": newest_first,
        "header_seats": [{"seat": s.seat, "name": s.name, "short": s.name.split(" ")[0]} for s in sheet.seats],
        "editing": editing,
        "number": number,
        "dealer": dealer,
        "sits_out": sits_out,
        "form_action": mode.urls.game(editing.number) if editing is not None else mode.urls.record,
        "delete_url": mode.urls.delete(editing.number) if editing is not None else "",
        # at a table that plays on with four the stored dealer is the empty seat: who deals is sheet.dealing
        "dealer_name": entry.names.get((sheet.dealing if editing is None and sheet.dealing else dealer) or 0, ""),
        "show_form": editing is not None
        or (
            entry.open_for_entry
            if not mode.organiser
            else (
                number is not None
                and table.paper_totals is None
                and sheet.round_status != Round.Status.DRAWN
                and not entry.closed_reason
            )
        ),
        "values": _values(form, initial),
        "errors": errors or {},
        "contracts": visible_contracts(entry.rules),
        "entry_buttons": BUTTONS_JSON,
        "suits": Hand.Suit.choices,
        "kreuz_pairs": pairs,
        "callable": [(s, label) for s, label in Hand.Suit.choices if s != Hand.Suit.HERZ],
        "called_cards": Hand.CalledCard.choices,
        "laufende_buttons": laufende_buttons(entry.rules),
        "augen_quick": AUGEN_QUICK,
        "keypad": ["1", "2", "3", "4", "5", "6", "7", "8", "9"],
        "preview": preview,
        "reason_needed": mode.organiser and sheet.round_status == Round.Status.CLOSED,
        "state": entry_state(table, entry, mode),
        **mode.extra,
    }


def entry_state(table: Table, entry: EntrySheet, mode: EntryMode) -> dict[str, Any]:
    """What entry.js needs to carry on while the network is down: the next game and who deals it.

    ``redeal`` / ``tie60``: the contracts after which the same dealer deals again, always / at 60:60
    (``rules.table.redeal_contracts``); otherwise the deal passes to the next seat. The points of a
    queued game come from the server's preview, never from the page.
    """
    sheet = entry.sheet
    always, at_60 = redeal_contracts(entry.rules.all_pass, entry.rules.kreuz_tie)
    return {
        "version": table_entry_version(table),
        "next": sheet.next_number or "",
        "dealer": sheet.next_dealer or "",
        "size": table.size,
        "required": sheet.games_required,
        "played": sheet.games_entered,
        "open": "1" if entry.open_for_entry and not mode.organiser else "",
        "names": json.dumps({str(seat): name for seat, name in entry.names.items()}),
        "totals": json.dumps({str(s.seat): s.total for s in sheet.seats}),
        "redeal": json.dumps(list(always)),
        "games": mode.urls.game_prefix,
        "tie60": json.dumps(list(at_60)),
    }


def preview_context(table: Table, form: GameForm, *, number: int | None) -> dict[str, Any]:
    """The preview box: each seat's points for this game from the rules engine, or what is missing or wrong."""
    record, errors = form.record_or_errors()
    context: dict[str, Any] = {"errors": errors, "state": "empty"}
    if record is None:
        context["state"] = "invalid"
        return context
    if not record.get("contract"):
        return context
    try:
        number, dealer, score = hand_services.hand_preview(table=table, record=record, number=number)
    except ServiceError as err:
        if err.code == "missing" and err.field in MISSING:
            context.update(state="missing", missing=MISSING[err.field])
        else:
            context.update(state="invalid", message=err.message)
            context["errors"] = {error_slot(err.field): err.message}
        return context
    names = {s.number: s.registration.player.name for s in table.seats.select_related("registration__player")}
    seats = [
        {
            "seat": seat,
            "name": names.get(seat, ""),
            "short": names.get(seat, "").split(" ")[0],
            "points": points,
            "sits_out": seat == sitting_out_of(dealer, table.size),
            "plays": seat in (record.get("declarer"), score.partner),
            "reuegeld": score.reuegeld.get(seat, 0),
            "weitergeld": score.weitergeld.get(seat, 0),
        }
        for seat, points in sorted(score.points.items())
    ]
    augen = record.get("augen")
    context["points_json"] = json.dumps({str(seat): points for seat, points in score.points.items()})
    context.update(
        state="ok",
        score=score,
        seats=seats,
        number=number,
        augen=augen,
        gegner=120 - augen if isinstance(augen, int) and 0 <= augen <= 120 else None,
        contract=record.get("contract"),
        muss=bool(record.get("muss")),
        tout=bool(record.get("tout")),
        sie=bool(record.get("sie")),
        declarer_name=names.get(record.get("declarer") or 0, ""),
        weitergeld=max(score.weitergeld.values(), default=0) if score.thrown_in else 0,
        kreuz_pair=kreuz_pair(score.declarer, table.size, sitting_out_of(dealer, table.size))
        if record.get("contract") == Hand.Contract.KREUZ
        else None,
    )
    return context


def render_page(
    request: HttpRequest,
    table: Table,
    mode: EntryMode,
    *,
    template: str = "entry/table.html",
    status: int = 200,
    **kwargs: Any,
) -> HttpResponse:
    return render(request, template, page_context(request, table, mode, **kwargs), status=status)


def render_page_if_changed(
    request: HttpRequest, table: Table, mode: EntryMode, *, signature: str = "", **kwargs: Any
) -> HttpResponse:
    """render_page, or a bare 304 while the table (and ``signature``, e.g. the round a link follows) is unchanged.

    entry.js polls the page it is on every few seconds with the ETag it got; a hall full of phones
    then costs a handful of queries per poll instead of a rendered sheet.
    """
    etag = quote_etag(f"{table_entry_version(table)}-{signature}-{request.LANGUAGE_CODE}")
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = render_page(request, table, mode, **kwargs)
        response["ETag"] = etag
    return response


def done(request: HttpRequest, url: str, message: str) -> HttpResponse:
    """A saved change: JSON for entry.js, a redirect with a message without JavaScript."""
    if _wants_json(request):
        return JsonResponse({"ok": True, "redirect": url, "message": message})
    messages.success(request, message)
    return redirect(url)


def failed(request: HttpRequest, errors: dict[str, str], *, status: int, code: str, rerender) -> HttpResponse:
    """A refused change: JSON errors by field for entry.js, else the page again with the errors next to the fields."""
    if _wants_json(request):
        return JsonResponse(
            {"errors": {slot: [message] for slot, message in errors.items()}, "code": code}, status=status
        )
    return rerender(errors, status)


def submit_game(
    request: HttpRequest, table: Table, mode: EntryMode, *, hand: Hand | None, template: str = "entry/table.html"
) -> HttpResponse:
    """Record a new game (``hand`` None) or correct ``hand`` with the posted form."""
    form = GameForm(request.POST, table_size=table.size)

    def rerender(errors: dict[str, str], status: int) -> HttpResponse:
        return render_page(
            request, table, mode, template=template, status=status, editing=hand, form=form, errors=errors
        )

    record, errors = form.record_or_errors()
    if record is None:
        return failed(request, errors, status=400, code="invalid", rerender=rerender)
    data = form.cleaned_data
    kreuz = record.get("contract") == Hand.Contract.KREUZ
    device = device_of(request, form)
    try:
        if hand is None:
            saved, _created = hand_services.hand_record(
                table=table,
                record=record,
                client_id=data.get("client_id") or uuid.uuid4(),
                number=data.get("number"),
                by=mode.user,
                device=device,
                organiser=mode.organiser,
                reason=data.get("reason") or "",
            )
            message = _("Game %(n)d saved.") % {"n": saved.number}
        else:
            hand_services.hand_correct(
                hand=hand,
                record=record,
                by=mode.user,
                device=device,
                organiser=mode.organiser,
                reason=data.get("reason") or "",
            )
            message = _("Game %(n)d corrected.") % {"n": hand.number}
    except ServiceError as err:
        slot = "pair" if kreuz and err.field in ("declarer", "partner") else error_slot(err.field)
        return failed(request, {slot: err.message}, status=error_status(err), code=err.code, rerender=rerender)
    if hand is None and mode.urls.queue and _wants_json(request):
        return saved_with_parts(request, table, mode, message)
    return done(request, mode.urls.page, message)


def saved_with_parts(request: HttpRequest, table: Table, mode: EntryMode, message: str) -> JsonResponse:
    """A new game saved from the table's page: the page's changing parts as they are now (entry.js swaps them
    in, no second request) and the ETag its next unchanged poll sends."""
    context = page_context(request, table, mode)
    parts = render_to_string("entry/_parts.html", context, request=request)
    etag = page_etag(request, context["state"]["version"]) if mode.urls.polled else None
    return JsonResponse({"ok": True, "redirect": mode.urls.page, "message": message, "parts": parts, "etag": etag})


def delete_game(
    request: HttpRequest, table: Table, mode: EntryMode, hand: Hand, template: str = "entry/table.html"
) -> HttpResponse:
    form = ReasonForm(request.POST)
    try:
        if not form.is_valid():
            raise form.refusal()
        hand_services.hand_delete(
            hand=hand,
            by=mode.user,
            device=device_of(request),
            organiser=mode.organiser,
            reason=form.cleaned_data["reason"],
        )
    except ServiceError as err:
        if _wants_json(request):
            return JsonResponse({"errors": err.as_dict(), "code": err.code}, status=error_status(err))
        return render_page(
            request,
            table,
            mode,
            template=template,
            status=error_status(err),
            editing=hand,
            errors={error_slot(err.field): err.message},
        )
    return done(request, mode.urls.page, _("Game %(n)d deleted.") % {"n": hand.number})


def preview_response(request: HttpRequest, table: Table) -> HttpResponse:
    """The preview box for htmx, with every field's error slot swapped out of band (cleared or filled)."""
    form = GameForm(request.POST, table_size=table.size)
    number = form.cleaned_data.get("number") if form.is_valid() else None
    context = preview_context(table, form, number=number)
    slots = [{"id": slot, "message": context["errors"].get(slot, "")} for slot in ERROR_SLOTS]
    return render(request, "entry/_preview.html", {"p": context, "slots": slots})


def conflict_response(request: HttpRequest, table: Table, mode: EntryMode, number: int) -> HttpResponse:
    """Two versions of game ``number``: keep the stored one or this device's (the posted form), the other becomes a revision."""
    hand = hand_or_404(table, number)
    form = GameForm(request.POST, table_size=table.size)
    record, errors = form.record_or_errors()
    if record is None:
        return JsonResponse(
            {"errors": {slot: [message] for slot, message in errors.items()}, "code": "invalid"}, status=400
        )
    client_id = form.cleaned_data.get("client_id")
    if client_id is None:
        return JsonResponse(
            {"errors": {"client_id": [_("This game has no client id.")]}, "code": "invalid"}, status=400
        )
    try:
        hand_conflict_resolve(
            hand=hand,
            record=record,
            keep=request.POST.get("keep", ""),
            client_id=client_id,
            device=device_of(request, form),
        )
    except ServiceError as err:
        return JsonResponse({"errors": {err.field: [err.message]}, "code": err.code}, status=error_status(err))
    return JsonResponse(
        {
            "ok": True,
            "redirect": mode.urls.page,
            "message": _("Game %(n)d: the chosen version is kept.") % {"n": number},
        }
    )


class EntryView(View):
    """One action of a table's entry page, shared by the tablet's link, the evening's links and paper mode.

    The URL conf names the action (``as_view(action="record")``); a subclass says how the table is found
    (``get_table``, its 404s and permissions) and who enters through which URLs (``get_mode``). Everything
    else is here and the same for all: the page, saving, correcting and deleting a game, the preview and
    a conflict, each through the functions above (the services decide, the engine scores, no rules here).
    """

    #: The HTTP methods each action answers (anything else: 405, as ``require_http_methods`` answers).
    ACTIONS: ClassVar[dict[str, tuple[str, ...]]] = {
        "page": ("GET",),
        "record": ("POST",),
        "game": ("GET", "POST"),
        "delete": ("POST",),
        "preview": ("POST",),
        "conflict": ("POST",),
    }
    action = "page"
    template_name = "entry/table.html"
    closed_read_only = True  # a game of a closed round opens the page, not the form (paper mode corrects it)

    def get_table(self) -> Table:
        raise NotImplementedError

    def get_mode(self, table: Table) -> EntryMode:
        raise NotImplementedError

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        allowed = self.ACTIONS[self.action]
        if request.method not in allowed:
            response = HttpResponseNotAllowed(allowed)
            log_response(
                "Method Not Allowed (%s): %s", request.method, request.path, response=response, request=request
            )
            return response
        return getattr(self, self.action)(request, **kwargs)

    def page(self, request: HttpRequest, **kwargs: Any) -> HttpResponse:
        table = self.get_table()
        return render_page(request, table, self.get_mode(table), template=self.template_name)

    def record(self, request: HttpRequest, **kwargs: Any) -> HttpResponse:
        table = self.get_table()
        return submit_game(request, table, self.get_mode(table), hand=None, template=self.template_name)

    def game(self, request: HttpRequest, **kwargs: Any) -> HttpResponse:
        """A game opened for correction: the same form, prefilled; POST saves the correction."""
        table = self.get_table()
        hand = hand_or_404(table, kwargs["number"])
        mode = self.get_mode(table)
        if request.method == "POST":
            return submit_game(request, table, mode, hand=hand, template=self.template_name)
        if self.closed_read_only and (table.round.status != Round.Status.PUBLISHED or table.closed_reason):
            return redirect(mode.urls.page)  # a closed round's sheet is read-only
        return render_page(request, table, mode, template=self.template_name, editing=hand)

    def delete(self, request: HttpRequest, **kwargs: Any) -> HttpResponse:
        table = self.get_table()
        return delete_game(
            request, table, self.get_mode(table), hand_or_404(table, kwargs["number"]), template=self.template_name
        )

    def preview(self, request: HttpRequest, **kwargs: Any) -> HttpResponse:
        return preview_response(request, self.get_table())

    def conflict(self, request: HttpRequest, **kwargs: Any) -> HttpResponse:
        table = self.get_table()
        return conflict_response(request, table, self.get_mode(table), kwargs["number"])
