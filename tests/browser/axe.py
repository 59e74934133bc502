"""axe-core (vendored: tests/browser/vendor/axe.min.js, npm axe-core 4.14.1, MPL-2.0: its licence beside it in vendor/axe-LICENSE) run on a page in the test browser.

``axe_violations(page)`` injects axe into the page (unless it is there already) and returns its violations of
WCAG 2.0 and 2.1, levels A and AA, as plain dicts: ``{"id", "impact", "help", "nodes": [{"target", "html",
"summary"}]}``. An empty list is a clean page. The pages' Content-Security-Policy forbids inline script; a
``<script src>`` added by Playwright from a file is inline to the page, so the context that runs axe is made
with ``bypass_csp=True`` (the policy itself has its own tests, test_csp.py).
"""
from pathlib import Path

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

RUN = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(" "), html: n.html.slice(0, 200), summary: n.failureSummary})),
  }));
}"""


def axe_violations(page) -> list:
    """The WCAG 2.0/2.1 A+AA violations axe-core finds on the page as it is now (see the module's text)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate(RUN, TAGS)


def describe(violations: list) -> str:
    """The violations, a line per node, for an assertion's message."""
    return "\n".join(f"{v['id']} ({v['impact']}): {n['target']} {n['html']}\n    {n['summary']}"
                     for v in violations for n in v["nodes"])
