"""``api/tournaments/<slug>/prizes/``: the prize plan and its preview at the registrations as they
stand, the prize list, who receives what (overall and by category) and what each took. Read-only; anyone
with a role in the tournament's club reads."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from ..selectors.prize_plan import prize_plan_preview
from ..selectors.standings import prize_list
from .base import FORBIDDEN, NOT_FOUND, TournamentApiView


class PlanSerializer(serializers.Serializer):
    curve = serializers.CharField()
    every_n = serializers.IntegerField()
    decay_percent = serializers.IntegerField()
    first_cents = serializers.IntegerField()
    table_bp = serializers.ListField(child=serializers.IntegerField())
    rounding_cents = serializers.IntegerField()
    costs_cents = serializers.IntegerField()
    goods_places = serializers.IntegerField()
    goods_label = serializers.CharField()
    last_place_goods = serializers.CharField()
    goods_list = serializers.CharField()
    categories_allow_both = serializers.BooleanField()


class PlannedSerializer(serializers.Serializer):
    place = serializers.IntegerField(allow_null=True)
    amount_cents = serializers.IntegerField(allow_null=True)
    goods = serializers.CharField()


class PreviewSerializer(serializers.Serializer):
    players = serializers.IntegerField()
    pool_cents = serializers.IntegerField(help_text="Fees × payout % + sponsored − costs − category money.")
    money_places = serializers.IntegerField(source="planned.money_places", allow_null=True)
    goods_places = serializers.IntegerField(source="planned.goods_places", allow_null=True)
    paid_cents = serializers.IntegerField(source="planned.paid_cents", allow_null=True)
    remainder_cents = serializers.IntegerField(source="planned.remainder_cents", allow_null=True)
    prizes = PlannedSerializer(source="planned.prizes", many=True, allow_null=True)
    error_field = serializers.CharField(help_text="The setting that makes no plan, or empty.")


class AwardSerializer(serializers.Serializer):
    category = serializers.CharField(help_text="Empty: the overall prize list.")
    rank = serializers.IntegerField()
    places = serializers.ListField(child=serializers.IntegerField())
    start_number = serializers.IntegerField()
    name = serializers.CharField()
    amount_cents = serializers.IntegerField()
    goods = serializers.CharField()
    shared_with = serializers.IntegerField()
    handed_over = serializers.BooleanField()
    chosen = serializers.CharField(help_text="What he took from the prize table.")


class PrizesSerializer(serializers.Serializer):
    plan = PlanSerializer()
    preview = PreviewSerializer()
    pool_cents = serializers.IntegerField()
    prizes = PlannedSerializer(many=True)
    awards = AwardSerializer(many=True)
    category_awards = AwardSerializer(many=True)
    paid_cents = serializers.IntegerField()
    leftover_cents = serializers.IntegerField()


class PrizesView(TournamentApiView):
    @extend_schema(
        tags=["prizes"],
        summary="The prize plan, its preview, the prize list and who receives what",
        responses={200: PrizesSerializer, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = self.tournament()
        preview = prize_plan_preview(tournament)
        prizes = prize_list(tournament)
        return Response(
            PrizesSerializer(
                {
                    "plan": preview.plan,
                    "preview": preview,
                    "pool_cents": prizes.pool_cents,
                    "prizes": [
                        {"place": p.place, "amount_cents": p.amount_cents, "goods": p.goods} for p in prizes.prizes
                    ],
                    "awards": prizes.awards,
                    "category_awards": prizes.category_awards,
                    "paid_cents": prizes.paid_cents,
                    "leftover_cents": prizes.leftover_cents,
                }
            ).data
        )
