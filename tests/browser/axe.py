"""axe-core (tests/browser/vendor/axe.min.js, vendored: no CDN at test time) run on the page as it stands.

``axe_violations(page)`` injects axe once per document and returns its violations of WCAG 2.0 and 2.1, levels A
and AA, as axe reports them (dicts with id, impact, help, nodes). The pages' Content-Security-Policy forbids
inline script, so the script tag axe comes in needs a context made with ``bypass_csp=True``; without it axe's
source is evaluated through the DevTools protocol instead, which the policy does not reach.
"""

from pathlib import Path

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def _inject(page) -> None:
    if page.evaluate("typeof window.axe !== 'undefined'"):
        return
    try:
        page.add_script_tag(path=str(AXE))
    except Exception as refused:  # the policy kept the tag from running (Playwright raises its Error)
        if "Content Security Policy" not in str(refused):
            raise
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")


def axe_violations(page) -> list:
    """The WCAG 2.0/2.1 A+AA violations axe-core finds on the page's current state (empty when none)."""
    _inject(page)
    result = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})", WCAG_AA
    )
    return result["violations"]


# The rules whose outcome a colour scheme can change: a page seen again in dark mode needs only these.
COLOUR_RULES = ["color-contrast", "link-in-text-block", "non-text-contrast"]


def axe_colour_violations(page) -> list:
    """Only the colour rules of axe_violations (those of COLOUR_RULES that axe-core has)."""
    _inject(page)
    result = page.evaluate(
        """rules => axe.run(document, {runOnly: {type: 'rule', values: rules.filter(r => axe.getRules().some(k => k.ruleId === r))},
                                      resultTypes: ['violations']})""",
        COLOUR_RULES,
    )
    return result["violations"]


def describe(violations: list) -> str:
    """One line per violation and up to three of its nodes: enough to find the element in the template."""
    lines = []
    for v in violations:
        targets = ", ".join(" ".join(map(str, n["target"])) for n in v["nodes"][:3])
        lines.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {v['help']} -- {targets}")
    return "\n".join(lines)
