"""The Celery tasks, for the worker to find (Celery imports each app's ``tasks`` module).

A task is a thin wrapper that takes ids and calls one service. The tasks a service sends are defined
beside it (services/printing.py, services/signup_mail.py, services/standings_tasks.py,
services/schedule.py), so a service never imports this module and this module never imports a
service that imports it back.
"""

from .services import printing, schedule, signup_mail, standings_tasks  # noqa: F401  (registers their tasks)
