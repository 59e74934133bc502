"""The prize plan on the organiser's prize page: its form and the live preview that follows registrations (saving
it is ``standings.prize_plan_save``, beside the page it renders)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .. import access
from ..forms_setup import PrizeCategoryForm, PrizeCategoryFormSet, PrizePlanForm
from ..models import PrizeCategory, PrizePlan
from ..selectors.prize_plan import prize_plan_of, prize_plan_preview


def plan_context(tournament, form: PrizePlanForm | None = None, category_forms=None) -> dict:
    """What the prize page needs for the plan: the forms (the stored plan's and categories' values), the preview."""
    plan = prize_plan_of(tournament)
    categories = PrizeCategory.objects.filter(tournament=tournament)
    return {
        "plan_form": form or PrizePlanForm(initial=PrizePlanForm.initial_for(plan), auto_id="plan_%s"),
        "plan_preview": prize_plan_preview(tournament, plan),
        "allow_both": plan.categories_allow_both,
        "category_forms": category_forms
        or PrizeCategoryFormSet(initial=[PrizeCategoryForm.initial_for(c) for c in categories], prefix="category"),
    }


@login_required
@require_GET
def preview(request: HttpRequest, slug: str) -> HttpResponse:
    """The preview fragment: of the stored plan, or of the settings typed but not saved yet (the form's fields)."""
    tournament = access.tournament_for(request.user, slug, access.ANY_ROLE)
    plan = prize_plan_of(tournament)
    form_valid = True
    if "curve" in request.GET:
        form = PrizePlanForm(request.GET)
        form_valid = form.is_valid()
        if form_valid:
            plan = PrizePlan(tournament=tournament, **form.values())
    return render(
        request,
        "standings/_prize_plan_preview.html",
        {"tournament": tournament, "plan_preview": prize_plan_preview(tournament, plan), "form_valid": form_valid},
    )
