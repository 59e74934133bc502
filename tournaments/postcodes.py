"""German postcodes: their centroids (shipped as data, ``data/plz_centroids.csv``, see ``data/PLZ_LICENSE.md``)
and the distance between two of them. The calendar's distance filter and the clash warning ask here."""

import csv
import functools
import math
from pathlib import Path

CENTROIDS = Path(__file__).resolve().parent / "data" / "plz_centroids.csv"
EARTH_RADIUS_KM = 6371.0


@functools.cache
def centroids() -> dict[str, tuple[float, float]]:
    with CENTROIDS.open(encoding="utf-8") as handle:
        return {row["plz"]: (float(row["lat"]), float(row["lon"])) for row in csv.DictReader(handle)}


def centroid(postcode: str) -> tuple[float, float] | None:
    """(latitude, longitude) of a five-digit German postcode, None for one not in the list."""
    return centroids().get((postcode or "").strip())


def haversine_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


def distance_km(postcode_a: str, postcode_b: str) -> float | None:
    """Kilometres as the crow flies between two postcodes' centroids; None when either is unknown."""
    a, b = centroid(postcode_a), centroid(postcode_b)
    if a is None or b is None:
        return None
    return haversine_km(a, b)
