"""Rule errors for people: the engine's codes and parameters as German/English sentences.

The pure engine (scoring.rules) speaks in field names, codes and plain English; this interface
layer translates through Django's i18n. Every code the engine can raise has a sentence here
(``tests/scoring/test_rule_messages.py`` checks it); a few (field, code) pairs have a sentence
of their own that says what the player has to do. A code without a sentence would fall back to
the engine's English text, so no error is ever lost.

``rule_error_text`` is the sentence alone (shown next to the field on a page);
``rule_error_message`` puts the field's name in front, as a player calls it:
"Partner: Der Partner muss ein anderer sein als der Spieler."
"""

from typing import Any

from django.utils.functional import Promise
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from scoring.rules import RuleError

#: The sentence of each code, whatever the field.
MESSAGES: dict[str, Promise] = {
    # shapes and values (hand records, rulesets, documents)
    "wrong_type": _("Must be %(expected)s, not %(got)s."),
    "invalid_choice": _("Must be one of %(choices)s, not “%(value)s”."),
    "missing": _("This is missing."),
    "out_of_range": _("Must be between %(min)s and %(max)s, not %(value)s."),
    "unknown_key": _("“%(key)s” is not a known field."),
    "duplicate": _("“%(value)s” is listed twice."),
    "final_tiebreak": _("Must end with exactly one of lot or shared place, and name neither elsewhere."),
    "series_unused": _("Not used with this scoring: leave it empty."),
    # the game
    "contract_not_played": _("%(name)s is not played: this tournament plays Rufspiel, Wenz and Farbsolo only."),
    "unknown_contract": _("Unknown game “%(contract)s”: this tournament plays Rufspiel, Wenz and Farbsolo only."),
    "weiter_not_allowed": _(
        "Under these rules no game is thrown in: when all pass, the holder of the Eichel-Ober must play (Muss)."
    ),
    "not_applicable": _("Not entered when all passed."),
    "kreuz_not_allowed": _("Kreuz is played only when the rules say: when all pass, play über Kreuz."),
    "weiter_under_kreuz": _("Under these rules no game is thrown in: when all pass, the deal is played über Kreuz."),
    "muss_under_kreuz": _("There is no Muss under these rules: when all pass, the deal is played über Kreuz."),
    "kreuz_partner_not_opposite": _(
        "Über Kreuz seat %(declarer)s plays with seat %(expected)s, who sits opposite, not with seat %(seat)s."
    ),
    "not_in_kreuz": _("Not entered for a game über Kreuz."),
    # seats
    "seat_out_of_range": _("There is no seat %(seat)s at a table of %(table_size)s."),
    "declarer_sits_out": _("Seat %(seat)s deals and sits out this game, so cannot be the player."),
    "partner_is_declarer": _("The partner must be another player than the player."),
    "partner_sits_out": _("Seat %(seat)s deals and sits out this game, so cannot be the partner."),
    "partner_in_solo": _("A %(contract_name)s has no partner."),
    # Rufspiel and Muss
    "called_herz": _("The Herz-Sau cannot be called: Herz is trumps."),
    "called_in_solo": _("Nobody calls a Sau in a %(contract_name)s."),
    "muss_not_allowed": _("There is no Muss under these rules: when all pass, the cards are thrown in."),
    "muss_not_rufspiel": _("A Muss is always a Rufspiel, never a %(contract_name)s."),
    "called_card_not_muss": _("A called card is entered only for a Muss."),
    "renonce_not_muss": _("Renonce is entered only for a Muss."),
    # trumps, Tout and Sie
    "trump_not_solo": _("Only a Farbsolo has a trump suit to choose."),
    "trump_in_wenz": _("A Wenz has no trump suit (Farbwenz is not played)."),
    "tout_in_rufspiel": _("A Rufspiel cannot be played Tout."),
    "tout_not_allowed": _("Tout is not allowed in this tournament."),
    "tout_with_sie": _("A Sie is entered as a Sie, not also as a Tout."),
    "sie_not_farbsolo": _("A Sie is a Farbsolo, not a Rufspiel."),
    "sie_in_wenz": _("A Sie is a Farbsolo, not a Wenz."),
    "sie_not_allowed": _("Sie is not allowed in this tournament."),
    "won_not_tout": _("Won or lost is entered only for a Tout; give the Augen instead."),
    # Augen, Schwarz, Laufende
    "schwarz_augen": _("A game is Schwarz only with 0 or 120 Augen, not %(augen)s."),
    "augen_not_applicable": _("A %(kind)s is entered without Augen."),
    "schwarz_not_applicable": _("A %(kind)s has no Schneider or Schwarz."),
    "sie_laufende": _("A Sie holds all four Ober and Unter: 8 Laufende, not %(value)s."),
    # Kontra
    "kontra_not_allowed": _("Kontra is not allowed in this tournament."),
    "kontra_in_muss": _("There is no Kontra in a Muss."),
    "kontra_in_sie": _("A Sie is not played out, so there is no Kontra."),
}

#: Sentences for one field's error that say more than the code's own sentence.
FIELD_MESSAGES: dict[tuple[str, str], Promise] = {
    ("contract", "missing"): _("Which game was played? Choose the game."),
    ("declarer", "missing"): _("Who played? Choose the player."),
    ("partner", "missing"): _("A Rufspiel needs the partner: who had the called Sau?"),
    ("trump", "missing"): _("A Farbsolo needs its trump suit."),
    ("augen", "missing"): _("Give the Augen of the player's side (0 to 120)."),
    ("won", "missing"): _("Say whether the Tout was won (all eight tricks) or lost."),
    ("dealer", "missing"): _("At a table of five the dealer must be given: the dealer sits out the game."),
    ("hands", "missing"): _("The document has no list of games."),
    ("table_size", "invalid_choice"): _("A table has 4 or 5 players, not %(value)s."),
    ("called", "invalid_choice"): _("The called Sau is the Eichel-, Gras- or Schellen-Sau, not “%(value)s”."),
    ("called_card", "invalid_choice"): _("The called card is the Sau, the Zehn or the König, not “%(value)s”."),
    ("trump", "invalid_choice"): _("The trump suit is Eichel, Gras, Herz or Schellen, not “%(value)s”."),
    ("augen", "out_of_range"): _("A game has 120 Augen; %(value)s are impossible."),
    ("kontra", "out_of_range"): _("Kontra is 0, 1 (Kontra) or 2 (Kontra and Re), not %(value)s."),
    ("games_per_round", "out_of_range"): _("Must be a multiple of 4 from 8 to 64, not %(value)s."),
    ("document", "unknown_key"): _("Unknown key “%(key)s”: a document has rules, table_size and hands."),
}

_AT_LEAST = _("Must be at least %(min)s, not %(value)s.")
_LAUFENDE_NEGATIVE = _("Laufende cannot be negative (%(value)s).")
_LAUFENDE_TOO_MANY = _("A %(contract_name)s has %(max)s trumps; %(value)s Laufende are impossible.")

#: Each field by the name the entry page or the rules form gives it.
FIELD_LABELS: dict[str, Promise] = {
    # a game (the labels of the entry form)
    "hand": _("Game"),
    "contract": _("Game"),
    "declarer": _("Player"),
    "partner": _("Partner"),
    "called": _("Called Sau"),
    "muss": _("Muss"),
    "called_card": _("Called card"),
    "renonce": _("Renonce"),
    "trump": _("Trump suit"),
    "tout": _("Tout"),
    "sie": _("Sie"),
    "augen": _("Augen"),
    "schwarz": _("Schwarz"),
    "won": _("won or lost"),
    "laufende": _("Laufende"),
    "kontra": _("Kontra"),
    "dealer": _("Dealer"),
    # a score_hands document
    "document": _("Document"),
    "hands": _("Games"),
    "table_size": _("Table size"),
    "rules": _("Rules"),
    # the ruleset (the labels of the rules form)
    "scoring": _("scoring"),
    "unit_cents": _("one point is worth (cents)"),
    "rufspiel_base": _("Rufspiel base value"),
    "solo_base": _("Wenz and Farbsolo base value"),
    "schneider_bonus": _("Schneider"),
    "schwarz_bonus": _("Schwarz"),
    "laufende_bonus": _("each Laufender"),
    "laufende_min": _("Laufende count from"),
    "laufende_min.rufspiel": _("Laufende count from (Rufspiel)"),
    "laufende_min.solo": _("Laufende count from (Farbsolo)"),
    "laufende_min.wenz": _("Laufende count from (Wenz)"),
    "laufende_max": _("Laufende cap"),
    "tout_allowed": _("Tout allowed"),
    "sie_allowed": _("Sie allowed"),
    "tout_factor": _("Tout factor"),
    "sie_factor": _("Sie factor"),
    "kontra_allowed": _("Kontra allowed"),
    "all_pass": _("when all pass"),
    "kreuz_tie": _("a Kreuz ending 60:60"),
    "muss_win": _("a Muss wins with"),
    "reuegeld_cents": _("Reuegeld"),
    "reuegeld_cents.rufspiel": _("Reuegeld lost Rufspiel (cents)"),
    "reuegeld_cents.solo": _("Reuegeld lost solo (cents)"),
    "reuegeld_cents.tout": _("Reuegeld lost Tout (cents)"),
    "weitergeld_cents": _("Weitergeld per player (cents)"),
    "reuegeld_tischbester_percent": _("share for the Tischbester (%)"),
    "rounds": _("rounds"),
    "games_per_round": _("games per round (table of four)"),
    "tiebreaks": _("ties on points"),
    # a series (Saison, Cup): scoring.rules.series
    "best": _("best results that count"),
    "placement_points": _("placement points"),
    "min_participations": _("minimum participations"),
    "reuegeld_free_solos": _("free lost solos per round"),
    "keep_clubs_apart": _("keep members of a club apart"),
    "closed_table_points": _("a table closed early"),
    "substitute_points": _("a substitute"),
    "draw_mode": _("seat draw"),
}

#: The engine's type names (``errors.type_name`` and the ``expected`` of ``wrong_type``).
TYPE_NAMES: dict[str, Promise] = {
    "null": _("empty"),
    "true/false": _("yes/no"),
    "true or false": _("yes or no"),
    "a whole number": _("a whole number"),
    "a decimal number": _("a decimal number"),
    "text": _("text"),
    "an object": _("an object"),
    "a list": _("a list"),
    "a list of tiebreak names": _("a list of tiebreak names"),
    "a list of hand records": _("a list of games"),
}

CONTRACT_NAMES = {"rufspiel": "Rufspiel", "wenz": "Wenz", "solo": "Farbsolo", "kreuz": "Kreuz"}


def _bare(field: str) -> str:
    """The field without a document's ``rules.`` prefix."""
    return field.removeprefix("rules.")


def _template(err: RuleError) -> Promise | None:
    field, code, params = _bare(err.field), err.code, err.params
    if code == "out_of_range":
        if field == "laufende":
            value = params.get("value")
            return _LAUFENDE_NEGATIVE if isinstance(value, int) and value < 0 else _LAUFENDE_TOO_MANY
        if (field, code) not in FIELD_MESSAGES and params.get("max") is None:
            return _AT_LEAST
    return FIELD_MESSAGES.get((field, code), MESSAGES.get(code))


def _params(params: dict[str, Any]) -> dict[str, Any]:
    shown = dict(params)
    for key in ("expected", "got"):
        if key in shown:
            shown[key] = str(TYPE_NAMES.get(shown[key], shown[key]))
    if "choices" in shown and isinstance(shown["choices"], (list, tuple)):
        shown["choices"] = ", ".join(str(choice) for choice in shown["choices"])
    contract = shown.get("contract")
    shown["contract_name"] = CONTRACT_NAMES.get(contract, contract) if isinstance(contract, str) else contract
    return shown


def rule_error_text(err: RuleError) -> str:
    """The sentence for one error, without the field, in the active language."""
    template = _template(err)
    if template is None:
        return err.message
    try:
        return str(template) % _params(err.params)
    except (KeyError, TypeError, ValueError):
        return err.message


def field_label(field: str) -> str:
    """The field's name as the interface shows it (``laufende_min.wenz`` -> "Laufende count from (Wenz)")."""
    label = FIELD_LABELS.get(_bare(field))
    return capfirst(str(label)) if label is not None else field


def rule_error_message(err: RuleError, *, with_key: bool = False) -> str:
    """``"<field name>: <sentence>"`` in the active language.

    ``with_key`` adds the document's key after the name (``Runden [rounds]: ...``), for people who
    edit the ruleset as JSON.
    """
    label = field_label(err.field)
    if with_key and label != err.field:
        label = f"{label} [{err.field}]"
    return f"{label}: {rule_error_text(err)}"
