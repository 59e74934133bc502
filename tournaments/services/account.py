"""A user's own API token (DRF TokenAuthentication): made and revoked by the user on the account page."""
from django.db import transaction
from rest_framework.authtoken.models import Token


@transaction.atomic
def api_token_create(*, user) -> Token:
    """A new token for ``user``; an old one stops working at once (one token per user)."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


@transaction.atomic
def api_token_revoke(*, user) -> bool:
    """The user's token stops working; returns whether there was one."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)
