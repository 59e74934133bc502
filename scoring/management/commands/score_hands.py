import json
import sys

from django.core.management.base import BaseCommand, CommandError

from scoring.rules import RuleError, score_document


class Command(BaseCommand):
    help = (
        "Score hand records with a ruleset (docs/score-cli.md). Exit status 0: every hand valid; "
        "1: at least one hand had an error; 2: the document or its rules cannot be read."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="a JSON document, or - for standard input")

    def handle(self, *args, file: str, **options) -> None:
        try:
            if file == "-":
                doc = json.load(sys.stdin)
            else:
                with open(file, encoding="utf-8") as fh:
                    doc = json.load(fh)
        except OSError as err:
            raise CommandError(f"file: cannot read {file}: {err.strerror}", returncode=2) from err
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise CommandError(f"file: not a JSON document ({err})", returncode=2) from err
        try:
            output, status = score_document(doc)
        except RuleError as err:
            raise CommandError(str(err), returncode=2) from err
        self.stdout.write(json.dumps(output, ensure_ascii=False, indent=1))
        if status:
            sys.exit(status)
