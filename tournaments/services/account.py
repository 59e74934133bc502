"""A user's own API token (django-rest-knox, kept only as a digest): made and revoked by the user on the
account page, and revoked whenever his password changes."""

from django.db import transaction
from knox.models import AuthToken


@transaction.atomic
def api_token_create(*, user) -> str:
    """A new token for ``user``, returned in plain this once (only its digest is stored); an old one stops
    working at once (one token per user). It does not expire: it is revoked, replaced, or dies with the password."""
    AuthToken.objects.filter(user=user).delete()
    _instance, key = AuthToken.objects.create(user=user, expiry=None)
    return key


@transaction.atomic
def api_token_revoke(*, user) -> bool:
    """The user's token stops working; returns whether there was one."""
    deleted, _ = AuthToken.objects.filter(user=user).delete()
    return bool(deleted)


class TokensRevokedOnPasswordChange:
    """In ``AUTH_PASSWORD_VALIDATORS``: Django tells every validator when a user's password was changed
    (``password_validation.password_changed``, from ``User.save()`` after ``set_password``: the password
    change and reset pages, the admin, ``changepassword``). A token made with the old password stops working."""

    def validate(self, password, user=None) -> None:
        return None

    def password_changed(self, password, user=None) -> None:
        if user is not None and user.pk is not None:
            api_token_revoke(user=user)

    def get_help_text(self) -> str:
        return ""
