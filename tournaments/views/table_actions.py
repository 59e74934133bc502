"""The organiser closes what a table cannot: confirm for an absent player, close the table (and reopen it) with a reason."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..forms_tables import (
    ConfirmForForm,
    TableCloseForm,
    TableFourForm,
    TableReopenForm,
    action_forms,
    seated,
    unconfirmed_seats,
)
from ..models import Table
from ..services.errors import ServiceError
from ..services.tables import table_close, table_confirm_for, table_play_on_with_four, table_reopen
from . import entry_base as entry
from .paper import TEMPLATE, _table, paper_mode


def _again(request: HttpRequest, table: Table, **forms) -> HttpResponse:
    mode = paper_mode(request, table)
    mode.extra.update(action_forms(table, **forms))
    return entry.render_page(request, table, mode, template=TEMPLATE, status=400)


@login_required
@require_POST
def confirm_for(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    table = _table(request, slug, table_id)
    form = ConfirmForForm(request.POST, seats=unconfirmed_seats(table), prefix="cf")
    if form.is_valid():
        try:
            table_confirm_for(
                table=table, seat=form.cleaned_data["seat"], by=request.user, reason=form.cleaned_data["reason"]
            )
        except ServiceError as err:
            form.add_error(err.field if err.field in form.fields else None, err.message)
        else:
            messages.success(
                request,
                _("Confirmed for seat %(seat)d of table %(table)d.")
                % {"seat": form.cleaned_data["seat"], "table": table.number},
            )
            return redirect("tournaments:paper", slug, table.pk)
    return _again(request, table, confirm_for=form)


@login_required
@require_POST
def close(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    table = _table(request, slug, table_id)
    form = TableCloseForm(request.POST, prefix="close")
    if form.is_valid():
        try:
            table_close(table=table, by=request.user, reason=form.cleaned_data["reason"])
        except ServiceError as err:
            form.add_error(err.field if err.field in form.fields else None, err.message)
        else:
            messages.success(request, _("Table %(table)d is closed.") % {"table": table.number})
            return redirect("tournaments:paper", slug, table.pk)
    return _again(request, table, close=form)


@login_required
@require_POST
def four(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """A table of five lost a player: it plays on with four (``table_play_on_with_four``)."""
    table = _table(request, slug, table_id)
    form = TableFourForm(request.POST, seats=seated(table), prefix="four")
    if form.is_valid():
        try:
            table_play_on_with_four(
                table=table, seat=form.cleaned_data["seat"], by=request.user, reason=form.cleaned_data["reason"]
            )
        except ServiceError as err:
            form.add_error(err.field if err.field in form.fields else None, err.message)
        else:
            messages.success(request, _("Table %(table)d plays on with four.") % {"table": table.number})
            return redirect("tournaments:paper", slug, table.pk)
    return _again(request, table, four=form)


@login_required
@require_POST
def reopen(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    table = _table(request, slug, table_id)
    form = TableReopenForm(request.POST, prefix="reopen")
    if form.is_valid():
        try:
            table_reopen(table=table, by=request.user, reason=form.cleaned_data["reason"])
        except ServiceError as err:
            form.add_error(err.field if err.field in form.fields else None, err.message)
        else:
            messages.success(request, _("Table %(table)d is open again.") % {"table": table.number})
            return redirect("tournaments:paper", slug, table.pk)
    return _again(request, table, reopen=form)
