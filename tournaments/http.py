"""How the pages and the API answer a refused write: the one mapping of a ServiceError's kind to a status."""
from django.http import Http404

from .services.errors import NotFound, ServiceError, StateConflict


def error_status(err: ServiceError) -> int:
    """400 bad input; 409 the state does not allow it now; 404 what the write is about is gone."""
    if isinstance(err, StateConflict):
        return 409
    if isinstance(err, NotFound):
        return 404
    return 400


class WrongKey(Http404):
    """A private key in the URL that opens nothing: a 404 that counts against the client's address
    (``tournaments.ratelimit``: over its budget the answer is a 429), never against a table."""
