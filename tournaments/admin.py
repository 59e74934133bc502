from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from .models import (
    Club,
    ClubMembership,
    Hand,
    HandRevision,
    Player,
    Registration,
    Round,
    Seat,
    SignUp,
    Table,
    Tournament,
)
from .services.errors import ServiceError
from .services.registration import registration_create, registration_update
from .services.roles import role_remove, role_save
from .services.tournament import rules_locked, tournament_update


class ReadOnlyAdmin(admin.ModelAdmin):
    """Open to inspect, closed to change: these rows are written by the services only, which rescore the
    game, keep its revision, respect the closed round's lock, recompute the standings and ask for a reason.
    Changes go through the organiser's pages (or the API), never around them."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "town"]
    search_fields = ["name", "town"]


@admin.register(ClubMembership)
class ClubMembershipAdmin(admin.ModelAdmin):
    # Role changes go through the service, which logs them (who, when, before → after).
    list_display = ["user", "club", "role"]
    list_filter = ["role", "club"]

    def save_model(self, request, obj, form, change):
        role_save(membership=obj, by=request.user)

    def delete_model(self, request, obj):
        role_remove(membership=obj, by=request.user)

    def delete_queryset(self, request, queryset):
        for membership in queryset.select_related("club", "user"):
            role_remove(membership=membership, by=request.user)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "club"]
    list_filter = ["club"]
    search_fields = ["last_name", "first_name"]


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    fields = ["start_number", "player", "paid", "checked_in", "withdrawn_after_round"]
    # withdrawals and substitutes are the desk's: the waiting list moves up and the log says why
    readonly_fields = ["start_number", "withdrawn_after_round"]
    autocomplete_fields = ["player"]


def _registration_save(request, registration: Registration, *, new: bool) -> None:
    """A registration from the admin goes through the services, as at the desk: a new one takes the next
    start number, and what changes (paid, checked in) is logged with the admin's user."""
    if new:
        created = registration_create(
            tournament=registration.tournament,
            player=registration.player,
            paid=registration.paid,
            checked_in=registration.checked_in,
            by=request.user,
        )
        registration.pk, registration.start_number, registration.key = created.pk, created.start_number, created.key
        registration.created_at = created.created_at
        registration._state.adding = False
    else:
        registration_update(
            registration=registration, paid=registration.paid, checked_in=registration.checked_in, by=request.user
        )


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "club", "status", "registration_count"]
    list_filter = ["status", "club"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [RegistrationInline]

    @admin.display(description="#")
    def registration_count(self, obj: Tournament) -> int:
        return obj.registrations.count()

    def get_readonly_fields(self, request, obj=None):
        # Once play started the games were scored with these rules (as on the settings page), and the
        # tournament's status follows its rounds.
        if obj is not None and rules_locked(obj):
            return ["rules", "status"]
        return []

    def save_model(self, request, obj, form, change):
        """Changes go through the service, which logs them (tournament.details, tournament.rules)."""
        if not change:
            return super().save_model(request, obj, form, change)
        fields = {name: getattr(obj, name) for name in form.changed_data if name != "rules"}
        rules = obj.rules if "rules" in form.changed_data else None
        tournament_update(tournament=obj, rules=rules, by=request.user, **fields)

    def save_formset(self, request, form, formset, change):
        """A registration added in the inline takes the next start number and is logged, as at the desk."""
        if formset.model is not Registration:
            return super().save_formset(request, form, formset, change)
        registrations = formset.save(commit=False)
        for registration in formset.deleted_objects:
            registration.delete()
        for registration in registrations:
            try:
                _registration_save(request, registration, new=registration.pk is None)
            except ServiceError as err:  # e.g. a seated player checked out: he is withdrawn at the desk
                messages.error(request, f"{registration.player}: {err.message}")
        formset.save_m2m()


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["start_number", "player", "tournament", "paid", "checked_in", "withdrawn_after_round"]
    list_filter = ["tournament", "paid", "checked_in"]
    search_fields = ["player__last_name", "player__first_name"]
    autocomplete_fields = ["player"]

    def get_readonly_fields(self, request, obj=None):
        # The start number belongs to the tournament: a registration does not move to another one. Withdrawals
        # and substitutes are the desk's (the waiting list moves up, the log says why); a seated player is
        # withdrawn there, not checked out here.
        desk_only = ["start_number", "withdrawn_after_round", "substitute_for"]
        if obj is None:
            return desk_only
        return ["tournament", "player", *desk_only, *(["checked_in"] if obj.seats.exists() else [])]

    def save_model(self, request, obj, form, change):
        _registration_save(request, obj, new=not change)


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "size", "completed_at"]
    readonly_fields = fields


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "number", "status", "seed"]
    list_filter = ["tournament", "status"]
    inlines = [TableInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["number", "registration"]
    readonly_fields = fields


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["round", "number", "size"]
    list_filter = ["round__tournament"]
    inlines = [SeatInline]


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ["table", "number", "contract", "declarer", "partner", "augen", "points"]
    list_filter = ["contract", "table__round__tournament"]
    list_select_related = ["table__round__tournament"]

    @admin.display(description=_("points per seat"))
    def points(self, hand: Hand) -> dict[str, int]:
        return hand.points


@admin.register(HandRevision)
class HandRevisionAdmin(ReadOnlyAdmin):
    """Every change to a game, to inspect a correction; the record is written by the services only."""

    list_display = ["table", "number", "action", "at", "by", "device", "reason"]
    list_filter = ["action", "table__round__tournament"]
    list_select_related = ["table__round__tournament", "by"]
    search_fields = ["reason", "device"]


@admin.register(SignUp)
class SignUpAdmin(ReadOnlyAdmin):
    """Online sign-ups, to inspect: places, the waiting list and withdrawals move through the services (the
    waiting list moves up, mails go out), the returning players are confirmed at the desk."""

    list_display = ["tournament", "last_name", "first_name", "status", "registration", "match_state", "created_at"]
    list_filter = ["status", "tournament"]
    list_select_related = ["tournament", "registration"]
    search_fields = ["first_name", "last_name", "email"]
    exclude = ["key"]  # the personal key is a credential
