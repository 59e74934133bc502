"""A qualifier series ("Qualifikation"): the public qualification list (serie/<slug>/qualifikation/) and the
owning club's page (o/serien/<slug>/qualifikation/): settings, wildcards, invitations to the final, declines."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from .. import access
from ..forms_qualification import QualificationForm, WildcardForm
from ..http import error_status
from ..models import Series
from ..params import parse_int
from ..pdf.qualification import render_qualification_list
from ..selectors.qualification import qualification_list, qualification_pdf_data, wildcard_candidates
from ..services.errors import ServiceError
from ..services.qualification import final_fill, invitation_decline, qualification_settings, wildcard_give


def _is_member(user, series: Series, roles=access.ANY_ROLE) -> bool:
    return access.clubs_for(user, roles).filter(pk=series.club_id).exists()


@require_GET
def qualification_page(request: HttpRequest, series: str) -> HttpResponse:
    """The qualification list: who goes to the final and how, who is next in line."""
    obj = get_object_or_404(Series.objects.select_related("club", "final"), slug=series)
    if not obj.public and not _is_member(request.user, obj):
        raise Http404("No such series")
    data = qualification_list(obj) if obj.kind == Series.Kind.QUALIFIER else None
    return render(request, "series/qualification.html", {"series": obj, "data": data})


def _context(obj: Series, form=None, wildcard_form=None) -> dict:
    initial = {
        "per_evening": obj.qualify_per_evening,
        "mode": obj.qualify_mode,
        "lottery_places": obj.lottery_places,
        "lottery_min_evenings": obj.lottery_min_evenings,
        "final": obj.final_id,
        "invitation_deadline": obj.invitation_deadline,
    }
    return {
        "series": obj,
        "form": form or QualificationForm(initial=initial, series=obj),
        "wildcard_form": wildcard_form or WildcardForm(candidates=wildcard_candidates(obj)),
        "data": qualification_list(obj) if obj.kind == Series.Kind.QUALIFIER else None,
    }


@require_GET
def qualification_pdf(request: HttpRequest, series: str) -> HttpResponse:
    """The qualification list as A4, for the notice board of every host."""
    obj = get_object_or_404(Series.objects.select_related("club", "final"), slug=series)
    if not obj.public and not _is_member(request.user, obj):
        raise Http404("No such series")
    response = HttpResponse(render_qualification_list(qualification_pdf_data(obj)), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{obj.slug}-qualifikation.pdf"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def qualification_manage(request: HttpRequest, series: str) -> HttpResponse:
    obj = get_object_or_404(Series.objects.select_related("club", "final"), slug=series)
    if not _is_member(request.user, obj, access.ORGANISER):
        raise Http404("No such series")
    if request.method == "GET":
        return render(request, "series/qualification_manage.html", _context(obj))
    action = request.POST.get("action", "")
    form = wildcard_form = None
    try:
        if action == "settings":
            form = QualificationForm(request.POST, series=obj)
            if not form.is_valid():
                return render(request, "series/qualification_manage.html", _context(obj, form), status=400)
            qualification_settings(series=obj, by=request.user, **form.cleaned_data)
            messages.success(request, _("Qualification saved."))
        elif action == "wildcard":
            wildcard_form = WildcardForm(request.POST, candidates=wildcard_candidates(obj))
            if not wildcard_form.is_valid():
                return render(
                    request, "series/qualification_manage.html", _context(obj, wildcard_form=wildcard_form), status=400
                )
            wildcard_give(series=obj, by=request.user, **wildcard_form.cleaned_data)
            messages.success(request, _("Wildcard given."))
        elif action == "fill":
            made = final_fill(series=obj, by=request.user)
            messages.success(request, _("%(n)d invited to the final.") % {"n": len(made)})
        elif action == "decline":
            invitation = obj.invitations.filter(pk=parse_int(request.POST.get("invitation")) or 0).first()
            if invitation is None:
                raise ServiceError("invitation", _("Choose an invitation of this series."))
            made = invitation_decline(invitation=invitation, by=request.user)
            messages.success(
                request, _("%(name)s declined; %(n)d moved up.") % {"name": invitation.player.name, "n": len(made)}
            )
        else:
            return HttpResponse(
                _("action: settings, wildcard, fill or decline is needed."),
                status=400,
                content_type="text/plain; charset=utf-8",
            )
    except ServiceError as err:
        if form is not None:
            form.add_service_error(err)
        elif wildcard_form is not None:
            wildcard_form.add_service_error(err)
        else:
            messages.error(request, err.message)
        obj.refresh_from_db()
        return render(
            request, "series/qualification_manage.html", _context(obj, form, wildcard_form), status=error_status(err)
        )
    return redirect("tournaments:qualification_manage", series=obj.slug)
