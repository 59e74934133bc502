"""Reads for the printed documents: the plain data each PDF of ``tournaments.pdf`` renders from.

Every builder reads a round in a handful of queries, however many tables it has; the documents of
the tournament's end (standings, prize list, cash list, certificates) read the standings snapshot
through ``selectors.standings``. Entry links are
absolute: ``url_base`` is the site's address (``request.build_absolute_uri("/")`` in a view).
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable

from django.conf import settings
from django.db.models import Count, Max, Sum
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from scoring.rules.collation import name_initial, name_sort_key
from scoring.rules.table import dealer_for, sheet_slots
from scoring.storage import POINTS_COLUMNS, RECORD_COLUMNS, stored_score

from ..links import table_link_key
from ..models import Hand, Prize, Round, Seat, Table, Tournament
from ..pdf.cash_list import CashLine, CashListDocument, TischbesterLine
from ..pdf.certificates import Certificate, Certificates
from ..pdf.drawing import money
from ..pdf.lists import ListHead
from ..pdf.pack import PrintPackDocument
from ..pdf.prize_list import AwardLine, PrizeLine, PrizeListDocument
from ..pdf.score_sheet import ScoreSheet, SheetPlayer, SheetRow
from ..pdf.seat_list import SeatList, SeatListEntry, SeatListSeat, SeatListTable
from ..pdf.standings import Standings, StandingsLine, StandingsSection
from ..pdf.start_cards import StartCard, StartCards
from ..pdf.table_cards import TableCard, TableCards
from .public import namesakes
from .standings import cash_list, lot_tie_text, name_with_substitute, prize_list, standings_view, tie_note
from .tables import hand_partner, seat_changes, tournament_games_required

DEFAULT_URL_BASE = "http://127.0.0.1:8000"
ENTRY_PATH = "/tisch/{key}/"
TABLE_LINK_PATH = "/tk/{key}/"  # tournaments:table_link
PLAYER_PATH = "/s/{key}/"  # tournaments:player
# Bump when a document's layout or content changes, so packs built before are built again.
PRINT_FORMAT_VERSION = 2  # 2: the table cards carry the all-evening table link


def entry_url(url_base: str, entry_key: str) -> str:
    """The absolute address of a table's tablet page for one round (the link on its score sheet)."""
    return url_base.rstrip("/") + ENTRY_PATH.format(key=entry_key)


def table_link_url(url_base: str, tournament: Tournament, number: int) -> str:
    """The absolute address of table ``number``'s all-evening link (the QR code on its table card)."""
    return url_base.rstrip("/") + TABLE_LINK_PATH.format(
        key=table_link_key(tournament.pk, number, tournament.table_cards_generation)
    )


def _seats_by_table(tables: Iterable[Table]) -> dict[int, list[Seat]]:
    grouped: dict[int, list[Seat]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(table__in=[t.pk for t in tables])
        .select_related("registration__player", "earlier__player")
        .order_by("table_id", "number")
    ):
        grouped[seat.table_id].append(seat)
    return grouped


# The columns a score sheet needs of a stored game (not who entered it, when, from which device).
_HAND_COLUMNS = ("table_id", "number", "dealer", *POINTS_COLUMNS.values(), "outcome", *RECORD_COLUMNS)


def _players(seats: list[Seat]) -> tuple[SheetPlayer, ...]:
    return tuple(
        SheetPlayer(seat=s.number, start_number=s.registration.start_number, name=s.registration.player.name)
        for s in seats
    )


def _tables(rnd: Round, tables: Iterable[Table] | None) -> list[Table]:
    if tables is None:
        return list(rnd.tables.order_by("number"))
    return sorted(tables, key=lambda t: t.number)


# --- score sheets ----------------------------------------------------------------------------


def _blank_rows(size: int, games: int) -> tuple[SheetRow, ...]:
    return tuple(SheetRow(number=n, dealer=dealer_for(n, 0, size)) for n in range(1, games + 1))


def _filled_sheet_parts(table: Table, hands: list[Hand], rules, games: int) -> dict:
    """Rows, totals, won solos, Reuegeld and Weitergeld of a table from its stored games."""
    size = table.size
    by_number = {hand.number: hand for hand in hands}
    totals = [0] * size
    won_solos = [0] * size
    reuegeld = [0] * size
    weitergeld = [0] * size
    free_left = [rules.reuegeld_free_solos] * size
    rows: list[SheetRow] = []
    thrown_in = entered = 0
    for slot in sheet_slots([(h.number, h.thrown_in) for h in hands], table_size=size, games_required=games):
        number = slot.number
        hand = by_number.get(number)
        if hand is None:  # not entered yet (or a deleted game's gap): a line to fill in
            left = table.left()  # playing on with four: the empty seat "sits out" every game from then on
            rows.append(SheetRow(number=number, dealer=left[0] if left and number >= left[1] else slot.dealer))
            continue
        score = stored_score(hand) if hand.outcome else None  # the outcome stored with the game, never rescored
        if hand.thrown_in:
            thrown_in += 1
            if score is not None:
                for seat, cents in score.weitergeld.items():
                    weitergeld[seat - 1] += cents
            rows.append(SheetRow(number=number, dealer=hand.dealer, contract=hand.contract, thrown_in=True))
            continue
        entered += 1
        points = tuple(int(hand.points.get(str(seat), 0)) for seat in range(1, size + 1))
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        won_solo = bool(score and score.won_solo)
        if won_solo:
            won_solos[hand.declarer - 1] += 1
        if score is not None:
            for seat, cents in score.reuegeld.items():
                if score.lost_solo and free_left[seat - 1] > 0:
                    free_left[seat - 1] -= 1
                    continue
                reuegeld[seat - 1] += cents
        rows.append(
            SheetRow(
                number=number,
                dealer=hand.dealer,
                contract=hand.contract,
                declarer=hand.declarer,
                partner=hand_partner(hand, size),
                called=hand.called,
                trump=hand.trump,
                muss=bool(hand.muss),
                renonce=bool(hand.renonce),
                tout=bool(hand.tout),
                sie=bool(hand.sie),
                won=score.declarer_won if score else hand.won,
                augen=hand.augen,
                schwarz=bool(hand.schwarz),
                laufende=hand.laufende,
                kontra=hand.kontra or 0,
                points=points,
                totals=tuple(totals),
                won_solo=won_solo,
            )
        )
    parts = {"rows": tuple(rows), "games_entered": entered}
    if entered:
        parts.update(
            totals=tuple(totals),
            won_solos=tuple(won_solos),
            reuegeld_cents=tuple(reuegeld),
            weitergeld_cents=tuple(weitergeld),
        )
    elif thrown_in:
        parts.update(weitergeld_cents=tuple(weitergeld))
    return parts


def _score_sheets(
    rnd: Round, tables: list[Table], seats: dict[int, list[Seat]], *, filled: bool, url_base: str
) -> tuple[ScoreSheet, ...]:
    tournament = rnd.tournament
    rules = tournament.ruleset
    hands: dict[int, list[Hand]] = defaultdict(list)
    if filled:
        for hand in (
            Hand.objects.filter(table__in=[t.pk for t in tables]).only(*_HAND_COLUMNS).order_by("table_id", "number")
        ):
            hands[hand.table_id].append(hand)
    sheets = []
    for table in tables:
        games = table.games_with_four or tournament_games_required(tournament, table.size)
        common = dict(
            tournament=tournament.name,
            date=tournament.date,
            venue=tournament.venue,
            round=rnd.number,
            table=table.number,
            size=table.size,
            games=games,
            players=_players(seats[table.pk]),
            entry_url=entry_url(url_base, table.entry_key),
            filled=filled,
            redeal=rules.all_pass == "redeal",
            zero_sum=not rules.plus_only,
            closed_reason=table.closed_reason if filled else "",
            changes=seat_changes(table, seats[table.pk]) if filled else (),
        )
        if not filled:
            sheets.append(ScoreSheet(rows=_blank_rows(table.size, games), **common))
        elif table.paper_totals is not None and not hands[table.pk]:
            sheets.append(
                ScoreSheet(
                    rows=_blank_rows(table.size, games),
                    paper_totals=True,
                    totals=tuple(int(table.paper_totals.get(str(s), 0)) for s in range(1, table.size + 1)),
                    **common,
                )
            )
        else:
            sheets.append(ScoreSheet(**common, **_filled_sheet_parts(table, hands[table.pk], rules, games)))
    return tuple(sheets)


def score_sheets_data(
    rnd: Round, *, filled: bool = True, url_base: str = DEFAULT_URL_BASE, tables: Iterable[Table] | None = None
) -> tuple[ScoreSheet, ...]:
    """The score sheets of a round's tables (or of ``tables``): blank to play on paper, or as entered."""
    tables = _tables(rnd, tables)
    return _score_sheets(rnd, tables, _seats_by_table(tables), filled=filled, url_base=url_base)


def score_sheet_data(table: Table, *, filled: bool = True, url_base: str = DEFAULT_URL_BASE) -> ScoreSheet:
    """One table's score sheet."""
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    return score_sheets_data(table.round, filled=filled, url_base=url_base, tables=[table])[0]


# --- seat list -------------------------------------------------------------------------------


def _seat_list(rnd: Round, tables: list[Table], seats: dict[int, list[Seat]]) -> SeatList:
    tournament = rnd.tournament
    entries = []
    by_table = []
    suffixes = namesakes(tournament.pk)  # namesakes as the page tells them apart (seat_rows)
    for table in tables:
        table_seats = []
        for seat in seats[table.pk]:
            player, start = seat.registration.player, seat.registration.start_number
            suffix = suffixes.get(start, "")
            key = name_sort_key(player.last_name, player.first_name)  # the same order as the page (seat_rows)
            entries.append(
                (
                    key,
                    start,
                    SeatListEntry(
                        letter=name_initial(player.last_name),
                        name=player.sort_name + suffix,
                        start_number=start,
                        table=table.number,
                        seat=seat.number,
                    ),
                )
            )
            table_seats.append(SeatListSeat(seat=seat.number, name=player.name + suffix, start_number=start))
        by_table.append(SeatListTable(number=table.number, seats=tuple(table_seats)))
    entries.sort(key=lambda item: (item[0], item[1]))
    return SeatList(
        tournament=tournament.name,
        date=tournament.date,
        venue=tournament.venue,
        round=rnd.number,
        entries=tuple(entry for _key, _start, entry in entries),
        tables=tuple(by_table),
    )


def seat_list_data(rnd: Round) -> SeatList:
    """Everyone seated in a round: alphabetical by last name (Ä with A), and by table."""
    tables = _tables(rnd, None)
    return _seat_list(rnd, tables, _seats_by_table(tables))


# --- table cards -----------------------------------------------------------------------------


def _table_cards(rnd: Round, tables: list[Table], seats: dict[int, list[Seat]], *, url_base: str) -> TableCards:
    tournament = rnd.tournament
    return TableCards(
        cards=tuple(
            TableCard(
                tournament=tournament.name,
                date=tournament.date,
                round=rnd.number,
                table=t.number,
                players=_players(seats[t.pk]),
                entry_url=table_link_url(url_base, tournament, t.number),
            )
            for t in tables
        )
    )


def table_cards_data(rnd: Round, *, url_base: str = DEFAULT_URL_BASE) -> TableCards:
    tables = _tables(rnd, None)
    return _table_cards(rnd, tables, _seats_by_table(tables), url_base=url_base)


# --- start cards: each player's own link ------------------------------------------------------------------


def player_url(url_base: str, key: str) -> str:
    """The absolute address of a player's own page (the QR code on his start card)."""
    return url_base.rstrip("/") + PLAYER_PATH.format(key=key)


def start_cards_data(
    tournament: Tournament, *, start_number: int | None = None, url_base: str = DEFAULT_URL_BASE
) -> StartCards:
    """Every playing registration's start card by start number (withdrawn players left out), or one."""
    registrations = tournament.registrations.select_related("player__club").order_by("start_number")
    if start_number is None:
        registrations = registrations.filter(withdrawn_after_round__isnull=True)
    else:
        registrations = registrations.filter(start_number=start_number)
    return StartCards(
        cards=tuple(
            StartCard(
                tournament=tournament.name,
                date=tournament.date,
                venue=tournament.venue,
                name=r.player.name,
                start_number=r.start_number,
                club=r.club_label,
                url=player_url(url_base, r.key),
            )
            for r in registrations
        )
    )


# --- the print pack --------------------------------------------------------------------------


def print_pack_data(
    rnd: Round, *, url_base: str = DEFAULT_URL_BASE, blank: bool = False, tables: Iterable[Table] | None = None
) -> PrintPackDocument:
    """Seat lists, table cards and every table's score sheet (as entered so far, or ``blank``); only
    ``tables`` (a venue's) when given."""
    tables = _tables(rnd, tables)
    seats = _seats_by_table(tables)
    return PrintPackDocument(
        tournament=rnd.tournament.name,
        round=rnd.number,
        seat_list=_seat_list(rnd, tables, seats),
        cards=_table_cards(rnd, tables, seats, url_base=url_base).cards,
        sheets=_score_sheets(rnd, tables, seats, filled=not blank, url_base=url_base),
    )


def print_pack_fingerprint(rnd: Round, *, url_base: str = DEFAULT_URL_BASE, blank: bool = False) -> str:
    """A short hash of everything the print pack shows, from a few cheap queries.

    Equal fingerprints mean an equal pack: the tournament's name, date, venue and rules; the tables
    and their links (and the table cards' generation); who sits where (names, start numbers); the games (how many, their ids and the
    latest change); paper totals; the language; the address in the QR codes; the layout version.
    """
    tournament = rnd.tournament
    parts: list = [
        PRINT_FORMAT_VERSION,
        translation.get_language() or settings.LANGUAGE_CODE,
        url_base.rstrip("/"),
        blank,
        tournament.name,
        tournament.date.isoformat(),
        tournament.venue,
        tournament.table_cards_generation,
        json.dumps(tournament.rules, sort_keys=True),
        rnd.pk,
        rnd.number,
        list(
            Table.objects.filter(round=rnd)
            .order_by("number")
            .values_list("id", "number", "size", "entry_key", "paper_totals")
        ),
        list(
            Seat.objects.filter(round=rnd)
            .order_by("table_id", "number")
            .values_list(
                "table_id",
                "number",
                "registration_id",
                "registration__start_number",
                "registration__player__first_name",
                "registration__player__last_name",
            )
        ),
    ]
    if not blank:
        hands = Hand.objects.filter(table__round=rnd).aggregate(n=Count("id"), ids=Sum("id"), last=Max("updated_at"))
        parts.append((hands["n"], hands["ids"], hands["last"].isoformat() if hands["last"] else None))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:20]


# --- the end of the tournament: standings, prize list, cash list, certificates ---------------


def _list_head(tournament, computed_at, current: bool) -> ListHead:
    return ListHead(
        tournament=tournament.name,
        date=tournament.date,
        venue=tournament.venue,
        computed_at=timezone.localtime(computed_at) if computed_at else None,
        current=current,
        logo=_logo(tournament.club),
    )


def _standings_lines(rows: list[dict], rounds: int, short: dict[int, str]) -> tuple[StandingsLine, ...]:
    return tuple(
        StandingsLine(
            place=row["rank"],
            start_number=row["start_number"],
            name=row["name"],
            club=row["club"],
            points=row["points"],
            won_solos=row["won_solos"],
            note="; ".join(filter(None, (tie_note(row["note"]), short.get(row["start_number"], "")))),
            substitute_for=row.get("substitute_for") or "",
            round_points=tuple(row["round_points"]) if rounds else (),
        )
        for row in rows
    )


def standings_data(tournament: Tournament, *, round: int | None = None) -> Standings:
    """The standings from the snapshot: overall and every round (or only ``round``)."""
    view = standings_view(tournament)

    def of_round(number: int) -> tuple[StandingsLine, ...]:
        shown = standings_view(tournament, round=number)
        return _standings_lines(shown.rows, 0, shown.short)

    if round is not None:
        sections = [StandingsSection(round=round, lines=of_round(round))]
    else:
        sections = [
            StandingsSection(
                round=None, lines=_standings_lines(view.rows, len(view.rounds), view.short), rounds=tuple(view.rounds)
            )
        ]
        sections += [StandingsSection(round=r, lines=of_round(r)) for r in view.rounds]
    return Standings(head=_list_head(tournament, view.computed_at, view.current), sections=tuple(sections))


def _prize_text(amount_cents: int | None, goods: str) -> str:
    parts = [money(amount_cents)] if amount_cents is not None else []
    if goods:
        parts.append(goods)
    return " + ".join(parts)


def prize_list_data(tournament: Tournament) -> PrizeListDocument:
    """Place, winner, points and prize, with the prize pool worked out as the prize page shows it."""
    view = standings_view(tournament)
    prizes = prize_list(tournament)
    lines = []
    for prize in prizes.prizes:
        winner = prize.winner or {}
        names = ", ".join(name_with_substitute(h["name"], h.get("substitute_for") or "") for h in prize.holders if h)
        lines.append(
            PrizeLine(
                place=prize.place,
                prize=_prize_text(prize.amount_cents, prize.goods),
                winner=names,
                start_number=winner.get("start_number"),
                club=winner.get("club", ""),
                points=winner.get("points"),
                note=lot_tie_text() if prize.by_lot else "",
            )
        )

    def line(a) -> AwardLine:
        return AwardLine(
            place=a.rank,
            winner=a.name,
            start_number=a.start_number,
            points=a.points,
            amount_cents=a.amount_cents,
            goods=a.goods,
            shared=(
                _("%(n)s share places %(first)s–%(last)s")
                % {"n": a.shared_with, "first": a.places[0], "last": a.places[-1]}
            )
            if a.shared_with > 1
            else "",
            note=lot_tie_text() if a.by_lot else "",
            handed_over=a.handed_over,
            category=a.category,
            chosen=a.chosen,
        )

    awards = tuple(line(a) for a in prizes.awards)
    return PrizeListDocument(
        head=_list_head(tournament, view.computed_at, view.current),
        prizes=tuple(lines),
        prizes_set=Prize.objects.filter(tournament=tournament).exists(),
        entry_fees_cents=prizes.entry_fees_cents,
        payout_percent=tournament.payout_percent,
        entry_share_cents=prizes.entry_share_cents,
        pot_share_cents=prizes.pot_share_cents,
        sponsored_cents=prizes.sponsored_cents,
        pool_cents=prizes.pool_cents,
        assigned_cents=prizes.assigned_cents,
        awards=awards,
        awarded_cents=prizes.awarded_cents,
        rounding_cents=prizes.rounding_cents,
        handed_over_cents=prizes.handed_over_cents,
        category_awards=tuple(line(a) for a in prizes.category_awards),
        costs_cents=prizes.costs_cents,
    )


def cash_list_data(tournament: Tournament) -> CashListDocument:
    """Each player's entry fee, Reuegeld, Weitergeld and Tischbester payout; every table's Tischbester."""
    view = standings_view(tournament)
    cash = cash_list(tournament)
    tischbeste = tuple(
        TischbesterLine(
            round=t["round"],
            table=t["table"],
            points=t["points"],
            collected_cents=t["collected_cents"],
            payout_cents=t["payout_cents"],
            players=tuple(f"{p['name']} ({p['start_number']})" for p in t["players"]),
        )
        for t in cash.tischbeste
    )
    return CashListDocument(
        head=_list_head(tournament, view.computed_at, cash.current),
        lines=tuple(
            CashLine(
                start_number=r.start_number,
                name=r.name,
                club=r.club,
                entry_fee_cents=r.entry_fee_cents,
                reuegeld_cents=r.reuegeld_cents,
                weitergeld_cents=r.weitergeld_cents,
                payout_cents=r.payout_cents,
                fee_paid=r.fee_paid,
            )
            for r in cash.rows
        ),
        tischbeste=tischbeste,
        entry_fees_cents=cash.entry_fees_cents,
        reuegeld_cents=cash.reuegeld_cents,
        weitergeld_cents=cash.weitergeld_cents,
        payouts_cents=cash.payouts_cents,
        pot_cents=cash.pot_cents,
        club_share_cents=cash.club_share_cents,
        fees_owed_cents=cash.fees_owed_cents,
        sponsored_cents=cash.sponsored_cents,
        prizes_cents=cash.prizes_cents,
        pool_left_cents=cash.pool_left_cents,
        costs_cents=cash.costs_cents,
    )


DEFAULT_CERTIFICATE_PLACES = 3
MAX_CERTIFICATE_PLACES = 1000  # a page each


def certificate_places(tournament: Tournament) -> list[int]:
    """The places with a prize (not the last place's), or the first three if no prizes are set."""
    places = sorted(Prize.objects.filter(tournament=tournament, place__isnull=False).values_list("place", flat=True))
    return places or list(range(1, DEFAULT_CERTIFICATE_PLACES + 1))


def _logo(club) -> bytes | None:
    """The club's uploaded logo as bytes, or None (none uploaded, or the file is gone)."""
    if not club.logo:
        return None
    try:
        with club.logo.open("rb") as fh:
            return fh.read()
    except (OSError, ValueError):
        return None


def certificates_data(tournament: Tournament, *, places: int | None = None) -> Certificates:
    """A certificate for everyone on the first ``places`` places (default: ``certificate_places``).

    Players sharing a place each get one.
    """
    wanted = set(range(1, places + 1)) if places is not None else set(certificate_places(tournament))
    view = standings_view(tournament)
    club = tournament.club
    return Certificates(
        tournament=tournament.name,
        date=tournament.date,
        venue=tournament.venue,
        organiser=club.name,
        logo=_logo(club),
        current=view.current,
        certificates=tuple(
            Certificate(
                place=row["rank"],
                name=name_with_substitute(row["name"], row.get("substitute_for") or ""),
                points=row["points"],
                club=row["club"],
            )
            for row in view.rows
            if row["rank"] in wanted
        ),
    )
