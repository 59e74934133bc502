import json
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.messages import rule_error_text
from scoring.rules import RuleError, ruleset_from_dict
from tournaments.models import Tournament
from tournaments.services.errors import ServiceError
from tournaments.services.simulation import tournament_simulate


def read_rules(path: str) -> dict[str, Any]:
    """A ruleset document (rules.md section 10, any subset of the keys) from a JSON file, or - for stdin."""
    import sys

    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise CommandError(f"rules: cannot read {path}: {err.strerror or err}") from err
    try:
        rules = json.loads(text)
    except json.JSONDecodeError as err:
        raise CommandError(f"rules: {path} is not JSON (line {err.lineno}: {err.msg})") from err
    if not isinstance(rules, dict):
        raise CommandError(f"rules: {path} must hold a JSON object of ruleset keys")
    return rules


class Command(BaseCommand):
    help = "Rehearsal: register N invented players, draw and play every round with plausible games."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, default=2)
        parser.add_argument("--games", type=int, default=32, help="games per round at a table of four")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--slug", default=None, help="default: probelauf-<players>-<seed>")
        parser.add_argument(
            "--venues",
            type=int,
            default=0,
            help="play the evening in N inns at once (each with its own tables; players stay in theirs)",
        )
        parser.add_argument(
            "--rules",
            default=None,
            metavar="FILE",
            help='a ruleset JSON file (e.g. {"all_pass": "kreuz", "kreuz_tie": "replay"}); '
            "--rounds and --games win over its rounds and games_per_round",
        )

    def handle(
        self,
        *args,
        players: int,
        rounds: int,
        games: int,
        seed: int,
        slug: str | None,
        rules: str | None = None,
        venues: int = 0,
        **options,
    ) -> None:
        slug = slug or f"probelauf-{players}-{seed}"
        if players < 4:
            raise CommandError("players: a tournament needs at least 4 players")
        if venues < 0 or venues > players // 4:
            raise CommandError(f"venues: between 0 and {players // 4} (a venue needs a table of four), not {venues}")
        document = read_rules(rules) if rules else {}
        try:
            ruleset_from_dict({**document, "rounds": rounds, "games_per_round": games})
        except RuleError as err:
            option = {"games_per_round": "games", "rounds": "rounds"}.get(err.field)  # the command's own options
            raise CommandError(f"{option or 'rules.' + err.field}: {rule_error_text(err)}") from err
        if Tournament.objects.filter(slug=slug).exists():
            raise CommandError(f"slug: a tournament {slug!r} exists already; choose another with --slug")
        started = time.perf_counter()
        try:
            tournament = tournament_simulate(
                slug=slug, players=players, rounds=rounds, games=games, seed=seed, rules=document, venues=venues
            )
        except ServiceError as err:
            raise CommandError(str(err)) from err
        self.stdout.write(
            self.style.SUCCESS(
                f"Simulated {tournament.name} ({slug}){f' in {venues} venues' if venues else ''}: {rounds} rounds of {games} games in "
                f"{time.perf_counter() - started:.1f} s."
            )
        )
