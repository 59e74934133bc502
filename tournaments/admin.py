from django.contrib import admin

from .models import Club, ClubMembership, Hand, Player, Registration, Round, Seat, Table, Tournament, WorkerPing


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "town"]
    search_fields = ["name", "town"]


@admin.register(ClubMembership)
class ClubMembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role"]
    list_filter = ["role", "club"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "club"]
    list_filter = ["club"]
    search_fields = ["last_name", "first_name"]


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    fields = ["start_number", "player", "paid", "checked_in", "withdrawn_after_round"]
    readonly_fields = ["start_number"]
    autocomplete_fields = ["player"]


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


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["start_number", "player", "tournament", "paid", "checked_in", "withdrawn_after_round"]
    list_filter = ["tournament", "paid", "checked_in"]
    search_fields = ["player__last_name", "player__first_name"]
    autocomplete_fields = ["player"]
    readonly_fields = ["start_number"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "size", "completed_at"]
    readonly_fields = fields


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "seed"]
    list_filter = ["tournament", "status"]
    inlines = [TableInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["number", "registration"]
    readonly_fields = fields


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["round", "number", "size"]
    list_filter = ["round__tournament"]
    inlines = [SeatInline]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["table", "number", "contract", "declarer", "partner", "augen", "points"]
    list_filter = ["contract", "table__round__tournament"]
    readonly_fields = ["points", "client_id", "entered_by", "device", "created_at", "updated_at"]


@admin.register(WorkerPing)
class WorkerPingAdmin(admin.ModelAdmin):
    list_display = ["token", "hostname", "created_at"]
