import time

from django.core.management.base import BaseCommand, CommandError

from scoring.messages import rule_error_text
from scoring.rules import RuleError, ruleset_from_dict
from tournaments.models import Tournament
from tournaments.services.errors import ServiceError
from tournaments.services.simulation import tournament_simulate


class Command(BaseCommand):
    help = "Rehearsal: register N invented players, draw and play every round with plausible games."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, default=2)
        parser.add_argument("--games", type=int, default=32, help="games per round at a table of four")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--slug", default=None, help="default: probelauf-<players>-<seed>")

    def handle(self, *args, players: int, rounds: int, games: int, seed: int, slug: str | None, **options) -> None:
        slug = slug or f"probelauf-{players}-{seed}"
        if players < 4:
            raise CommandError("players: a tournament needs at least 4 players")
        try:
            ruleset_from_dict({"rounds": rounds, "games_per_round": games})
        except RuleError as err:
            option = {"games_per_round": "games"}.get(err.field, err.field)  # the command's own option names
            raise CommandError(f"{option}: {rule_error_text(err)}") from err
        if Tournament.objects.filter(slug=slug).exists():
            raise CommandError(f"slug: a tournament {slug!r} exists already; choose another with --slug")
        started = time.perf_counter()
        try:
            tournament = tournament_simulate(slug=slug, players=players, rounds=rounds, games=games, seed=seed)
        except ServiceError as err:
            raise CommandError(str(err)) from err
        self.stdout.write(self.style.SUCCESS(
            f"Simulated {tournament.name} ({slug}): {rounds} rounds of {games} games in "
            f"{time.perf_counter() - started:.1f} s."
        ))
