"""What a sign-up pays by transfer before the evening (the GiroCode's and the mail's details)."""

from ..models import SignUp
from ..payments import iban_display, transfer_reference
from .signup import signup_options_for


def payment_details(signup: SignUp) -> dict | None:
    """What the GiroCode and the mail carry for a sign-up with a place and a fee owed, when the club has an
    account: recipient, IBAN, amount, reference. None otherwise."""
    club = signup.tournament.club
    reg = signup.registration
    if not club.iban or reg is None or reg.paid or not reg.fee_due or signup.status != SignUp.Status.PLACE:
        return None
    options = signup_options_for(signup.tournament)
    return {
        "iban_display": iban_display(club.iban),
        "name": club.account_holder or club.name,
        "iban": club.iban,
        "amount_cents": signup.tournament.entry_fee_cents,
        "reference": transfer_reference(signup.tournament.slug, reg.start_number),
        "pay_until": options.pay_until,
    }
