from typing import Any


class ServiceError(Exception):
    """A refused write: the field it concerns, a sentence for people, and the HTTP status it maps to.

    ``status`` 400 = bad input, 404 = not found, 409 = the state does not allow it (closed round,
    game number taken). Views turn it into a 4xx with ``{field: [message]}``, forms into a form
    error, commands into a CommandError. Nothing is written when it is raised inside a service.
    """

    def __init__(self, field: str, message: Any, status: int = 400, code: str = "invalid") -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = str(message)
        self.status = status
        self.code = code

    def as_dict(self) -> dict[str, list[str]]:
        return {self.field: [self.message]}
