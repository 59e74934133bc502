"""A game's whole outcome in one JSON column instead of three lossy ones (summed Reuegeld, the
largest Weitergeld, who won): existing games are scored once more from their stored record under
their tournament's rules, so every stored game carries the full HandScore."""

from django.db import migrations, models

from scoring.rules import RuleError, ruleset_from_dict, score_hand
from scoring.rules.outcome import outcome_to_dict

RECORD = (
    "contract",
    "declarer",
    "partner",
    "called",
    "muss",
    "called_card",
    "renonce",
    "trump",
    "tout",
    "sie",
    "augen",
    "schwarz",
    "won",
    "laufende",
    "kontra",
)


def fill_outcome(apps, schema_editor):
    Hand = apps.get_model("tournaments", "Hand")
    rules = {}
    for hand in Hand.objects.select_related("table__round__tournament").iterator(chunk_size=2000):
        tournament = hand.table.round.tournament
        if tournament.pk not in rules:
            rules[tournament.pk] = ruleset_from_dict(tournament.rules)
        record = {name: getattr(hand, name) for name in RECORD if getattr(hand, name) is not None}
        try:
            score = score_hand({**record, "dealer": hand.dealer}, rules[tournament.pk], hand.table.size)
        except RuleError:  # stored under rules changed since: keep what the old columns knew
            points = {int(s): p for s, p in (hand.points or {}).items()}
            seats = range(1, hand.table.size + 1)
            outcome = {
                "points": {str(s): points.get(s, 0) for s in seats},
                "value": 0,
                "declarer_won": bool(hand.declarer_won),
                "schneider": False,
                "schwarz": False,
                "laufende": 0,
                "reuegeld": {str(hand.declarer): hand.reuegeld_cents} if hand.reuegeld_cents else {},
                "thrown_in": hand.contract == "weiter",
                "weitergeld": {str(s): hand.weitergeld_cents for s in seats} if hand.weitergeld_cents else {},
                "contract": hand.contract,
                "declarer": hand.declarer,
            }
        else:
            outcome = outcome_to_dict(score)
        hand.outcome = outcome
        hand.save(update_fields=["outcome"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0011_audit_by_name")]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="outcome",
            field=models.JSONField(default=dict, verbose_name="outcome"),
        ),
        migrations.RunPython(fill_outcome, migrations.RunPython.noop),
        migrations.RemoveField(model_name="hand", name="declarer_won"),
        migrations.RemoveField(model_name="hand", name="reuegeld_cents"),
        migrations.RemoveField(model_name="hand", name="weitergeld_cents"),
    ]
