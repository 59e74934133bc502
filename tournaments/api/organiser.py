"""Organiser API under ``api/tournaments/<slug>/``: registrations, rounds, tables, corrections.

Session or basic auth. Anyone with a role in the tournament's club reads; desk helpers and
organisers register and update players; only organisers draw, publish, close and correct.
Another club's tournament is a 404.
"""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from ..access import DESK, ORGANISER, has_role
from ..models import Hand, Round, Table, Tournament
from ..params import parse_int
from ..selectors.desk import player_for_desk, registrations_for_desk, tables_overview
from ..selectors.entry import table_sheet
from ..selectors.standings import name_with_substitute, standings_view, tie_note
from ..selectors.tables import table_progress
from ..services.errors import ServiceError
from ..services.hands import hand_correct, hand_delete, table_paper_totals
from ..services.registration import registration_create, registration_quick_add
from ..services.rounds import round_close, round_draw, round_publish, round_redraw, round_reopen
from ..services.signups import registration_change
from . import serializers as s
from .base import FORBIDDEN, NOT_FOUND, TournamentApiView, bad_request, conflict

REGISTRATIONS = ["registrations"]
STANDINGS = ["standings"]
ROUNDS = ["rounds"]


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round.objects.select_related("tournament"), tournament=tournament, number=number)


def _round_detail(rnd: Round) -> dict:
    rnd.progress = table_progress(rnd)
    return s.RoundDetailSerializer(rnd).data


class RegistrationListView(TournamentApiView):
    write_roles = DESK

    @extend_schema(
        tags=REGISTRATIONS,
        summary="All registrations by start number",
        responses={200: s.RegistrationSerializer(many=True), 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def get(self, request: Request, slug: str) -> Response:
        registrations = registrations_for_desk(self.tournament())
        return Response(s.RegistrationSerializer(registrations, many=True).data)

    @extend_schema(
        tags=REGISTRATIONS,
        summary="Register an existing player, or a new one by name",
        request=s.RegistrationCreateSerializer,
        responses={
            201: s.RegistrationSerializer,
            400: bad_request(),
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict("The player is registered already."),
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = self.tournament(write=True)
        body = s.RegistrationCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        if data.get("player_id"):
            player = player_for_desk(tournament=tournament, pk=data["player_id"])
            if player is None:  # another club's player reads exactly like an id nobody has
                raise ServiceError("player_id", _("No such player."))
            registration = registration_create(
                tournament=tournament,
                player=player,
                paid=data["paid"],
                checked_in=data["checked_in"],
                by=request.user,
            )
        else:
            registration = registration_quick_add(
                tournament=tournament,
                first_name=data.get("first_name", ""),
                last_name=data.get("last_name", ""),
                club_name=data.get("club", ""),
                paid=data["paid"],
                checked_in=data["checked_in"],
                may_create_club=has_role(request.user, tournament, ORGANISER),
                club_field="club",
                by=request.user,
            )
        return Response(s.RegistrationSerializer(registration).data, status=status.HTTP_201_CREATED)


class RegistrationDetailView(TournamentApiView):
    write_roles = DESK

    def registration(self, tournament: Tournament, start_number: int):
        return get_object_or_404(registrations_for_desk(tournament), start_number=start_number)

    @extend_schema(
        tags=REGISTRATIONS,
        summary="One registration",
        responses={200: s.RegistrationSerializer, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def get(self, request: Request, slug: str, start_number: int) -> Response:
        return Response(s.RegistrationSerializer(self.registration(self.tournament(), start_number)).data)

    @extend_schema(
        tags=REGISTRATIONS,
        summary="Paid, checked in, withdrawn",
        request=s.RegistrationUpdateSerializer,
        responses={
            200: s.RegistrationSerializer,
            400: bad_request(),
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict("Not possible now (e.g. a seated player cannot be checked out)."),
        },
    )
    def patch(self, request: Request, slug: str, start_number: int) -> Response:
        tournament = self.tournament(write=True)
        registration = self.registration(tournament, start_number)
        body = s.RegistrationUpdateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        registration_change(
            registration=registration, by=request.user, url_base=request.build_absolute_uri("/"), **body.validated_data
        )
        return Response(s.RegistrationSerializer(self.registration(tournament, start_number)).data)


class StandingsView(TournamentApiView):
    """The standings as the organiser's page shows them (published or not): every row says "für <Name>"
    of a substitute and carries its mark (fewer games, left in round r)."""

    @extend_schema(
        tags=STANDINGS,
        summary="The standings, overall or of one round",
        parameters=[OpenApiParameter("round", int, description="A round's own list; without: the overall list.")],
        responses={200: s.StandingsSerializer, 400: bad_request(), 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = self.tournament()
        given = request.query_params.get("round")
        number = parse_int(given, min_value=1, max_value=6)
        if given not in (None, "") and number is None:
            raise ServiceError("round", _("Give a round from 1 to 6."))
        view = standings_view(tournament, round=number)
        rows = [
            {
                **row,
                "substitute_for": row.get("substitute_for") or None,
                "display_name": name_with_substitute(row["name"], row.get("substitute_for") or ""),
                "tie_note": tie_note(row.get("note")) or None,
                "mark": view.short.get(row["start_number"]),
            }
            for row in view.rows
        ]
        return Response(
            s.StandingsSerializer(
                {
                    "round": view.round,
                    "computed_at": view.computed_at,
                    "final": tournament.status == Tournament.Status.FINISHED,
                    "rows": rows,
                }
            ).data
        )


class RoundListView(TournamentApiView):
    write_roles = ORGANISER

    @extend_schema(
        tags=ROUNDS,
        summary="The rounds drawn so far",
        responses={200: s.RoundSerializer(many=True), 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def get(self, request: Request, slug: str) -> Response:
        rounds = Round.objects.filter(tournament=self.tournament()).order_by("number")
        return Response(s.RoundSerializer(rounds, many=True).data)

    @extend_schema(
        tags=ROUNDS,
        summary="Draw the next round (every remaining one in draw mode all_in_advance)",
        request=s.RoundDrawSerializer,
        responses={
            201: s.RoundSerializer(many=True),
            400: bad_request(),
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict("The previous round is not closed, all rounds are drawn, or the players cannot be seated."),
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = self.tournament(write=True)
        body = s.RoundDrawSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        rounds = round_draw(tournament=tournament, seed=body.validated_data.get("seed"), by=request.user)
        return Response(s.RoundSerializer(rounds, many=True).data, status=status.HTTP_201_CREATED)


class RoundDetailView(TournamentApiView):
    @extend_schema(
        tags=ROUNDS,
        summary="A round with each table's progress",
        responses={200: s.RoundDetailSerializer, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        return Response(_round_detail(_round(self.tournament(), number)))


class RoundPublishView(TournamentApiView):
    write_roles = ORGANISER

    @extend_schema(
        tags=ROUNDS,
        summary="Publish: seat lists visible, entry links live",
        request=None,
        responses={
            200: s.RoundDetailSerializer,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict("Published already, or an earlier round is still open."),
        },
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        rnd = round_publish(round=_round(self.tournament(write=True), number), by=request.user)
        return Response(_round_detail(rnd))


class RoundRedrawView(TournamentApiView):
    write_roles = ORGANISER

    @extend_schema(
        tags=ROUNDS,
        summary="Draw a round again (before it is published)",
        request=s.RoundDrawSerializer,
        responses={
            200: s.RoundDetailSerializer,
            400: bad_request(),
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict("The round is published already."),
        },
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        rnd = _round(self.tournament(write=True), number)
        body = s.RoundDrawSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return Response(_round_detail(round_redraw(round=rnd, seed=body.validated_data.get("seed"), by=request.user)))


class RoundCloseView(TournamentApiView):
    write_roles = ORGANISER

    @extend_schema(
        tags=ROUNDS,
        summary="Close (lock) a round whose tables are complete and confirmed",
        request=None,
        responses={
            200: s.RoundDetailSerializer,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict("Not published, or tables are not complete and confirmed."),
        },
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        rnd = round_close(round=_round(self.tournament(write=True), number), by=request.user)
        return Response(_round_detail(rnd))


class RoundReopenView(TournamentApiView):
    write_roles = ORGANISER

    @extend_schema(
        tags=ROUNDS,
        summary="Reopen the last round played, with a reason (logged)",
        request=s.RoundReopenSerializer,
        responses={
            200: s.RoundDetailSerializer,
            400: bad_request(),
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict("Not closed, or a later round is published already."),
        },
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        rnd = _round(self.tournament(write=True), number)
        body = s.RoundReopenSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return Response(_round_detail(round_reopen(round=rnd, reason=body.validated_data["reason"], by=request.user)))


class RoundTablesView(TournamentApiView):
    @extend_schema(
        tags=ROUNDS,
        summary="The round's tables with their seats and progress",
        responses={200: s.TableOverviewSerializer(many=True), 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        tournament = self.tournament()
        tables = tables_overview(_round(tournament, number))
        show_keys = has_role(request.user, tournament, DESK)
        return Response(s.TableOverviewSerializer(tables, many=True, context={"show_keys": show_keys}).data)


class RoundTableSheetView(TournamentApiView):
    @extend_schema(
        tags=ROUNDS,
        summary="One table's sheet (as its tablet shows it)",
        responses={200: s.TableSheetSerializer, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def get(self, request: Request, slug: str, number: int, table: int) -> Response:
        rnd = _round(self.tournament(), number)
        found = get_object_or_404(Table.objects.select_related("round__tournament"), round=rnd, number=table)
        return Response(s.TableSheetSerializer(table_sheet(found)).data)


class OrganiserHandView(TournamentApiView):
    """An organiser corrects or deletes a game, also in a closed round; always with a reason (kept in the
    game's revision with who and when)."""

    write_roles = ORGANISER

    def hand(self, number: int, table: int, game: int) -> Hand:
        rnd = _round(self.tournament(write=True), number)
        return get_object_or_404(
            Hand.objects.select_related("table__round__tournament"), table__round=rnd, table__number=table, number=game
        )

    def _correct(self, request: Request, hand: Hand, body_class: type[s.HandRecordSerializer]) -> Response:
        body = body_class(data=request.data)
        body.is_valid(raise_exception=True)
        hand = hand_correct(
            hand=hand,
            record=body.record_for(hand),
            by=request.user,
            device=self.device,
            organiser=True,
            reason=body.validated_data["reason"],
        )
        return Response(s.HandSerializer(hand).data)

    @extend_schema(
        tags=ROUNDS,
        summary="Correct a game (the whole record) with a reason",
        request=s.HandCorrectionSerializer,
        responses={
            200: s.HandSerializer,
            400: bad_request("Invalid game or no reason: the errors per field."),
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict("The round is not published."),
        },
    )
    def put(self, request: Request, slug: str, number: int, table: int, game: int) -> Response:
        return self._correct(request, self.hand(number, table, game), s.HandCorrectionSerializer)

    @extend_schema(
        tags=ROUNDS,
        summary="Correct some fields of a game with a reason",
        request=s.HandCorrectionPatchSerializer,
        responses={
            200: s.HandSerializer,
            400: bad_request("Invalid game or no reason: the errors per field."),
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict("The round is not published."),
        },
    )
    def patch(self, request: Request, slug: str, number: int, table: int, game: int) -> Response:
        return self._correct(request, self.hand(number, table, game), s.HandCorrectionPatchSerializer)

    @extend_schema(
        tags=ROUNDS,
        summary="Delete a game with a reason",
        parameters=[
            OpenApiParameter(
                "reason",
                str,
                OpenApiParameter.QUERY,
                required=True,
                description="Why the game is deleted (kept in the revision).",
            )
        ],
        request=None,
        responses={
            204: OpenApiResponse(description="Deleted."),
            400: bad_request("No reason given."),
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict("The round is not published."),
        },
    )
    def delete(self, request: Request, slug: str, number: int, table: int, game: int) -> Response:
        hand = self.hand(number, table, game)
        body = s.OrganiserHandDeleteSerializer(data={"reason": request.query_params.get("reason", "")})
        body.is_valid(raise_exception=True)
        hand_delete(
            hand=hand, by=request.user, device=self.device, organiser=True, reason=body.validated_data["reason"]
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundTableTotalsView(TournamentApiView):
    """Paper mode for a table that played without a tablet: only each player's round total. Entering
    or overwriting them keeps a revision (old and new totals, who, when, why)."""

    write_roles = ORGANISER

    @extend_schema(
        tags=ROUNDS,
        summary="Enter a paper table's round totals (instead of its games)",
        request=s.PaperTotalsSerializer,
        responses={
            200: s.TableSheetSerializer,
            400: bad_request("A seat missing, not a whole number, or totals that do not add up to 0."),
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: conflict("Games were entered at this table, or the round is not published."),
        },
    )
    def put(self, request: Request, slug: str, number: int, table: int) -> Response:
        rnd = _round(self.tournament(write=True), number)
        found = get_object_or_404(Table, round=rnd, number=table)
        body = s.PaperTotalsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        table_paper_totals(
            table=found,
            totals=body.validated_data["totals"],
            by=request.user,
            device=self.device,
            reason=body.validated_data["reason"],
        )
        found = Table.objects.select_related("round__tournament").get(pk=found.pk)
        return Response(s.TableSheetSerializer(table_sheet(found)).data)
