from typing import Any


class ServiceError(Exception):
    """A refused write: the field it concerns, a sentence for people, and a code for programs.

    Raised for bad input; its subclasses say why else a write is refused. A service knows nothing of
    HTTP: the interfaces map the kind once (``tournaments/http.py``: 400, 409, 404 for views
    and the API), forms show it as a form error, commands as a CommandError. Nothing is written when
    it is raised inside a service.
    """

    def __init__(self, field: str, message: Any, code: str = "invalid") -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = str(message)
        self.code = code

    def as_dict(self) -> dict[str, list[str]]:
        return {self.field: [self.message]}


class StateConflict(ServiceError):
    """The input is fine, but the state does not allow it now: a closed round, a game number taken."""


class NotFound(ServiceError):
    """What the write is about is gone (a game deleted on another device, a tournament not in the series)."""
