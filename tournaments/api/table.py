"""Table API under ``api/tisch/<key>/``: what a table's tablet does, without a login.

The key is the credential: a round's entry key (the score sheet's QR code) opens that table; a
table card's all-evening key (``tournaments.links``) opens its table number in the current round
(the newest published or closed one) and nothing else. A wrong key is a 404 and a key opens only
its own table. A closed round is a 409; an invalid game a 400 naming each field.
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.rules import score_to_dict

from ..models import Hand, Round, Table
from ..selectors.entry import table_for_entry_key, table_sheet
from ..selectors.links import player_page, registration_for_key, table_link_resolve
from ..services import hands
from ..services.hands import hand_correct, hand_delete, hand_preview, table_confirm
from . import serializers as s
from .base import NO_KEY, THROTTLED, ApiView, bad_request, conflict
from .throttles import TableKeyThrottle, wrong_key_wait

TAGS = ["table entry"]
CLOSED = conflict("The round is closed (or not yet published), or the game number is taken.")


class TableKeyView(ApiView):
    authentication_classes: list = []  # the key in the URL is the credential; no session, no CSRF
    permission_classes = [AllowAny]
    throttle_classes = [TableKeyThrottle]

    def table(self, *, for_write: bool = False) -> Table:
        key = self.kwargs["entry_key"]
        table = table_for_entry_key(key)  # with its round: a write needs it too
        if table is None:
            link = table_link_resolve(key)  # a table card's key: its number in the current round
            if link is None:  # a key that opens nothing counts against the address, not a table
                wait = wrong_key_wait(self.request)
                if wait is not None:
                    raise exceptions.Throttled(wait)
                raise exceptions.NotFound()
            table = link.table
        if table is None or (not for_write and table.round.status == Round.Status.DRAWN):
            raise exceptions.NotFound()  # like the tablet page: a round that is not published shows nothing
        return table

    def hand(self, number: int) -> Hand:
        return get_object_or_404(
            Hand.objects.select_related("table__round__tournament"), table=self.table(), number=number
        )


class TableSheetView(TableKeyView):
    @extend_schema(
        tags=TAGS,
        summary="The table's sheet: seats, games, totals, the next game",
        responses={200: s.TableSheetSerializer, 404: NO_KEY, 429: THROTTLED},
    )
    def get(self, request: Request, entry_key: str) -> Response:
        return Response(s.TableSheetSerializer(table_sheet(self.table())).data)


class HandCreateView(TableKeyView):
    @extend_schema(
        tags=TAGS,
        summary="Enter a game",
        description="201 with the stored game; a retry with the same client_id gives 200 and the game stored "
        "the first time (it is never stored twice).",
        request=s.HandEntrySerializer,
        responses={
            201: s.HandSerializer,
            200: OpenApiResponse(s.HandSerializer, description="A recognised retry."),
            400: bad_request(),
            404: NO_KEY,
            429: THROTTLED,
            409: CLOSED,
        },
    )
    def post(self, request: Request, entry_key: str) -> Response:
        table = self.table(for_write=True)
        body = s.HandEntrySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        hand, created = hands.hand_record(  # the one save of every entry point (the pages' too)
            table=table,
            record=body.record(),
            client_id=body.validated_data["client_id"],
            number=body.validated_data.get("number"),
            device=self.device,
        )
        return Response(s.HandSerializer(hand).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class HandDetailView(TableKeyView):
    def _correct(self, request: Request, number: int, body_class: type[s.HandRecordSerializer]) -> Response:
        hand = self.hand(number)
        body = body_class(data=request.data)
        body.is_valid(raise_exception=True)
        hand = hand_correct(hand=hand, record=body.record_for(hand), device=self.device)
        return Response(s.HandSerializer(hand).data)

    @extend_schema(tags=TAGS, summary="One game", responses={200: s.HandSerializer, 404: NO_KEY, 429: THROTTLED})
    def get(self, request: Request, entry_key: str, number: int) -> Response:
        return Response(s.HandSerializer(self.hand(number)).data)

    @extend_schema(
        tags=TAGS,
        summary="Correct a game (the whole record)",
        request=s.HandRecordSerializer,
        responses={200: s.HandSerializer, 400: bad_request(), 404: NO_KEY, 429: THROTTLED, 409: CLOSED},
    )
    def put(self, request: Request, entry_key: str, number: int) -> Response:
        return self._correct(request, number, s.HandRecordSerializer)

    @extend_schema(
        tags=TAGS,
        summary="Correct some fields of a game",
        request=s.HandRecordPatchSerializer,
        responses={200: s.HandSerializer, 400: bad_request(), 404: NO_KEY, 429: THROTTLED, 409: CLOSED},
    )
    def patch(self, request: Request, entry_key: str, number: int) -> Response:
        return self._correct(request, number, s.HandRecordPatchSerializer)

    @extend_schema(
        tags=TAGS,
        summary="Delete a game",
        request=None,
        responses={204: OpenApiResponse(description="Deleted."), 404: NO_KEY, 429: THROTTLED, 409: CLOSED},
    )
    def delete(self, request: Request, entry_key: str, number: int) -> Response:
        hand_delete(hand=self.hand(number), device=self.device)
        return Response(status=status.HTTP_204_NO_CONTENT)


class HandPreviewView(TableKeyView):
    throttle_reads = True  # it writes nothing and follows every tap: a read for the rate limit

    @extend_schema(
        tags=TAGS,
        summary="Score a game without storing it",
        request=s.HandPreviewSerializer,
        responses={200: s.HandScoreSerializer, 400: bad_request(), 404: NO_KEY, 429: THROTTLED},
    )
    def post(self, request: Request, entry_key: str) -> Response:
        table = self.table()
        body = s.HandPreviewSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        number, dealer, score = hand_preview(
            table=table, record=body.record(), number=body.validated_data.get("number")
        )
        return Response(
            s.HandScoreSerializer(
                {"number": number, "dealer": dealer, "partner": score.partner, **score_to_dict(score)}
            ).data
        )


class TableConfirmView(TableKeyView):
    @extend_schema(
        tags=TAGS,
        summary="A player confirms the complete sheet",
        request=s.ConfirmSerializer,
        responses={
            200: s.TableSheetSerializer,
            400: bad_request(),
            404: NO_KEY,
            429: THROTTLED,
            409: conflict("Games are missing, or the round is closed."),
        },
    )
    def post(self, request: Request, entry_key: str) -> Response:
        table = self.table()
        body = s.ConfirmSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        table_confirm(table=table, seat=body.validated_data["seat"], device=self.device)
        return Response(s.TableSheetSerializer(table_sheet(self.table())).data)


class PlayerPageView(ApiView):
    # A player's private key opens his own page and nothing else (no session, no CSRF).
    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["player"],
        summary="A player's own page: seat now, table mates, games per round, place",
        responses={200: s.PlayerPageSerializer, 404: NO_KEY, 429: THROTTLED},
    )
    def get(self, request: Request, key: str) -> Response:
        registration = registration_for_key(key)
        if registration is None:  # a key that opens nothing counts against the address
            wait = wrong_key_wait(request)
            if wait is not None:
                raise exceptions.Throttled(wait)
            raise exceptions.NotFound()
        return Response(s.PlayerPageSerializer(player_page(registration)).data)
