"""A short name for the URL from a German name: German transliteration, then Django's ``slugify``.

``slugify`` alone drops ß and strips the umlauts' dots ("Großes Kärwa-Rennen Öd" → ``groes-karwa-rennen-od``);
written the German way it reads ``grosses-kaerwa-rennen-oed``. Only new short names are made here: a stored
slug is a published URL and stays as it is.
"""

from django.utils.text import slugify

GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss", "ẞ": "SS"})


def german_slugify(text: str, max_length: int = 100) -> str:
    return slugify(text.translate(GERMAN))[:max_length].strip("-")
