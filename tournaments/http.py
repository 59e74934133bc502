"""How the pages and the API answer a refused write: the one mapping of a ServiceError's kind to a status."""

from django.http import Http404, HttpRequest

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


def form_status(request: HttpRequest, *forms) -> int:
    """A page that shows a posted form (or formset) again with its errors answers 400 (it was refused); else 200."""
    refused = request.method == "POST" and any(f is not None and f.is_bound and not f.is_valid() for f in forms)
    return 400 if refused else 200
