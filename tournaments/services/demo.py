"""The demo tournament that `make run` shows a newcomer."""

import datetime
import random

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from scoring.rules.table import dealer_for, games_required

from ..models import Club, ClubMembership, Player, Prize, PrizePlan, Series, Tournament
from ..simulation import random_hand
from .hands import table_sheet_record
from .prizes import (
    prize_categories_set,
    prize_plan_apply,
    prize_plan_set,
    registration_facts_set,
    tournament_standings_publish,
)
from .qualification import final_fill, qualification_settings, wildcard_give
from .registration import registration_create
from .rounds import round_draw, round_publish
from .schedule import standings_deferred
from .series import series_create, series_tournament_add
from .signups import signup_create, signup_options_update
from .simulation import tournament_play
from .tournament import tournament_create
from .venues import venue_create, venue_helper_add

DEMO_CLUB = "Schafkopffreunde Musterdorf"
DEMO_SLUG = "herbstrennen"
DEMO_USERNAME = "organisator"
DEMO_PASSWORD = "herbstrennen-demo"
DEMO_SEED = 20261121
DEMO_SERIES_SLUG = "jahreswertung-2026"
DEMO_SERIES_NAME = "Jahreswertung 2026"
DEMO_GUEST_CLUB = "SK Nachbarort"
# (name, slug, date, the players by their index in DEMO_PLAYERS; 22 is the guest): overlapping fields
DEMO_SEASON = [
    ("Frühjahrsrennen", "fruehjahrsrennen-2026", datetime.date(2026, 3, 14), [*range(7), 22]),
    ("Sommerrennen", "sommerrennen-2026", datetime.date(2026, 6, 13), list(range(4, 12))),
    ("Kirtarennen", "kirtarennen-2026", datetime.date(2026, 9, 12), [0, 1, 2, 4, 5, *range(8, 11)]),
]
DEMO_VENUES_SLUG = "drei-wirtshaeuser"
DEMO_VENUE_HELPER = "wirt-post"
# (name, address, contact, first table, last table): 22 players over three inns
DEMO_VENUES = [
    ("Gasthaus zur Post", "Hauptstraße 1, Musterdorf", "Wirtin Rosi, 08123 4567", 1, 2),
    ("Gasthof Kreuz", "Kirchplatz 3, Musterdorf", "Wirt Schorsch, 08123 7654", 3, 4),
    ("Bräustüberl", "Brauereiweg 7, Musterdorf", "Kellnerin Vroni, 08123 1111", 5, 6),
]
DEMO_QUALIFIER_SLUG = "wirtshaus-qualifikation-2026"
DEMO_FINAL_SLUG = "finale-wirtshaus-qualifikation"
# (name, slug, date, hosted by the next village's club, the players by their index in DEMO_PLAYERS)
DEMO_QUALIFIER_EVENINGS = [
    ("Vorrunde Post", "vorrunde-post-2026", datetime.date(2026, 10, 3), False, list(range(8))),
    ("Vorrunde Nachbarort", "vorrunde-nachbarort-2026", datetime.date(2026, 10, 10), True, list(range(4, 12))),
    ("Vorrunde Kreuz", "vorrunde-kreuz-2026", datetime.date(2026, 10, 17), False, [*range(8, 14), 1, 2]),
    ("Vorrunde Au", "vorrunde-au-2026", datetime.date(2026, 10, 24), True, [*range(12, 18), 3, 9]),
]
DEMO_PLAYERS = [
    ("Anna", "Huber"),
    ("Josef", "Bauer"),
    ("Maria", "Maier"),
    ("Franz", "Wimmer"),
    ("Theresa", "Gruber"),
    ("Michael", "Hofer"),
    ("Johanna", "Brandl"),
    ("Georg", "Reiter"),
    ("Resi", "Lechner"),
    ("Sepp", "Kainz"),
    ("Barbara", "Moser"),
    ("Xaver", "Obermeier"),
    ("Kathrin", "Pichler"),
    ("Alois", "Stadler"),
    ("Monika", "Fischer"),
    ("Ludwig", "Schuster"),
    ("Veronika", "Eder"),
    ("Korbinian", "Zehetmair"),
    ("Elisabeth", "Weiß"),
    ("Andreas", "Strobl"),
    ("Magdalena", "Rieder"),
    ("Quirin", "Ächter"),
]


@transaction.atomic
def demo_create() -> tuple[Tournament, str, str]:
    """Create (or complete) the demo: club, 22 players, organiser login, the Herbstrennen.

    Idempotent: running it again changes nothing that is already there.
    """
    club, _ = Club.objects.get_or_create(name=DEMO_CLUB, defaults={"town": "Musterdorf"})
    players = [
        Player.objects.get_or_create(first_name=first, last_name=last, club=club)[0] for first, last in DEMO_PLAYERS
    ]
    user_model = get_user_model()
    user = user_model.objects.filter(username=DEMO_USERNAME).first()
    if user is None:
        user = user_model.objects.create_user(DEMO_USERNAME, password=DEMO_PASSWORD, is_staff=True, is_superuser=True)
    ClubMembership.objects.get_or_create(user=user, club=club, defaults={"role": ClubMembership.Role.ORGANISER})

    tournament = Tournament.objects.filter(slug=DEMO_SLUG).first()
    if tournament is None:
        tournament = tournament_create(
            club=club,
            name="Herbstrennen",
            slug=DEMO_SLUG,
            date=datetime.date(2026, 11, 21),
            venue="Gasthaus zur Post, Musterdorf",
            entry_fee_cents=1000,
        )
    registered = set(tournament.registrations.values_list("player_id", flat=True))
    for player in players:
        if player.pk not in registered:
            registration_create(tournament=tournament, player=player, paid=True, checked_in=True)
    if not tournament.rounds.exists():
        with standings_deferred():
            _demo_round_half_played(tournament)
    if not PrizePlan.objects.filter(tournament=tournament).exists():
        _demo_prizes(tournament)
    if not Series.objects.filter(slug=DEMO_SERIES_SLUG).exists():
        _demo_season(club, players, user)
    if not Tournament.objects.filter(slug=DEMO_VENUES_SLUG).exists():
        _demo_venues(club, players, user)
    if not Series.objects.filter(slug=DEMO_QUALIFIER_SLUG).exists():
        _demo_qualification(club, players, user)
    _demo_calendar(club)
    return tournament, DEMO_USERNAME, DEMO_PASSWORD


# The calendar: each of the two clubs announces an upcoming tournament, the guest club takes
# transfers (its IBAN: the standard's example account) and has one player signed up, so the confirmation
# shows the GiroCode.
DEMO_CALENDAR = [
    # (club, postcode, tournament, slug, days from today, start, places, prizes in cents)
    (DEMO_CLUB, "84028", "Weihnachtsrennen", "weihnachtsrennen", 21, datetime.time(19, 0), 48, [15000, 8000, 4000]),
    (DEMO_GUEST_CLUB, "84036", "Dreikönigsrennen", "dreikoenigsrennen", 40, datetime.time(18, 30), 32, [10000, 5000]),
]
DEMO_IBAN = "DE89370400440532013000"


def _demo_calendar(club: Club) -> None:
    if not club.postcode:
        Club.objects.filter(pk=club.pk).update(postcode="84028")
    for club_name, postcode, name, slug, days, start, places, prizes in DEMO_CALENDAR:
        host, _ = Club.objects.get_or_create(name=club_name, defaults={"town": "Nachbarort"})
        if not host.postcode:
            Club.objects.filter(pk=host.pk).update(postcode=postcode)
            host.refresh_from_db()
        if Tournament.objects.filter(slug=slug).exists():
            continue
        tournament = tournament_create(
            club=host,
            name=name,
            slug=slug,
            date=timezone.localdate() + datetime.timedelta(days=days),
            venue="Gasthaus zur Post" if host == club else "Sportheim",
            listed=True,
            entry_fee_cents=1500,
        )
        Prize.objects.bulk_create(
            [Prize(tournament=tournament, place=n, amount_cents=cents) for n, cents in enumerate(prizes, start=1)]
        )
        signup_options_update(
            tournament=tournament,
            open=True,
            closes_at=None,
            capacity=places,
            waiting_list=True,
            consent_text="",
            start_time=start,
        )
        if host.name == DEMO_GUEST_CLUB:
            Club.objects.filter(pk=host.pk).update(iban=DEMO_IBAN, account_holder="SK Nachbarort e. V.")
            signup_create(
                tournament=tournament,
                first_name="Hias",
                last_name="Gschwendtner",
                club_name=host.name,
                consent=True,
                url_base="http://localhost:8000/",
            )


def _demo_venues(club: Club, players: list[Player], user) -> Tournament:
    """An evening in three inns: each with its tables, address and contact, round 1 drawn over them
    and published; the desk of the first has its own helper (login ``DEMO_VENUE_HELPER``, the demo password)."""
    tournament = tournament_create(
        club=club,
        name="Herz ist Trumpf – drei Wirtshäuser",
        slug=DEMO_VENUES_SLUG,
        date=datetime.date(2026, 12, 5),
        venue="Musterdorf",
        rules={"rounds": 2, "games_per_round": 8, "keep_clubs_apart": True},
    )
    venues = [
        venue_create(
            tournament=tournament,
            name=name,
            address=address,
            contact=contact,
            first_table=first,
            last_table=last,
            by=user,
        )
        for name, address, contact, first, last in DEMO_VENUES
    ]
    for player in players:
        registration_create(tournament=tournament, player=player, paid=True, checked_in=True)
    helper = get_user_model().objects.filter(username=DEMO_VENUE_HELPER).first()
    if helper is None:
        helper = get_user_model().objects.create_user(DEMO_VENUE_HELPER, password=DEMO_PASSWORD)
    venue_helper_add(venue=venues[0], username=DEMO_VENUE_HELPER, by=user)
    (rnd,) = round_draw(tournament=tournament, seed=DEMO_SEED + 38)
    round_publish(round=rnd)
    tournament_standings_publish(tournament=tournament, public=True)
    return tournament


def _demo_qualification(club: Club, players: list[Player], user) -> Series:
    """A qualification: four pub evenings, two of them hosted by the next village's club, two of each
    evening go on, one final place by lot among those with two evenings; the final is filled from the list."""
    guests, _ = Club.objects.get_or_create(name=DEMO_GUEST_CLUB, defaults={"town": "Nachbarort"})
    series = series_create(
        club=club,
        name="Wirtshaus-Qualifikation 2026",
        slug=DEMO_QUALIFIER_SLUG,
        by=user,
        kind=Series.Kind.QUALIFIER,
        public=True,
    )
    for number, (name, slug, date, host, field) in enumerate(DEMO_QUALIFIER_EVENINGS, start=1):
        evening = tournament_create(
            club=guests if host else club, name=name, slug=slug, date=date, rules={"rounds": 1, "games_per_round": 8}
        )
        for index in field:
            registration_create(tournament=evening, player=players[index], paid=True, checked_in=True)
        tournament_play(tournament=evening, seed=DEMO_SEED + 100 + number)
        tournament_standings_publish(tournament=evening, public=True)
        series_tournament_add(series=series, tournament=evening, by=user)
    final = tournament_create(
        club=club,
        name="Finale der Wirtshaus-Qualifikation",
        slug=DEMO_FINAL_SLUG,
        date=datetime.date(2026, 12, 12),
        venue="Gasthaus zur Post, Musterdorf",
        rules={"rounds": 2, "games_per_round": 8},
    )
    series = qualification_settings(
        series=series,
        per_evening=2,
        mode=Series.QualifyMode.TOP_NOT_QUALIFIED,
        lottery_places=1,
        lottery_min_evenings=2,
        final=final,
        invitation_deadline=datetime.date(2026, 12, 5),
        by=user,
    )
    wildcard_give(series=series, player=players[0], reason="Titelverteidigerin", by=user)
    final_fill(series=series, by=user)
    return series


def _demo_season(club: Club, players: list[Player], user) -> Series:
    """The club's finished season of three evenings (best 2 of 3), with a guest from the next village.

    Small on purpose (8 of 12 players each evening, two rounds of 8 games): tests load the demo often
    (bench/demo_season.py measures what it adds).
    """
    guests, _ = Club.objects.get_or_create(name=DEMO_GUEST_CLUB, defaults={"town": "Nachbarort"})
    guest = Player.objects.get_or_create(first_name="Hias", last_name="Gschwendtner", club=guests)[0]
    people = [*players, guest]
    series = series_create(
        club=club,
        name=DEMO_SERIES_NAME,
        slug=DEMO_SERIES_SLUG,
        by=user,
        kind=Series.Kind.SEASON,
        scoring=Series.Scoring.BEST_N,
        best=2,
        public=True,
    )
    for number, (name, slug, date, field) in enumerate(DEMO_SEASON, start=1):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            tournament = tournament_create(
                club=club,
                name=name,
                slug=slug,
                date=date,
                venue="Gasthaus zur Post, Musterdorf",
                rules={"rounds": 2, "games_per_round": 8},
            )
            for index in field:
                registration_create(tournament=tournament, player=people[index], paid=True, checked_in=True)
            tournament_play(tournament=tournament, seed=DEMO_SEED + number)
            tournament_standings_publish(tournament=tournament, public=True)
        series_tournament_add(series=series, tournament=tournament, by=user)
    return series


def _demo_prizes(tournament: Tournament) -> None:
    """The Herbstrennen's prizes as clubs give them: a plan for the top third (each next 15 % less, whole euros),
    three goods places from the prize table, a consolation prize, and the best under 30 (years of birth given at
    the desk) – the prize page shows the plan's live preview, the category winner and the call-up."""
    prize_plan_set(
        tournament=tournament,
        values={
            "curve": "third",
            "decay_percent": 15,
            "rounding_cents": 100,
            "goods_places": 3,
            "goods_label": "Sachpreis vom Preistisch",
            "last_place_goods": "Stadtwurst",
            "goods_list": "Geräuchertes vom Metzger Huber\nBrotzeitbrettl mit Gravur\nKiste Festbier\nKartenspiel",
        },
    )
    year = tournament.date.year
    for reg in tournament.registrations.order_by("start_number"):
        age = 19 + (reg.start_number * 7) % 60  # 26, 33, … 19: a few under 30 among them
        registration_facts_set(
            tournament=tournament, start_number=reg.start_number, birth_year=year - age, local=reg.start_number % 4 != 0
        )
    prize_categories_set(
        tournament=tournament,
        categories=[
            {"name": "U30", "max_age": 29, "prizes": [{"amount_cents": 2000}, {"goods": "Kinogutschein"}]},
            {"name": "Bester Lokalmatador", "local": True, "prizes": [{"goods": "Stadtwurst-Paket"}]},
        ],
    )
    prize_plan_apply(tournament=tournament)


def _demo_round_half_played(tournament: Tournament) -> None:
    """Round 1 drawn, published and half played, so every page has something to show."""
    rng = random.Random(DEMO_SEED)
    (rnd,) = round_draw(tournament=tournament, seed=DEMO_SEED)
    round_publish(round=rnd)
    rules = tournament.ruleset
    for table in rnd.tables.order_by("number"):
        half = games_required(rules.games_per_round, table.size) // 2
        records = [
            random_hand(
                rng,
                table_size=table.size,
                dealer=dealer_for(n, 0, table.size),
                tout_allowed=rules.tout_allowed,
                sie_allowed=rules.sie_allowed,
            )
            for n in range(1, half + 1)
        ]
        table_sheet_record(table=table, records=records, device="demo")
    tournament_standings_publish(tournament=tournament, public=True)
