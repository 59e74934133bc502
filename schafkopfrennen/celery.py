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
app.autodiscover_tasks()
