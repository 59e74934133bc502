"""The API's token: django-rest-knox (stored as a SHA-512 digest, never in plain), sent as before as
``Authorization: Token <key>`` and documented in the schema as ``tokenAuth``."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox.auth import TokenAuthentication


class ApiTokenAuthentication(TokenAuthentication):
    """Knox's token authentication: a wrong, replaced or revoked token is a 401 with ``WWW-Authenticate: Token``."""


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = ApiTokenAuthentication
    name = "tokenAuth"
    priority = 1  # before drf-spectacular's own scheme for knox

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": 'A token made on "Mein Zugang" (/o/zugang/), sent as "Token <key>".',
        }
