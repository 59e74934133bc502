"""Django's PostgreSQL backend with a health check that needs no round trip while the connection is quiet.

With ``CONN_HEALTH_CHECKS`` Django checks a kept connection at the first query of every request by
running ``SELECT 1``: one more round trip for every poll of a hall full of phones (8 % of a web
worker's CPU for an unchanged poll in a py-spy profile, and a statement more for PostgreSQL). A
connection the server has closed (a restart, ``pg_terminate_backend``) has the server's last message
or the end of the stream waiting on its socket, while an idle connection that is alive has nothing
to read. So an idle connection with nothing to read is usable; for anything else Django's own
``SELECT 1`` decides (tests/test_infrastructure.py kills a connection and asks again).
"""
import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        conn = self.connection
        if conn is None or conn.closed:
            return False
        if conn.info.transaction_status == pq.TransactionStatus.IDLE:
            try:
                waiting, _, _ = select.select([conn.fileno()], [], [], 0)
            except (OSError, ValueError):
                return False
            if not waiting:
                return True
        return super().is_usable()
