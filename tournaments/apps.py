from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from schafkopfrennen.changes import connect_install


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the system checks)

        connect_install(self)  # after every migrate: every table notifies its changes (PostgreSQL)
