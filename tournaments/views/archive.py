"""The archive in the console: download a tournament as its archive, upload one (validated first, all or nothing)."""

import json

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from tournaments.services.standings import standings_recompute

from .. import access
from ..archive import ArchiveError, archive_build, archive_import, archive_parse
from ..services.audit import audit_record

MAX_ARCHIVE_BYTES = 20 * 1024 * 1024


class ArchiveUploadForm(forms.Form):
    club = forms.ModelChoiceField(label=gettext_lazy("club"), queryset=None)
    file = forms.FileField(label=gettext_lazy("archive file (.json)"))
    slug = forms.SlugField(
        label=gettext_lazy("short name (URL)"),
        required=False,
        max_length=100,
        help_text=gettext_lazy("Empty: the archive's own. Give another if it exists already."),
    )

    def __init__(self, *args, clubs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs
        if clubs.count() == 1:
            self.fields["club"].initial = clubs.first()

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_ARCHIVE_BYTES:
            raise forms.ValidationError(_("The file is larger than 20 MB."))
        try:
            return archive_parse(upload.read())
        except ArchiveError as err:
            raise forms.ValidationError(
                _("%(path)s: %(message)s – nothing was imported.") % {"path": err.path, "message": err.message}
            ) from None


@login_required
@require_GET
def download(request: HttpRequest, slug: str) -> HttpResponse:
    """Archiv herunterladen: the whole tournament as one JSON document (without the private keys)."""
    tournament = access.tournament_for(request.user, slug, access.ORGANISER)
    text = json.dumps(archive_build(tournament), ensure_ascii=False, indent=1) + "\n"
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="archiv-{tournament.slug}.json"'
    return response


@login_required
def upload(request: HttpRequest) -> HttpResponse:
    """Archiv hochladen: checked as a whole first; an error names its path and nothing is written."""
    clubs = access.clubs_for(request.user, access.ORGANISER)
    if not clubs.exists():
        raise PermissionDenied
    form = ArchiveUploadForm(request.POST or None, request.FILES or None, clubs=clubs)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            doc = form.cleaned_data["file"]
            club = form.cleaned_data["club"]
            try:  # into the organiser's own club, its players matched and made in its database only
                tournament = archive_import(doc=doc, slug=form.cleaned_data["slug"] or None, club=club)
            except ArchiveError as err:
                field = "slug" if err.path == "slug" else "file"
                form.add_error(
                    field,
                    _("%(path)s: %(message)s – nothing was imported.") % {"path": err.path, "message": err.message},
                )
            else:
                audit_record(
                    action="archive_import",
                    by=request.user,
                    tournament=tournament,
                    subject=tournament.slug,
                    after={"slug": tournament.slug},
                )
                standings_recompute(tournament_id=tournament.pk)
                messages.success(
                    request,
                    _("Imported %(name)s: %(players)d players, %(rounds)d rounds.")
                    % {
                        "name": tournament.name,
                        "players": tournament.registrations.count(),
                        "rounds": tournament.rounds.count(),
                    },
                )
                return redirect("tournaments:standings", slug=tournament.slug)
    return render(request, "console/archive_upload.html", {"form": form}, status=status)
