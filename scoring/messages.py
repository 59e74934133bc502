"""Rule errors for people: the engine's codes and parameters as German/English sentences.

The pure engine (scoring.rules) speaks in field names, codes and plain English; this interface
layer translates through Django's i18n. A code without a translation falls back to the engine's
English sentence, so no error is ever lost.
"""
from django.utils.translation import gettext_lazy as _

from scoring.rules import RuleError

MESSAGES: dict[str, str] = {}


def rule_error_text(err: RuleError) -> str:
    """The sentence for one error, without the field, in the active language."""
    template = MESSAGES.get(err.code)
    if template is None:
        return err.message
    try:
        return str(template) % err.params
    except (KeyError, TypeError, ValueError):
        return err.message


def rule_error_message(err: RuleError) -> str:
    """``"<field>: <sentence>"`` in the active language."""
    return f"{err.field}: {rule_error_text(err)}"
