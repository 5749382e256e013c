"""The Embed dialog as a blogger meets it (issue 49): the host script offered
beside the code and pasted with it into a page of another origin, where the
frame grows to its content after Analyse and shrinks back when the panel
closes; the dialog opening at its top on a phone; and its words saying what
they mean (one download figure, the replay modes by what differs, the
colours, a start move greyed out for a lesson, a refused height refused
visibly). Measured as figures, never timings.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
import quetgames
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import build
from .harness import ARTIFACTS, LOAD_TIMEOUT_MS, READY, embed_in_host, finished, watched_page

PHONE = {"width": 390, "height": 844}


def open_dialog(page: Page, server: str, record: str) -> None:
    page.goto(f"{server}index.html#{record}")
    page.locator(READY).wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
    page.get_by_role("button", name="Embed").click()
    page.locator("dialog.embed-builder[open]").wait_for()


def download_figure() -> str:
    """The download's size as the loading bar words it (worker.js: the sum of the worker's files, in MB to one place)."""
    info = json.loads((build.DIST / "build.json").read_text())
    return f"{sum(f['size'] for f in info['pyodide_files'].values()) / 1e6:.1f} MB"


# What the frame shows under its content: the foot's top against the bottom of
# the last thing above it, and the frame's height against its content.
BAND = """() => {
  const foot = document.querySelector('.embed-foot').getBoundingClientRect();
  const parts = [...document.querySelectorAll('#embed *')].filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden');
  const above = Math.max(...parts.map((el) => el.getBoundingClientRect().bottom));
  // (the column's items, the game view's regions among them, and where each ends: what a band is made of)
  const stage = document.getElementById('embed');
  const items = [...stage.children].flatMap((el) => (getComputedStyle(el).display === 'contents' ? [...el.children] : [el]));
  const ends = items.map((el) => `${el.id || el.className || el.tagName}:${Math.round(el.getBoundingClientRect().bottom)}`).slice(-6);
  return {band: Math.round(foot.top - above), content: document.documentElement.scrollHeight, frame: innerHeight,
          footBottom: Math.round(foot.bottom + scrollY), main: Math.round(stage.getBoundingClientRect().bottom), ends};
}"""


def test_the_host_script_is_offered_and_the_frame_grows_and_shrinks_with_the_analysis(browser: Browser, server: str, host: tuple[str, Path]) -> None:
    state = finished("multiplications", 3, k=3).with_seats(names=["Blogger"], kinds=["human", "greedy"])
    site = watched_page(browser, server, timeout_ms=30_000)
    try:
        open_dialog(site.page, server, state.record)
        dialog = site.page.locator("dialog.embed-builder")
        dialog.get_by_label(re.compile("^Replay only")).check()
        dialog.get_by_label("Height (px)").fill("600")
        dialog.locator("#embed-code[data-poster=ready]").wait_for()
        code = dialog.locator("#embed-code").input_value()
        # the host script, offered beside the code with what it does, and what happens without it
        offered = dialog.locator("#embed-host-script")
        assert offered.count() == 1, "the dialog offers no host script"
        script = offered.input_value()
        assert script == f'<script src="{server}embed-host.js" async></script>', script
        said = dialog.locator("#embed-host-said").inner_text()
        assert "grows" in said and "Without it, the frame keeps the height" in said, said
        assert site.errors == []
    finally:
        site.context.close()

    # pasted into a blog's page on another origin, both of them, as the dialog gives them
    base, folder = host
    src = html.unescape(re.search(r'<iframe src="([^"]+)"', code).group(1)).replace("embed.html?", "embed.html?analysis-iterations=40&")
    code = code.replace(re.search(r'<iframe src="([^"]+)"', code).group(1), html.escape(src))
    (folder / "dialog-host.html").write_text(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>A blog post</title><link rel='icon' href='data:,'></head>"
        f"<body style='margin:0'><h1>A post</h1>{code}\n{script}<p>Text after the game.</p></body></html>")
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(base + "dialog-host.html")
        page.wait_for_function("() => document.querySelector('iframe')?.contentWindow")
        frame = next(f for f in page.frames if "embed.html" in f.url)
        frame.locator("#embed-start").click()
        frame.locator(READY).wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
        frame.locator("html[data-grows=yes]").wait_for(state="attached")
        frame.locator("#board svg").first.wait_for()
        height = lambda: round(page.locator("iframe").bounding_box()["height"])  # noqa: E731
        # (the frame takes its content's height: the snippet's at most, less where the game is shorter, issue 56)
        frame.wait_for_function(f"() => ({BAND})().band <= 12")
        before = height()
        assert before <= 600, before
        # Analyse: the frame grows to its content, with no empty band under the analysis
        frame.locator(".embed-analysis summary").click()
        start = frame.locator("button.analysis-start")
        if start.count():
            start.click()
        frame.locator(".analysis-chart").wait_for(timeout=60_000)
        page.wait_for_function("() => document.querySelector('iframe').getBoundingClientRect().height > 600")
        frame.wait_for_function("() => document.documentElement.scrollHeight <= innerHeight + 1")
        # (the analysis may be drawn in steps, each asking a height: wait for the last one to be obeyed)
        try:
            frame.wait_for_function(f"() => ({BAND})().band <= 12", timeout=10_000)
        except PlaywrightTimeout:
            pass
        grown = {"iframe": height(), **frame.evaluate(BAND)}
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "dialog-host-grown.png"), full_page=True)
        assert grown["iframe"] > 600 and grown["content"] <= grown["frame"] + 1, grown
        assert grown["band"] <= 12 and grown["footBottom"] >= grown["frame"] - 2, grown
        # the panel closed: back to the height it had
        frame.locator(".embed-analysis summary").click()
        try:
            page.wait_for_function("h => Math.round(document.querySelector('iframe').getBoundingClientRect().height) === h", arg=before, timeout=10_000)
        except PlaywrightTimeout:
            pass
        shrunk = {"iframe": height(), **frame.evaluate(BAND)}
        assert shrunk["iframe"] == before and shrunk["content"] <= shrunk["frame"] + 1, shrunk
        page.screenshot(path=str(ARTIFACTS / "dialog-host-shrunk.png"), full_page=True)
        assert errors == []
    finally:
        context.close()


def test_the_dialog_opens_at_its_top_on_a_phone_and_says_what_it_means(browser: Browser, server: str) -> None:
    state = finished("prime-target", 4)
    # a game with a comment: "Replay that plays itself" is offered
    state = state.with_comment(2, "The centre fills here.")
    site = watched_page(browser, server, viewport=PHONE, timeout_ms=30_000, has_touch=True, is_mobile=True)
    page = site.page
    try:
        open_dialog(page, server, state.record)
        dialog = page.locator("dialog.embed-builder")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "dialog-phone-top.png"))
        top = dialog.evaluate("""d => ({scroll: d.scrollTop,
            heading: d.querySelector('h2').getBoundingClientRect().top,
            choices: d.querySelector('fieldset legend').getBoundingClientRect().top,
            focused: document.activeElement?.tagName + ' ' + (document.activeElement?.textContent || '').slice(0, 20)})""")
        assert top["scroll"] == 0 and 0 <= top["heading"] < 80 and 0 <= top["choices"] < 844, top

        text = dialog.inner_text()
        # one download figure, the build's own (the loading bar's)
        figure = download_figure()
        dialog.locator(".download-size").filter(has_text=figure).wait_for()
        assert "4.5 MB" not in dialog.inner_text(), "the dialog's figure is not the build's"
        # the replay modes, by what differs: stepped by the reader, or playing itself
        assert dialog.get_by_label(re.compile("^Replay only, stepped by the reader")).count() == 1
        assert dialog.get_by_label(re.compile("^Replay that plays itself")).count() == 1
        # the position's words: no server at all, not "your site's server"
        dialog.locator("#embed-code[data-poster=ready]").wait_for()
        text = dialog.inner_text()
        assert "your site's server" not in text and "never send to any server" in text, text
        # the colours: following the reader's system means light or dark
        auto = dialog.get_by_label("Follow the reader's system")
        said = dialog.locator("#" + auto.get_attribute("aria-describedby")).inner_text()
        assert "light or dark" in said, said
        # a lesson: the start move means nothing there, so it is greyed out
        start_at = dialog.get_by_label(re.compile("Start at move"))
        assert start_at.is_enabled()
        dialog.get_by_label(re.compile("^A one-minute lesson")).check()
        assert start_at.is_disabled()
        dialog.get_by_label(re.compile("^Replay only")).check()
        assert start_at.is_enabled()
        # a height out of range: refused where it is typed, and no code keeps the old height
        dialog.get_by_label("Height (px)").fill("90")
        error = dialog.locator(".form-error")
        assert "height" in error.inner_text() and "90" in error.inner_text(), error.inner_text()
        assert dialog.get_by_label("Height (px)").get_attribute("aria-invalid") == "true"
        assert 'height="680"' not in dialog.locator("#embed-code").input_value()
        assert dialog.locator("button.copy").is_disabled()
        page.screenshot(path=str(ARTIFACTS / "dialog-phone-refused.png"), full_page=True)
        dialog.get_by_label("Height (px)").fill("640")
        assert 'height="640"' in dialog.locator("#embed-code").input_value()
        assert dialog.get_by_label("Height (px)").get_attribute("aria-invalid") is None
        assert site.errors == []
    finally:
        site.context.close()


@pytest.mark.parametrize("where", ["poster", "loading"])
def test_the_frame_gives_the_builds_download_figure(browser: Browser, server: str, where: str) -> None:
    state = finished("enumeration", 2, size=5)
    site = watched_page(browser, server, timeout_ms=30_000)
    try:
        site.page.goto(f"{server}embed.html#{state.record}")
        note = site.page.locator(".poster-note")
        note.wait_for()
        figure = download_figure()
        if where == "loading":
            # held before the worker answers: the bar's words are the frame's own
            site.page.route("**/pyodide/**", lambda route: None)
            site.page.locator("#embed-start").click()
            note = site.page.locator(".loading-note")
        assert f"about {figure}" in note.inner_text(), note.inner_text()
    finally:
        site.context.close()


# -- the embed's colours: light unless the snippet asks otherwise (issue 56) -----------------

PAPER = "() => getComputedStyle(document.documentElement).backgroundColor"


def test_the_embed_is_light_by_default_and_the_dialog_offers_the_readers_system(browser: Browser, server: str, host: tuple[str, Path]) -> None:
    """A reader whose system is dark, on a light blog: a frame pasted with the
    dialog's default code is light; "Follow the reader's system" writes
    theme=auto, and that frame is dark. Before issue 56 the default followed
    the reader's system (a dark frame in a light blog) and the dialog's first
    choice was it."""
    state = finished("multiplications", 3, k=3)
    site = watched_page(browser, server, timeout_ms=30_000, color_scheme="dark")
    try:
        open_dialog(site.page, server, state.record)
        dialog = site.page.locator("dialog.embed-builder")
        assert dialog.locator('input[name="theme"]:checked').get_attribute("value") == "light"
        dialog.locator("#embed-code[data-poster=ready]").wait_for()
        default_src = html.unescape(re.search(r'src="([^"]+)"', dialog.locator("#embed-code").input_value()).group(1))
        assert "theme=" not in default_src, default_src
        dialog.get_by_label("Follow the reader's system").check()
        auto_src = html.unescape(re.search(r'src="([^"]+)"', dialog.locator("#embed-code").input_value()).group(1))
        assert "theme=auto" in auto_src, auto_src
        assert site.errors == []
    finally:
        site.context.close()
    papers = {}
    for name, src in (("default", default_src), ("auto", auto_src)):
        page, frame = (embed_in_host(browser, host, src, width=480, height=680, start=False))
        try:
            page.emulate_media(color_scheme="dark")
            frame.locator("#embed-start").wait_for()
            papers[name] = frame.evaluate(PAPER)
            page.screenshot(path=str(ARTIFACTS / f"embed-colours-{name}-on-a-dark-system.png"))
        finally:
            page.context.close()
    # (the shell's paper: #fbfaf6 light, #15181e dark)
    assert papers == {"default": "rgb(251, 250, 246)", "auto": "rgb(21, 24, 30)"}, papers
