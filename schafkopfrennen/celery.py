"""The Celery application.

Without CELERY_BROKER_URL every task runs in-process (the embedded default); with
CELERY_BROKER_URL=redis://... real workers run the same code:
``celery -A schafkopfrennen worker``.
"""

import logging
import os

from celery import Celery
from django.db import transaction

from .broker import transport_for

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "schafkopfrennen.settings")

# The broker's connections try again every second after an outage (schafkopfrennen/broker.py).
app = Celery("schafkopfrennen", amqp="schafkopfrennen.broker:AMQP")
app.config_from_object("django.conf:settings", namespace="CELERY")
if app.conf.task_always_eager and not app.conf.broker_url:
    # In-process, Celery still takes a producer from its pool; an in-memory transport needs no server
    # (and spares the newcomer's console a "No hostname was supplied" warning on every change).
    app.conf.broker_url = "memory://localhost/"
app.conf.broker_transport = app.conf.broker_transport or transport_for(app.conf.broker_url)
app.autodiscover_tasks()


class AfterCommitTask(app.Task):
    """A task sent from inside a transaction goes out when the transaction commits (pretix's TransactionAwareTask).

    ``.delay()`` / ``.apply_async()`` inside ``transaction.atomic`` (a service) return None and send the
    task once the data it reads is committed; after a rollback nothing is sent. Outside a transaction
    the task is sent at once, as usual. A send that fails after the commit (no broker; without one, the
    in-process run itself) must not turn a committed request into an error: it is logged and handed to
    ``send_failed(exc, args, kwargs)``, which a task may define to record it. Use it as
    ``@shared_task(base=AfterCommitTask)``.
    """

    abstract = True
    send_failed = None  # optional: (task, exc, args, kwargs) -> None

    def apply_async(self, args=None, kwargs=None, **options):
        if not transaction.get_connection().in_atomic_block:
            return super().apply_async(args, kwargs, **options)
        transaction.on_commit(lambda: self._send_committed(args, kwargs, options))
        return None

    def _send_committed(self, args, kwargs, options) -> None:
        try:
            super().apply_async(args, kwargs, **options)
        except Exception as exc:
            logging.getLogger(__name__).exception("task %s could not be sent or failed in-process", self.name)
            if self.send_failed is not None:
                self.send_failed(exc, args or (), kwargs or {})
