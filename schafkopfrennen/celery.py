"""The Celery application.

Without CELERY_BROKER_URL every task runs in-process (the embedded default); with
CELERY_BROKER_URL=redis://... real workers run the same code:
``celery -A schafkopfrennen worker``.
"""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "schafkopfrennen.settings")

app = Celery("schafkopfrennen")
app.config_from_object("django.conf:settings", namespace="CELERY")
if app.conf.task_always_eager and not app.conf.broker_url:
    # In-process, Celery still takes a producer from its pool; an in-memory transport needs no server
    # (and spares the newcomer's console a "No hostname was supplied" warning on every change).
    app.conf.broker_url = "memory://localhost/"
app.autodiscover_tasks()
