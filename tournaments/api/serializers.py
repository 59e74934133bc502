"""Shapes and types of the API's bodies. The rules are the services' business, never a serializer's."""

import dataclasses
from collections.abc import Mapping
from typing import Any, Optional

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from scoring.rules.hand import HAND_FIELDS, HandRecord
from scoring.storage import stored_record

from ..models import Hand, Registration, Round, Table
from ..selectors.standings import name_with_substitute

SEED_MAX = 2**63 - 1
GAME_NUMBER_MAX = 32767


# --- Registrations ------------------------------------------------------------------------------


class RegistrationSerializer(serializers.ModelSerializer):
    player_id = serializers.IntegerField(read_only=True)
    first_name = serializers.CharField(source="player.first_name", read_only=True)
    last_name = serializers.CharField(source="player.last_name", read_only=True)
    name = serializers.CharField(source="player.name", read_only=True)
    club = serializers.SerializerMethodField()
    withdrawn = serializers.BooleanField(read_only=True)
    substitute_for = serializers.SerializerMethodField(help_text="Start number of the player this one replaces.")
    substitute_for_name = serializers.SerializerMethodField(
        help_text='Name of the player whose seat he took over (every list says "für <Name>"), or null.'
    )
    display_name = serializers.SerializerMethodField(
        help_text='The name as every list shows it: "Quirin Ächter (für Xaver Bräu)" for a substitute.'
    )
    fee_due = serializers.BooleanField(
        read_only=True,
        help_text="False: no entry fee is due (a substitute taking over a paid seat, the desk's default).",
    )
    left_during_round = serializers.BooleanField(
        read_only=True,
        help_text='He left while round withdrawn_after_round was under way ("ausgeschieden in Runde r").',
    )

    class Meta:
        model = Registration
        fields = [
            "start_number",
            "player_id",
            "first_name",
            "last_name",
            "name",
            "club",
            "paid",
            "checked_in",
            "withdrawn",
            "withdrawn_after_round",
            "substitute_for",
            "substitute_for_name",
            "display_name",
            "fee_due",
            "left_during_round",
        ]
        read_only_fields = fields

    def get_club(self, registration: Registration) -> str:
        return registration.club_label

    def get_substitute_for(self, registration: Registration) -> Optional[int]:  # noqa: UP045 (schema hint)
        original = registration.substitute_for
        return original.start_number if original else None

    def get_substitute_for_name(self, registration: Registration) -> Optional[str]:  # noqa: UP045 (schema hint)
        original = registration.substitute_for
        return original.player.name if original else None

    def get_display_name(self, registration: Registration) -> str:
        return name_with_substitute(registration.player.name, self.get_substitute_for_name(registration) or "")


class RegistrationCreateSerializer(serializers.Serializer):
    """An existing player (``player_id``) or a new one (``first_name``, ``last_name``, ``club``)."""

    # An id only: whether it names a player this tournament's desk may register is the view's question
    # (selectors.player_for_desk), answered alike for an id of another club and one that does not exist.
    player_id = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2**63 - 1,
        help_text="An existing player of the tournament's club (its members and who played its tournaments).",
    )
    first_name = serializers.CharField(required=False, allow_blank=True, max_length=100)
    last_name = serializers.CharField(required=False, allow_blank=True, max_length=100)
    club = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=200,
        help_text="Club name of a new player: an existing club; organisers may name a new one (it is created).",
    )
    paid = serializers.BooleanField(default=False)
    checked_in = serializers.BooleanField(default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("player_id") and any(attrs.get(k) for k in ("first_name", "last_name", "club")):
            raise serializers.ValidationError({"player_id": [_("Give an existing player or a new name, not both.")]})
        return attrs


class RegistrationUpdateSerializer(serializers.Serializer):
    paid = serializers.BooleanField(required=False)
    checked_in = serializers.BooleanField(required=False)
    withdrawn = serializers.BooleanField(
        required=False, help_text="true withdraws the player from the next draw on (cannot be undone)."
    )


# --- Rounds and tables --------------------------------------------------------------------------


class RoundSerializer(serializers.ModelSerializer):
    class Meta:
        model = Round
        fields = ["number", "status", "seed", "drawn_at", "published_at", "closed_at"]
        read_only_fields = fields


class TableProgressSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    size = serializers.IntegerField()
    games_entered = serializers.IntegerField()
    games_required = serializers.IntegerField()
    confirmations = serializers.IntegerField()
    complete = serializers.BooleanField()


class RoundDetailSerializer(RoundSerializer):
    tables = TableProgressSerializer(many=True, read_only=True, source="progress")

    class Meta(RoundSerializer.Meta):
        fields = [*RoundSerializer.Meta.fields, "tables"]
        read_only_fields = fields


class RoundDrawSerializer(serializers.Serializer):
    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=SEED_MAX,
        help_text="Draw reproducibly from this seed; a random one without it.",
    )


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    start_number = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()


class TableOverviewSerializer(serializers.Serializer):
    number = serializers.IntegerField(source="table.number")
    size = serializers.IntegerField(source="table.size")
    entry_key = serializers.CharField(
        source="table.entry_key",
        required=False,
        help_text="The table's private entry key (for organisers and desk helpers only).",
    )
    games_entered = serializers.IntegerField(source="progress.games_entered")
    games_required = serializers.IntegerField(source="progress.games_required")
    confirmations = serializers.IntegerField(source="progress.confirmations")
    complete = serializers.BooleanField(source="progress.complete")
    paper_totals = serializers.BooleanField(source="progress.paper_totals")
    seats = SeatSerializer(many=True)

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if not self.context.get("show_keys"):
            data.pop("entry_key")
        return data


# --- Hands --------------------------------------------------------------------------------------


def _record_field(declared) -> serializers.Field:
    """The API field of a key of the hand record, from its declaration in ``scoring.rules.hand.HandRecord``."""
    kind = {"text": serializers.CharField, "number": serializers.IntegerField, "flag": serializers.BooleanField}
    options = {"help_text": declared.metadata["help"]} if declared.metadata["help"] else {}
    if declared.default is dataclasses.MISSING:
        return kind[declared.metadata["kind"]](**options)
    return kind[declared.metadata["kind"]](required=False, allow_null=True, **options)


class _HandRecordBase(serializers.Serializer):
    """The hand record of rules.md section 4. Types only here; the service checks the rules.

    ``null`` or a left-out key means "not entered"; an unknown key is an error naming it.
    """

    RECORD_FIELDS = HAND_FIELDS

    def to_internal_value(self, data):
        unknown = {}
        if isinstance(data, Mapping):
            unknown = {str(key): [_("Unknown field.")] for key in data if key not in self.fields}
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            raise serializers.ValidationError({**unknown, **exc.detail}) from None
        if unknown:
            raise serializers.ValidationError(unknown)
        return value

    def record(self) -> dict[str, Any]:
        return {key: value for key, value in self.validated_data.items() if key in self.RECORD_FIELDS}

    def record_for(self, hand: Hand) -> dict[str, Any]:
        """The record that replaces a stored game's record."""
        return self.record()


HandRecordSerializer = serializers.SerializerMetaclass(
    "HandRecordSerializer",
    (_HandRecordBase,),
    {
        "__module__": __name__,
        "__doc__": _HandRecordBase.__doc__,
        **{declared.name: _record_field(declared) for declared in dataclasses.fields(HandRecord)},
        "dealer": serializers.IntegerField(  # the service works it out from the game number
            required=False, allow_null=True, help_text="Ignored: the dealer follows from the game number."
        ),
    },
)


class HandEntrySerializer(HandRecordSerializer):
    client_id = serializers.UUIDField(help_text="Made by the tablet per submission; a retry sends the same one.")
    number = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=GAME_NUMBER_MAX,
        help_text="The game number; the next free one without it.",
    )


class HandPreviewSerializer(HandRecordSerializer):
    number = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=GAME_NUMBER_MAX,
        help_text="The game number (its dealer counts); the next free one without it.",
    )


class HandRecordPatchSerializer(HandRecordSerializer):
    """Some fields of a stored game's record; the others stay as they are (``null`` removes one)."""

    contract = serializers.CharField(
        required=False,
        help_text="rufspiel, wenz, solo; when all passed: weiter "
        "(thrown in, all_pass = redeal) or kreuz (über Kreuz, all_pass = kreuz).",
    )

    def record_for(self, hand: Hand) -> dict[str, Any]:
        return {**stored_record(hand, hand.table.size), **self.record()}


class HandCorrectionSerializer(HandRecordSerializer):
    reason = serializers.CharField(
        max_length=300, help_text="Why the organiser changes the game (kept in the revision)."
    )


class HandCorrectionPatchSerializer(HandRecordPatchSerializer):
    reason = serializers.CharField(
        max_length=300, help_text="Why the organiser changes the game (kept in the revision)."
    )


class PointsField(serializers.DictField):
    child = serializers.IntegerField()


class HandSerializer(HandRecordSerializer):
    """A stored game: its record as entered, the dealer (who sits out at a table of five), its points."""

    id = serializers.IntegerField(read_only=True)
    number = serializers.IntegerField(read_only=True)
    dealer = serializers.IntegerField(read_only=True)
    points = PointsField(read_only=True, help_text='Points per seat, {"1": 1, "2": -1, ...}; empty when thrown in.')
    thrown_in = serializers.BooleanField(
        read_only=True, help_text="A Strich (weiter, or a Kreuz replayed after 60:60): the same dealer dealt again."
    )
    client_id = serializers.UUIDField(read_only=True)


class HandScoreSerializer(serializers.Serializer):
    """A game scored without storing it."""

    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    points = PointsField()
    value = serializers.IntegerField()
    thrown_in = serializers.BooleanField(
        default=False,
        help_text="A Strich: weiter under all_pass = redeal, or a Kreuz ending 60:60 under "
        "kreuz_tie = replay; the same dealer deals again and the game does not count.",
    )
    partner = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Rufspiel and Kreuz: the declarer's partner (über Kreuz the seat opposite among the active seats).",
    )
    declarer_won = serializers.BooleanField(required=False)
    schneider = serializers.BooleanField(required=False)
    schwarz = serializers.BooleanField(required=False)
    laufende = serializers.IntegerField(required=False)
    reuegeld = PointsField(required=False, help_text="Cents each seat owes for this game.")
    weitergeld = PointsField(
        required=False,
        help_text="Cents each seat that took part in the deal pays for a "
        "thrown-in game (at a table of five not the dealer; none for a replayed Kreuz).",
    )


class OrganiserHandDeleteSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300)


class RoundReopenSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=300, help_text="Why the closed round is unlocked (kept in the audit log)."
    )


class PaperTotalsSerializer(serializers.Serializer):
    totals = serializers.DictField(
        child=serializers.IntegerField(min_value=-Table.PAPER_TOTAL_MAX, max_value=Table.PAPER_TOTAL_MAX),
        help_text='Each seat\'s round total from the paper sheet, {"1": 12, "2": -5, ...}; '
        "under plus/minus scoring they must add up to 0.",
    )
    reason = serializers.CharField(
        max_length=300,
        required=False,
        allow_blank=True,
        default="",
        help_text="Needed when the round is closed (kept in the revision).",
    )


# --- A table's sheet ----------------------------------------------------------------------------


class SheetSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    start_number = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    total = serializers.IntegerField()
    confirmed = serializers.BooleanField()


class TableSheetSerializer(serializers.Serializer):
    tournament = serializers.CharField(source="table.round.tournament.name")
    round = serializers.IntegerField(source="round_number")
    round_status = serializers.CharField(help_text="drawn, published or closed (closed = locked).")
    table = serializers.IntegerField(source="table.number")
    size = serializers.IntegerField(source="table.size")
    seats = SheetSeatSerializer(many=True)
    hands = HandSerializer(many=True)
    totals = PointsField()
    games_entered = serializers.IntegerField(help_text="Games played (thrown-in games do not count).")
    games_required = serializers.IntegerField()
    next_number = serializers.IntegerField(allow_null=True, help_text="null when every game is entered.")
    next_dealer = serializers.IntegerField(allow_null=True)
    sitting_out = serializers.IntegerField(allow_null=True, help_text="At a table of five: the next dealer.")
    confirmations = serializers.ListField(child=serializers.IntegerField(), help_text="Seats that confirmed.")
    complete = serializers.BooleanField()
    paper_totals = PointsField(source="table.paper_totals", allow_null=True)


class ConfirmSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="The seat whose player confirms the complete sheet.")


# --- a player's own page (api/s/<key>/) ---------------------------------------------------------------


class PlayerMateSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    start_number = serializers.IntegerField()


class PlayerGameSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    contract = serializers.CharField(help_text="The game as the page names it.")
    declarer = serializers.CharField(help_text="Who played; empty for a thrown-in game.")
    points = serializers.IntegerField(allow_null=True, help_text="null: he sat out, or nobody played.")
    running = serializers.IntegerField(help_text="His total after this game.")
    sits_out = serializers.BooleanField()


class PlayerRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="number")
    status = serializers.CharField(help_text="published or closed.")
    table = serializers.IntegerField(source="table.number")
    seat = serializers.IntegerField()
    mates = PlayerMateSerializer(many=True)
    games = PlayerGameSerializer(many=True)
    total = serializers.IntegerField()
    confirmed = serializers.BooleanField()


class StandingsRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    start_number = serializers.IntegerField()
    name = serializers.CharField(help_text="With start number (and club) where two share a name.")
    club = serializers.CharField()
    substitute_for = serializers.CharField(
        allow_null=True, help_text="Name of the player whose seat and points he took over, or null."
    )
    display_name = serializers.CharField(help_text='"Quirin Ächter (für Xaver Bräu)" for a substitute.')
    points = serializers.IntegerField()
    won_solos = serializers.IntegerField()
    lost_solos = serializers.IntegerField()
    round_points = serializers.ListField(child=serializers.IntegerField(), help_text="Per round, 1 first.")
    tie_note = serializers.CharField(allow_null=True, help_text="Which tie-break put him above the next, or null.")
    mark = serializers.CharField(
        allow_null=True,
        help_text='Fewer games than the round\'s, or left during the tournament ("ausgeschieden in Runde 2"), or null.',
    )


class StandingsSerializer(serializers.Serializer):
    round = serializers.IntegerField(allow_null=True, help_text="null: the overall list.")
    computed_at = serializers.DateTimeField(allow_null=True)
    final = serializers.BooleanField(help_text="The tournament is finished: the list is the Endstand.")
    rows = StandingsRowSerializer(many=True)


class PlayerRankSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    points = serializers.IntegerField()


class PlayerPageSerializer(serializers.Serializer):
    tournament = serializers.CharField(source="tournament.name")
    name = serializers.CharField(source="registration.player.name")
    start_number = serializers.IntegerField(source="registration.start_number")
    current = PlayerRoundSerializer(allow_null=True, help_text="His seat in the newest public round, or null.")
    rounds = PlayerRoundSerializer(many=True, help_text="The public rounds he played, newest first.")
    total = serializers.IntegerField(help_text="His points so far.")
    rank = PlayerRankSerializer(allow_null=True, help_text="His place; null while the standings are not public.")
