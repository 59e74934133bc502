"""The sticky save bar never covers the Laufende row: scrolled into view (as a tap or the keyboard does),
the whole row sits above the bar on a phone and a tablet in portrait."""
import pytest

from tests.browser.test_entry import NAMES, expect
from tests.tournaments.test_services_hands import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", [{"width": 360, "height": 640}, {"width": 800, "height": 1280}])
def test_the_save_bar_leaves_the_laufende_row_visible(page, size):
    table = make_table(names=NAMES[:4])
    page.set_viewport_size(size)
    page.goto(f"{page.base_url}/tisch/{table.entry_key}/")
    page.get_by_test_id("contract-rufspiel").click()
    laufende = page.locator('[data-part="laufende"]')
    expect(laufende).to_be_visible()
    for block in ("nearest", "end"):
        page.evaluate("window.scrollTo(0, 0)")
        laufende.evaluate(f"el => el.scrollIntoView({{block: '{block}'}})")
        row = laufende.bounding_box()
        dock = page.locator(".dock").bounding_box()
        assert row["y"] + row["height"] <= dock["y"] + 1, (block, row, dock)
