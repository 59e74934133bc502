"""What every API view shares: errors as ``{field: [messages]}``, club roles, documented error responses."""

from typing import Any

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from ..access import ANY_ROLE, has_role, tournament_for
from ..http import error_status
from ..models import Tournament
from ..services.errors import ServiceError

NON_FIELD = "non_field_errors"


def _flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    """DRF's error detail as one level of ``{field: [messages]}`` (nested fields as ``a.b``, ``a[0].b``)."""
    if isinstance(data, dict):
        if not prefix and set(data) == {"detail"}:
            return {"detail": data["detail"]}  # 401/403/404/405: {"detail": "..."}
        flat: dict[str, Any] = {}
        for key, value in data.items():
            flat.update(_flatten(value, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    if isinstance(data, list) and any(isinstance(item, (dict, list)) for item in data):
        flat = {}
        for index, item in enumerate(data):
            flat.update(_flatten(item, f"{prefix}[{index}]" if prefix else NON_FIELD))
        return flat
    messages = data if isinstance(data, list) else [data]
    return {prefix or NON_FIELD: [str(message) for message in messages]}


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    """ServiceError -> its status with ``{field: [message]}``; every other error body flattened alike."""
    if isinstance(exc, ServiceError):
        return Response(exc.as_dict(), status=error_status(exc))
    if isinstance(exc, RequestDataTooBig):  # Django's limit (DATA_UPLOAD_MAX_MEMORY_SIZE), answered in JSON
        return Response({"detail": _("The request is too large.")}, status=413)
    if isinstance(exc, (TooManyFieldsSent, TooManyFilesSent)):
        return Response({"detail": _("The request has too many fields.")}, status=400)
    if isinstance(exc, exceptions.ParseError):  # a body that is no JSON (or nested too deeply): a 400 in the
        return Response({NON_FIELD: [str(exc.detail)]}, status=400)  # documented shape {field: [messages]}
    response = drf_exception_handler(exc, context)
    if response is not None:
        response.data = _flatten(response.data)
    return response


# (Comments, not docstrings, on these base classes: drf-spectacular shows a view's docstring as its
# description in the API docs.)


class ApiView(APIView):
    # An API view whose errors have one shape, whatever raised them.

    def get_exception_handler(self):
        return api_exception_handler

    @property
    def device(self) -> str:
        return self.request.META.get("HTTP_USER_AGENT", "")[:200]


class TournamentApiView(ApiView):
    # Organiser API: the tournament of the URL for a user with a club role; another club's is a 404.
    # Anyone with a role in the club may read; ``write_roles`` (organisers and desk helpers, or
    # organisers only) may change. A role that may see but not change gets a 403.

    write_roles: tuple = ANY_ROLE

    def tournament(self, *, write: bool = False) -> Tournament:
        tournament = tournament_for(self.request.user, self.kwargs["slug"], ANY_ROLE)
        if write and not has_role(self.request.user, tournament, self.write_roles):
            raise exceptions.PermissionDenied(_("Your role in this club does not allow this."))
        return tournament


ERRORS_SCHEMA = {
    "type": "object",
    "description": "Every error names its field: {field: [messages]}; 403/404 give {detail: message}.",
    "additionalProperties": {"type": "array", "items": {"type": "string"}},
    "example": {"augen": ["must be between 0 and 120"]},
}
DETAIL_SCHEMA = {
    "type": "object",
    "properties": {"detail": {"type": "string"}},
    "required": ["detail"],
}


def bad_request(description: str = "Invalid input: the errors per field.") -> OpenApiResponse:
    return OpenApiResponse(response=ERRORS_SCHEMA, description=description)


def conflict(description: str) -> OpenApiResponse:
    return OpenApiResponse(response=ERRORS_SCHEMA, description=description)


NOT_FOUND = OpenApiResponse(response=DETAIL_SCHEMA, description="Not found (also another club's tournament).")
NO_KEY = OpenApiResponse(response=DETAIL_SCHEMA, description="No table has this entry key.")
FORBIDDEN = OpenApiResponse(response=DETAIL_SCHEMA, description="Not logged in, or the role does not allow it.")
THROTTLED = OpenApiResponse(
    response=DETAIL_SCHEMA, description="Too many requests for this table key; try again after Retry-After seconds."
)
