"""Entry fees paid before the evening by bank transfer: the desk marks the transfers of a bank statement
paid (matched by the reference the GiroCode carries), and places not paid by the organiser's deadline go to
the waiting list."""

import datetime
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Registration, SignUp, Tournament
from ..payments import StatementError, StatementRow, reference_pattern, start_number_in, statement_rows
from ..selectors.signup import started
from .errors import ServiceError, StateConflict
from .registration import registration_update, registration_withdraw
from .signups import _locked, signups_advance


@dataclass(frozen=True)
class Unmatched:
    row: StatementRow
    reason: str


@dataclass(frozen=True)
class StatementResult:
    paid: tuple[tuple[StatementRow, Registration], ...]
    already_paid: tuple[tuple[StatementRow, Registration], ...]
    unmatched: tuple[Unmatched, ...]


@transaction.atomic
def bank_statement_apply(*, tournament: Tournament, text: str, by=None) -> StatementResult:
    """Every credit whose purpose names this tournament and a start number of it, with at least the fee owed,
    marks that registration paid (audit-logged as the desk's tick); the others are listed with the reason."""
    try:
        rows = statement_rows(text)
    except StatementError as err:
        raise ServiceError(
            "file",
            _(
                "No bank statement: the file needs a column for the purpose "
                "(Verwendungszweck) and one for the amount (Betrag)."
            ),
        ) from err
    locked, _options = _locked(tournament)
    registrations = {r.start_number: r for r in Registration.objects.filter(tournament=locked).select_related("player")}
    pattern = reference_pattern(locked.slug)
    paid, already, unmatched = [], [], []
    for row in rows:
        number = start_number_in(row.purpose, pattern)
        reg = registrations.get(number) if number is not None else None
        if number is None:
            unmatched.append(Unmatched(row, _("No start number of this tournament in the purpose.")))
        elif reg is None:
            unmatched.append(Unmatched(row, _("Start number %(n)d is not given.") % {"n": number}))
        elif row.amount_cents is None:
            unmatched.append(Unmatched(row, _("The amount is not a number.")))
        elif reg.paid:
            already.append((row, reg))
        elif row.amount_cents < locked.entry_fee_cents:
            unmatched.append(
                Unmatched(
                    row,
                    _("%(amount)s is less than the entry fee.")
                    % {"amount": f"{row.amount_cents / 100:.2f} €".replace(".", ",")},
                )
            )
        else:
            reg = registration_update(registration=reg, paid=True, by=by)
            registrations[number] = reg
            paid.append((row, reg))
    return StatementResult(tuple(paid), tuple(already), tuple(unmatched))


@transaction.atomic
def unpaid_release(
    *, tournament: Tournament, by=None, url_base: str = "", now: datetime.datetime | None = None
) -> list[SignUp]:
    """After the organiser's deadline (``SignUpOptions.pay_until``): the online sign-ups with a place whose fee
    is owed and not paid lose it, and the waiting list moves up into the places."""
    locked, options = _locked(tournament)
    now = now or timezone.now()
    if options.pay_until is None or now < options.pay_until:
        raise StateConflict("pay_until", _("The payment deadline has not passed."))
    if started(locked):
        raise StateConflict("pay_until", _("The tournament has begun: the desk settles the fees at the door."))
    released = list(
        SignUp.objects.select_for_update()
        .filter(
            tournament=locked,
            status=SignUp.Status.PLACE,
            registration__paid=False,
            registration__fee_due=True,
            registration__checked_in=False,
            registration__withdrawn_after_round__isnull=True,
        )
        .select_related("registration")
    )
    for signup in released:
        registration_withdraw(registration=signup.registration, by=by)
        signup.status, signup.withdrawn_at = SignUp.Status.WITHDRAWN, now
        signup.save(update_fields=["status", "withdrawn_at"])
    signups_advance(tournament=locked, url_base=url_base)
    return released
