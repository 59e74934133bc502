import json

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Series
from tournaments.selectors.series import series_csv, series_document, series_list, series_standings

FORMATS = ("json", "csv")


class Command(BaseCommand):
    help = "Print a series' standings (Saison or Cup) as JSON or CSV, or with --list every series' slug, one per line."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug", nargs="?", help="the series' short name")
        parser.add_argument("--format", "-f", default="json", help="json (default) or csv")
        parser.add_argument("--list", action="store_true", help="print every series' slug, one per line")

    def handle(self, *args, slug: str | None, format: str, list: bool, **options) -> None:
        if list:
            if slug:
                raise CommandError("slug: --list takes no slug")
            for series in series_list().order_by("slug"):
                self.stdout.write(series.slug)
            return
        if not slug:
            raise CommandError("slug: name a series (or use --list)")
        if format not in FORMATS:
            raise CommandError(f"format: one of {', '.join(FORMATS)} is needed, not {format!r}")
        series = Series.objects.filter(slug=slug).select_related("club").first()
        if series is None:
            raise CommandError(f"slug: no series {slug!r} (see --list)")
        data = series_standings(series)
        if format == "csv":
            self.stdout.write(series_csv(data), ending="")
        else:
            self.stdout.write(json.dumps(series_document(data), ensure_ascii=False, indent=1))
