"""axe-core in the browser tests: inject it into a page, run it, report in words.

axe-core is a test tool only, pinned in package.json and installed into
node_modules/ by `npm ci` (`python build.py test` runs it); it is never copied
into dist/. Its source is handed to the page with `page.evaluate`, which
Playwright sends over the DevTools protocol: the site's Content-Security-Policy
(script-src 'self') rightly refuses an inline <script> such as
`add_script_tag(content=...)` would add, and `bypass_csp` would switch the
policy off for the whole page under test. Evaluating the source leaves the
policy in force for everything the site itself does.
"""

from __future__ import annotations

from functools import cache

from playwright.sync_api import Frame, Page

from .harness import ROOT

AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"

# Every rule axe runs by default (WCAG 2.0-2.2 A and AA, and its best
# practices), at every impact level: minor ones fail a test too.
RUN_OPTIONS = {"resultTypes": ["violations"]}


@cache
def axe_source() -> str:
    """axe.min.js, or a failure that says how to install it (never a skip:
    `npm ci` in CI installs it, so its absence is a broken setup)."""
    if not AXE_JS.is_file():
        raise AssertionError(
            f"axe-core is not installed ({AXE_JS.relative_to(ROOT)} is missing): run "
            "`npm ci --ignore-scripts` in the repository (python build.py test does it), "
            "which installs the version pinned in package-lock.json")
    return AXE_JS.read_text(encoding="utf-8")


def inject(frame: Frame) -> None:
    if not frame.evaluate("() => typeof window.axe === 'object'"):
        frame.evaluate(axe_source())


def violations(page: Page) -> list[dict]:
    """axe's violations on the page as it is now (all frames), each as
    {id, impact, help, targets: [css selector, ...]}."""
    for frame in page.frames:
        inject(frame)
    return page.evaluate(
        """async (options) => {
          const result = await axe.run(document, options);
          return result.violations.map(v => ({
            id: v.id, impact: v.impact, help: v.help,
            targets: v.nodes.map(n => n.target.join(" >> ")),
          }));
        }""", RUN_OPTIONS)


def describe(found: list[dict], limit: int = 3) -> str:
    """One line per violation: id, impact, how many, and the first targets."""
    lines = []
    for v in found:
        more = f" (+{len(v['targets']) - limit} more)" if len(v["targets"]) > limit else ""
        lines.append(f"  {v['id']} [{v['impact']}] x{len(v['targets'])}: {v['help']} -- "
                     + ", ".join(v["targets"][:limit]) + more)
    return "\n".join(lines)


def assert_clean(page: Page, where: str) -> None:
    """No axe violation of any impact on the page as it is now."""
    found = violations(page)
    assert not found, f"axe found {len(found)} kind(s) of violation on {where}:\n{describe(found)}"


# What leaks from code into words: a missing value or an object printed as text.
STRAY = r"\b(?:null|undefined|NaN)\b|\[object \w+\]"


def stray_words(page: Page) -> list[str]:
    """Text a reader meets (shown text, and the names read aloud: aria-label,
    title, alt, placeholder) that holds `null`, `undefined`, `NaN` or
    `[object Object]`, in every frame: each as "<tag>: <the text>"."""
    found = []
    for frame in page.frames:
        found += frame.evaluate(
            """(pattern) => {
              const stray = new RegExp(pattern), hits = [];
              const walker = document.createTreeWalker(document.body ?? document.documentElement, NodeFilter.SHOW_TEXT);
              for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                const tag = node.parentElement?.tagName.toLowerCase();
                if (tag === "script" || tag === "style") continue;
                if (stray.test(node.data)) hits.push(`${tag}: ${node.data.trim().slice(0, 120)}`);
              }
              for (const el of document.querySelectorAll("[aria-label], [title], [alt], [placeholder]")) {
                for (const name of ["aria-label", "title", "alt", "placeholder"]) {
                  const value = el.getAttribute(name);
                  if (value && stray.test(value)) hits.push(`${el.tagName.toLowerCase()} ${name}: ${value.slice(0, 120)}`);
                }
              }
              return hits;
            }""", STRAY)
    return found
