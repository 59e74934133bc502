"""The table's tablet page (tisch/<entry_key>/): no login, the private link is the key to this table only.

The page, its games, the preview and a conflict are the shared entry view of ``entry_base``
(``EntryView``); this module finds the table of the private key and gives the page the tablet's URLs.
"""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from schafkopfrennen.polling import polled_page

from ..http import WrongKey, error_status
from ..models import Round, Table
from ..params import parse_int
from ..selectors.entry import table_for_entry_key, table_page_state
from ..services import hands as hand_services
from ..services.errors import ServiceError
from .entry_base import EntryMode, EntryUrls, EntryView, device_id_of, device_of, render_page


def tablet_mode(table: Table) -> EntryMode:
    key = table.entry_key
    return EntryMode(
        urls=EntryUrls(
            page=reverse("tournaments:entry_table", args=[key]),
            record=reverse("tournaments:entry_record", args=[key]),
            preview=reverse("tournaments:entry_preview", args=[key]),
            game_prefix=reverse("tournaments:entry_table", args=[key]) + "spiel/",
            confirm=reverse("tournaments:entry_confirm", args=[key]),
            storage_key=f"skr:{key}",
            queue=True,
            manifest=reverse("tournaments:entry_manifest", args=[key]),
            service_worker=reverse("tournaments:entry_service_worker"),
            polled=True,
        )
    )


def table_or_404(entry_key: str) -> Table:
    """The table of a private link; 404 for a wrong key and for a round that is not published yet."""
    table = table_for_entry_key(entry_key)
    if table is None:
        raise WrongKey("No such table")
    if table.round.status == Round.Status.DRAWN:
        raise Http404("No such table")
    return table


class TabletEntry(EntryView):
    """The entry page's actions under the tablet's private link (``key``)."""

    def get_table(self) -> Table:
        return table_or_404(self.kwargs["key"])

    def get_mode(self, table: Table) -> EntryMode:
        return tablet_mode(table)


# The page polls itself (entry.js): an unchanged poll is a 304 before anything is read or rendered, from a
# tablet without a session before Django itself (polling.UnchangedPolls), as the phones' standings polls.
table_page = polled_page(table_page_state)(TabletEntry.as_view(action="page"))


@require_POST
def confirm(request: HttpRequest, key: str) -> HttpResponse:
    """A player confirms the complete sheet by tapping his name."""
    table = table_or_404(key)
    page = reverse("tournaments:entry_table", args=[key])
    seat = parse_int(request.POST.get("seat"), min_value=1, max_value=5)
    if seat is None:
        messages.error(request, _("Tap your name to confirm."))
        return redirect(page)
    try:
        hand_services.table_confirm(table=table, seat=seat, device=device_of(request), device_id=device_id_of(request))
    except ServiceError as err:  # the page again with why (a closed table: the organiser's reason), and the status
        messages.error(request, err.message)
        return render_page(request, table, tablet_mode(table), status=error_status(err))
    return redirect(f"{page}#confirm")
