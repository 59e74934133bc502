"""A change counter on each table's row, kept by PostgreSQL itself (issue 14, the lean save).

A tablet's new game on PostgreSQL reads its table and the game facts in one statement, without a
transaction, and stores the game and its revision in one more, which takes the table's row only while
``entry_version`` is still the number it read (``services.hands``). That is safe only if every change a
save depends on raises the number, whoever makes it; so triggers raise it, not the services:

- any UPDATE of the table's row (its paper totals, completion, closing reason, ...): the number becomes
  the old one plus one, whatever the UPDATE wrote, so a stale model's ``save()`` cannot lower it;
- any INSERT, UPDATE or DELETE of its games or its confirmations (once per table and statement);
- a change of its round's status (published, closed, reopened).

The column is not a model field: no form, serializer, archive or ``save()`` ever writes it. SQLite (the
embedded default) has neither column nor triggers: its saves keep the transaction and the table's lock.
"""

from django.db import migrations

FORWARD = (
    """ALTER TABLE tournaments_table ADD COLUMN entry_version bigint NOT NULL DEFAULT 0""",
    """CREATE FUNCTION tournaments_table_version_raise() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        NEW.entry_version := OLD.entry_version + 1;
        RETURN NEW;
    END $$""",
    """CREATE TRIGGER tournaments_table_version BEFORE UPDATE ON tournaments_table
        FOR EACH ROW EXECUTE FUNCTION tournaments_table_version_raise()""",
    """CREATE FUNCTION tournaments_table_version_new() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE tournaments_table SET entry_version = entry_version + 1 WHERE id IN (SELECT table_id FROM changed);
        RETURN NULL;
    END $$""",
    """CREATE FUNCTION tournaments_table_version_both() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE tournaments_table SET entry_version = entry_version + 1
            WHERE id IN (SELECT table_id FROM changed UNION SELECT table_id FROM before);
        RETURN NULL;
    END $$""",
    """CREATE FUNCTION tournaments_table_version_old() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE tournaments_table SET entry_version = entry_version + 1 WHERE id IN (SELECT table_id FROM before);
        RETURN NULL;
    END $$""",
    """CREATE TRIGGER tournaments_hand_version_insert AFTER INSERT ON tournaments_hand
        REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tournaments_table_version_new()""",
    """CREATE TRIGGER tournaments_hand_version_update AFTER UPDATE ON tournaments_hand
        REFERENCING OLD TABLE AS before NEW TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION tournaments_table_version_both()""",
    """CREATE TRIGGER tournaments_hand_version_delete AFTER DELETE ON tournaments_hand
        REFERENCING OLD TABLE AS before FOR EACH STATEMENT EXECUTE FUNCTION tournaments_table_version_old()""",
    """CREATE TRIGGER tournaments_confirmation_version_insert AFTER INSERT ON tournaments_tableconfirmation
        REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tournaments_table_version_new()""",
    """CREATE TRIGGER tournaments_confirmation_version_update AFTER UPDATE ON tournaments_tableconfirmation
        REFERENCING OLD TABLE AS before NEW TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION tournaments_table_version_both()""",
    """CREATE TRIGGER tournaments_confirmation_version_delete AFTER DELETE ON tournaments_tableconfirmation
        REFERENCING OLD TABLE AS before FOR EACH STATEMENT EXECUTE FUNCTION tournaments_table_version_old()""",
    """CREATE FUNCTION tournaments_round_version_raise() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE tournaments_table SET entry_version = entry_version + 1 WHERE round_id = NEW.id;
        RETURN NULL;
    END $$""",
    """CREATE TRIGGER tournaments_round_version AFTER UPDATE OF status ON tournaments_round
        FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION tournaments_round_version_raise()""",
)

BACKWARD = (
    """DROP TRIGGER tournaments_round_version ON tournaments_round""",
    """DROP FUNCTION tournaments_round_version_raise()""",
    """DROP TRIGGER tournaments_confirmation_version_delete ON tournaments_tableconfirmation""",
    """DROP TRIGGER tournaments_confirmation_version_update ON tournaments_tableconfirmation""",
    """DROP TRIGGER tournaments_confirmation_version_insert ON tournaments_tableconfirmation""",
    """DROP TRIGGER tournaments_hand_version_delete ON tournaments_hand""",
    """DROP TRIGGER tournaments_hand_version_update ON tournaments_hand""",
    """DROP TRIGGER tournaments_hand_version_insert ON tournaments_hand""",
    """DROP FUNCTION tournaments_table_version_old()""",
    """DROP FUNCTION tournaments_table_version_both()""",
    """DROP FUNCTION tournaments_table_version_new()""",
    """DROP TRIGGER tournaments_table_version ON tournaments_table""",
    """DROP FUNCTION tournaments_table_version_raise()""",
    """ALTER TABLE tournaments_table DROP COLUMN entry_version""",
)


def _on_postgresql(sql: tuple[str, ...]):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            for statement in sql:
                schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0017_hand_solo_columns")]

    operations = [migrations.RunPython(_on_postgresql(FORWARD), _on_postgresql(BACKWARD))]
