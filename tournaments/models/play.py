import secrets

from django.conf import settings
from django.db import models
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from scoring.describe import SUIT_NAMES
from scoring.storage import POINTS_COLUMNS, columns_points, points_columns

from .tournament import Registration, Tournament


def new_entry_key() -> str:
    """An unguessable key for a table's private entry link."""
    return secrets.token_urlsafe(18)


class Round(models.Model):
    class Status(models.TextChoices):
        DRAWN = "drawn", _("drawn")
        PUBLISHED = "published", _("published")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.DRAWN)
    seed = models.BigIntegerField(_("draw seed"))
    drawn_at = models.DateTimeField(_("drawn"), auto_now_add=True)
    published_at = models.DateTimeField(_("published"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament.name} – {_('round')} {self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round"))
    number = models.PositiveSmallIntegerField(_("table"))
    size = models.PositiveSmallIntegerField(_("players"), choices=[(4, "4"), (5, "5")])
    entry_key = models.CharField(_("entry key"), max_length=64, unique=True, default=new_entry_key, editable=False)
    completed_at = models.DateTimeField(_("completed"), null=True, blank=True)
    # Paper mode without games: each seat's round total as the sheet says ({"1": 12, ...}); sums to 0.
    PAPER_TOTAL_MAX = 100_000  # a seat's round total from paper, plus or minus: far beyond any evening
    paper_totals = models.JSONField(_("round totals from the paper sheet"), null=True, blank=True)
    # A game changed after players had confirmed: the tablet asks them to confirm again and marks it.
    reconfirm_game = models.PositiveSmallIntegerField(_("game changed after confirmation"), null=True, blank=True)
    # The organiser closed the table without every confirmation (a player left, a game is missing): why.
    closed_reason = models.CharField(_("closed by the organiser because"), max_length=300, blank=True)
    # A table of five that lost a player plays on with four (rules.md section 2): from game
    # ``seat_left_from`` the seat ``seat_left`` sits out every game and nobody else does.
    seat_left = models.PositiveSmallIntegerField(_("seat left empty"), null=True, blank=True)
    seat_left_from = models.PositiveSmallIntegerField(_("with four from game"), null=True, blank=True)
    # ...and its round then has this many games (``scoring.rules.table.games_with_four``).
    games_with_four = models.PositiveSmallIntegerField(_("games of the round with four"), null=True, blank=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="unique_table_number_per_round"),
            models.CheckConstraint(condition=models.Q(size__in=[4, 5]), name="table_size_4_or_5"),
        ]

    def __str__(self) -> str:
        return f"{self.round} – {_('table')} {self.number}"

    def left(self) -> tuple[int, int, int] | None:
        """(the empty seat, the first game with four, the round's games) once it plays on with four."""
        if self.seat_left is None or self.seat_left_from is None or self.games_with_four is None:
            return None
        return self.seat_left, self.seat_left_from, self.games_with_four


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table"))
    # Denormalised from table so that "one seat per player and round" is a database constraint.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats", verbose_name=_("round"))
    number = models.PositiveSmallIntegerField(_("seat"))
    registration = models.ForeignKey(
        Registration, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    # Who played which games (rules.md section 2, a substitute mid-round): ``registration`` plays this
    # seat from game ``since_game``; the games before were ``earlier``'s. Both empty: his from game 1.
    since_game = models.PositiveSmallIntegerField(_("plays from game"), null=True, blank=True)
    earlier = models.ForeignKey(
        Registration,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("played the games before"),
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_seat_number_per_table"),
            models.UniqueConstraint(fields=["round", "registration"], name="unique_seat_per_player_and_round"),
            models.CheckConstraint(condition=models.Q(number__gte=1, number__lte=5), name="seat_number_1_to_5"),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {_('seat')} {self.number}: {self.registration}"


class Hand(models.Model):
    """One game at a table: the hand record of rules.md section 4 and the points it gave."""

    class Contract(models.TextChoices):
        RUFSPIEL = "rufspiel", _("Rufspiel")
        WENZ = "wenz", _("Wenz")
        SOLO = "solo", _("Farbsolo")
        WEITER = "weiter", _("thrown in (all passed)")
        KREUZ = "kreuz", _("Kreuz (all passed)")

    class Suit(models.TextChoices):
        EICHEL = "eichel", SUIT_NAMES["eichel"]
        GRAS = "gras", SUIT_NAMES["gras"]
        HERZ = "herz", SUIT_NAMES["herz"]
        SCHELLEN = "schellen", SUIT_NAMES["schellen"]

    class CalledCard(models.TextChoices):
        SAU = "sau", _("Sau")
        ZEHN = "zehn", _("Zehn")
        KOENIG = "koenig", _("König")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands", verbose_name=_("table"))
    number = models.PositiveSmallIntegerField(_("game"))
    # The hand record of rules.md section 4, exactly as entered: NULL = not entered.
    contract = models.CharField(_("contract"), max_length=20, choices=Contract.choices)
    declarer = models.PositiveSmallIntegerField(_("declarer"), null=True, blank=True)
    partner = models.PositiveSmallIntegerField(_("partner"), null=True, blank=True)
    called = models.CharField(_("called Sau"), max_length=20, choices=Suit.choices, null=True, blank=True)  # noqa: DJ001 (NULL: the contract has none)
    muss = models.BooleanField(_("Muss"), null=True, blank=True)
    called_card = models.CharField(_("called card"), max_length=20, choices=CalledCard.choices, null=True, blank=True)  # noqa: DJ001 (NULL: the contract has none)
    renonce = models.BooleanField(_("Renonce"), null=True, blank=True)
    trump = models.CharField(_("trump suit"), max_length=20, choices=Suit.choices, null=True, blank=True)  # noqa: DJ001 (NULL: the contract has none)
    tout = models.BooleanField(_("Tout"), null=True, blank=True)
    sie = models.BooleanField(_("Sie"), null=True, blank=True)
    augen = models.PositiveSmallIntegerField(_("Augen"), null=True, blank=True)
    schwarz = models.BooleanField(_("Schwarz"), null=True, blank=True)
    won = models.BooleanField(_("won (Tout)"), null=True, blank=True)
    laufende = models.PositiveSmallIntegerField(_("Laufende"), null=True, blank=True)
    kontra = models.PositiveSmallIntegerField(_("Kontra"), null=True, blank=True)
    # Who sat out / dealt this game: always stored (rules.md section 2), part of the record at a table of five.
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    # The points of the game per seat (scoring.storage.POINTS_COLUMNS, written by its outcome_columns only):
    # integer columns any database sums per table; NULL where the table has no such seat or the game was
    # thrown in. ``points`` below gives them as the map the sheets, the archive and the API show.
    points_1 = models.IntegerField(format_lazy(_("points, seat {seat}"), seat=1), null=True, blank=True)
    points_2 = models.IntegerField(format_lazy(_("points, seat {seat}"), seat=2), null=True, blank=True)
    points_3 = models.IntegerField(format_lazy(_("points, seat {seat}"), seat=3), null=True, blank=True)
    points_4 = models.IntegerField(format_lazy(_("points, seat {seat}"), seat=4), null=True, blank=True)
    points_5 = models.IntegerField(format_lazy(_("points, seat {seat}"), seat=5), null=True, blank=True)
    # The rules engine's whole outcome (scoring.rules.outcome), stored with the game so that standings,
    # sheets and cash lists only add up and never score a game again.
    outcome = models.JSONField(_("outcome"), default=dict)
    # Thrown in: the same dealer deals again and the game does not count (a "weiter" under all-pass =
    # redeal, a Kreuz ending 60:60 under kreuz_tie = replay); the engine's HandScore.thrown_in.
    thrown_in = models.BooleanField(_("thrown in"), default=False)
    # Taken from the outcome by its one writer too (scoring.storage.outcome_columns): the seat that won
    # or lost a solo in this game (HandScore.won_solo / lost_solo: the declarer), and whether it costs
    # money (Reuegeld or Weitergeld). The full recompute counts solos per table and reads only the
    # paying games with plain column conditions, instead of looking inside every game's JSON.
    solo_won = models.PositiveSmallIntegerField(_("solo won by seat"), null=True, blank=True)
    solo_lost = models.PositiveSmallIntegerField(_("solo lost by seat"), null=True, blank=True)
    pays = models.BooleanField(_("costs money"), default=False)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    device = models.CharField(_("device"), max_length=200, blank=True)
    client_id = models.UUIDField(_("submission id"), unique=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_game_number_per_table"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="game_number_positive"),
            models.CheckConstraint(
                condition=models.Q(augen__isnull=True) | models.Q(augen__lte=120), name="augen_0_to_120"
            ),
        ]
        # The few games that cost money, per table: the standings' recompute reads only these one by one.
        indexes = [models.Index(fields=["table"], condition=models.Q(pays=True), name="paying_games_per_table")]

    def __str__(self) -> str:
        return f"{self.table} – {_('game')} {self.number}: {self.get_contract_display()}"

    @property
    def points(self) -> dict[str, int]:
        """Points per seat, {"1": 1, "2": -1, ...} in seat order; empty when thrown in."""
        return columns_points({name: getattr(self, name) for name in POINTS_COLUMNS.values()})

    @points.setter
    def points(self, points: dict) -> None:
        for name, value in points_columns(points).items():
            setattr(self, name, value)


class TableConfirmation(models.Model):
    """A player confirmed the table's sheet at the end of the round by tapping his name."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="confirmations", verbose_name=_("table"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    device = models.CharField(_("device"), max_length=200, blank=True)
    # Which browser confirmed: a random id kept in its session (never the session key itself); blank for
    # the API and an organiser confirming for a player. Every seat from one id: the table is told so.
    device_id = models.CharField(_("device id"), max_length=32, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed"), auto_now_add=True)

    class Meta:
        verbose_name = _("confirmation")
        verbose_name_plural = _("confirmations")
        ordering = ["table", "seat"]
        constraints = [models.UniqueConstraint(fields=["table", "seat"], name="unique_confirmation_per_seat")]

    def __str__(self) -> str:
        return f"{self.table} – {_('seat')} {self.seat}"
