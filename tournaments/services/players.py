"""The club's player database: edit, merge two records of one person, import a CSV list."""

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Club, Player, Registration, Tournament
from ..payments import iban_normalise, iban_valid
from ..selectors.desk import club_players
from .clubs import postcode_clean
from .errors import NotFound, ServiceError, StateConflict
from .hooks import tournament_changed

# Accepted column names (English and German), lower case.
COLUMNS = {
    "name": "name",
    "first_name": "first_name",
    "vorname": "first_name",
    "last_name": "last_name",
    "nachname": "last_name",
    "club": "club",
    "verein": "club",
    "contact": "contact",
    "kontakt": "contact",
}
MAX_ROWS = 5000


@transaction.atomic
def club_update(
    *,
    club: Club,
    name: str,
    town: str,
    logo=None,
    postcode: str | None = None,
    account_holder: str | None = None,
    iban: str | None = None,
) -> Club:
    """Name, town and logo (``logo=False`` removes it, ``None`` keeps it); postcode and the account for the
    GiroCode (``None`` keeps them)."""
    if Club.objects.filter(name=name.strip()).exclude(pk=club.pk).exists():
        raise ServiceError("name", _("Another club has this name."))
    if postcode is not None:
        club.postcode = postcode_clean(postcode)
    if iban is not None:
        if iban.strip() and not iban_valid(iban):
            raise ServiceError("iban", _("This IBAN is not valid: check it against the bank's letter."))
        club.iban = iban_normalise(iban)
    if account_holder is not None:
        club.account_holder = account_holder.strip()
    if club.iban and not (club.account_holder or name.strip()):
        raise ServiceError("account_holder", _("Say the account holder."))
    club.name, club.town = name.strip(), town.strip()
    if logo is False:
        club.logo = None
    elif logo is not None:
        club.logo = logo
    club.save()
    _names_changed(Registration.objects.filter(player__club=club))
    return club


def _names_changed(registrations) -> None:
    """The standings rows of tournaments still running name these registrations anew (a merge of
    one table's games changes only the figures of its players; a full recompute reads every name)."""
    running = registrations.exclude(tournament__status=Tournament.Status.FINISHED).filter(
        tournament__standings_snapshot__isnull=False
    )
    for tournament_id in running.values_list("tournament_id", flat=True).distinct().order_by("tournament_id"):
        tournament_changed(tournament_id)


@transaction.atomic
@transaction.atomic
def player_update(*, player: Player, first_name: str, last_name: str, club: Club | None, contact: str = "") -> Player:
    if not last_name.strip():
        raise ServiceError("last_name", _("Please enter a last name."))
    player.first_name, player.last_name = first_name.strip(), last_name.strip()
    player.club, player.contact = club, contact.strip()
    player.save()
    _names_changed(Registration.objects.filter(player=player))
    return player


@transaction.atomic
def players_merge(*, keep: Player, remove: Player, club: Club | None = None) -> Player:
    """Two records of the same person become one: registrations move to ``keep``.

    ``club``: the club the merge is done for (its page, its tournament's sign-up); both records must be of
    its player database, another club's player is a 404 (the system's own merges pass none)."""
    if keep.pk == remove.pk:
        raise ServiceError("remove", _("Choose two different players."))
    if club is not None:
        database = set(club_players(club.pk).filter(pk__in=[keep.pk, remove.pk]).values_list("pk", flat=True))
        for field, player in (("keep", keep), ("remove", remove)):
            if player.pk not in database:
                raise NotFound(field, _("No such player."))
    keep = Player.objects.select_for_update().get(pk=keep.pk)
    remove = Player.objects.select_for_update().get(pk=remove.pk)
    both = Registration.objects.filter(player=remove, tournament__registrations__player=keep).select_related(
        "tournament"
    )
    clash = both.first()
    if clash is not None:
        raise StateConflict(
            "remove",
            _("Both are registered for %(tournament)s; they are two people.") % {"tournament": clash.tournament.name},
        )
    Registration.objects.filter(player=remove).update(player=keep)
    if not keep.contact and remove.contact:
        keep.contact = remove.contact
    if keep.club_id is None and remove.club_id is not None:
        keep.club_id = remove.club_id
    keep.save()
    remove.delete()
    _names_changed(Registration.objects.filter(player=keep))
    return keep


@dataclass(frozen=True)
class ImportRow:
    line: int
    first_name: str
    last_name: str
    contact: str


def _records(reader) -> Iterator[tuple[int, list[str]]]:
    """Each record with the file line it starts on (a quoted value may span several lines)."""
    start = reader.line_num + 1
    for values in reader:
        yield start, values
        start = reader.line_num + 1


def _parse(text: str, club: Club) -> list[ImportRow]:
    if not text.strip():
        raise ServiceError("file", _("The file is empty."))
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    header = [h.strip().lstrip("\ufeff").lower() for h in next(reader)]
    columns = [COLUMNS.get(h) for h in header]
    if "name" not in columns and "last_name" not in columns:
        raise ServiceError(
            "file", _("Line 1 must name the columns: name (or Vorname and Nachname), optionally Verein and Kontakt.")
        )
    rows, errors = [], []
    for line, values in _records(reader):
        if not any(v.strip() for v in values):
            continue
        if len(values) > len(header):
            errors.append(_("line %(line)d: more values than columns") % {"line": line})
            continue
        data = {col: values[i].strip() for i, col in enumerate(columns) if col and i < len(values)}
        first, last = data.get("first_name", ""), data.get("last_name", "")
        if not last and data.get("name"):
            first, _sep, last = data["name"].rpartition(" ")
        if not last:
            errors.append(_("line %(line)d: the name is missing") % {"line": line})
            continue
        if len(first) > 100 or len(last) > 100 or len(data.get("club", "")) > 200:
            errors.append(_("line %(line)d: a value is too long") % {"line": line})
            continue
        named = " ".join(data.get("club", "").split())
        if named and named.casefold() != club.name.casefold():  # another club's database is not this club's
            errors.append(
                _("line %(line)d: %(club)s is not this club; a club imports only its own players")
                % {"line": line, "club": named}
            )
            continue
        rows.append(ImportRow(line, first, last, data.get("contact", "")))
        if len(rows) > MAX_ROWS:
            raise ServiceError("file", _("At most %(n)d players per file.") % {"n": MAX_ROWS})
    if errors:
        raise ServiceError("file", "; ".join(errors[:20]) + (" …" if len(errors) > 20 else ""))
    return rows


@transaction.atomic
def players_import_csv(*, club: Club, text: str) -> tuple[int, int]:
    """Import players; every bad row is reported by line number and nothing is imported until the file is clean.

    Returns (created, already known). A person already in the database (same name and club) is skipped. Every
    player is made in ``club``: a row naming another club is refused by its line, never filed under that club.
    """
    rows = _parse(text, club)
    created = known = 0
    for row in rows:
        if Player.objects.filter(first_name=row.first_name, last_name=row.last_name, club=club).exists():
            known += 1
            continue
        Player.objects.create(first_name=row.first_name, last_name=row.last_name, club=club, contact=row.contact)
        created += 1
    return created, known
