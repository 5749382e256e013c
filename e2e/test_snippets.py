"""Something to paste where HTML is not allowed: the Embed dialog's link and
Markdown snippets, run through what blogs and forums run pasted text through
(nh3 and bleach at their defaults, a CommonMark renderer with raw HTML off),
read as a reader would see them: a named link to the game, no markup shown
as text. And the dialog's choices: a replay for a finished game, play on for
one in progress; a long address said in words.
"""

from __future__ import annotations

import html
import json
import random
import re

import bleach
import nh3
import quetgames
from markdown_it import MarkdownIt
from playwright.sync_api import Page

from .harness import Watched, open_record, shoot

COMMONMARK = MarkdownIt("commonmark", {"html": False})


def finished(seed: int = 3) -> quetgames.State:
    rng = random.Random(seed)
    state = quetgames.new_game("multiplications", k=3).with_seats(["Ann [1]", "Bo_b <x>"])
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    return state


def open_dialog(page: Page) -> None:
    page.locator("[data-key=embed]").click()
    page.locator("dialog.embed-builder[open]").wait_for()
    page.locator("#embed-code[data-poster=ready], #embed-code[data-poster=none]").wait_for()


def links(rendered: str) -> list[tuple[str, str]]:
    """(href, text) of every <a> in rendered HTML, unescaped as a browser would."""
    return [(html.unescape(href), html.unescape(re.sub(r"<[^>]+>", "", text)))
            for href, text in re.findall(r'<a[^>]*href="([^"]*)"[^>]*>(.*?)</a>', rendered, flags=re.S)]


def seen_as_text(rendered: str) -> str:
    """The text a reader sees: tags gone, entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", rendered))


def test_the_link_snippets_come_through_sanitizers_and_markdown_as_a_named_link(w: Watched, page: Page) -> None:
    state = finished()
    open_record(w, state.record)
    open_dialog(page)
    words = "Play this game of Multiplications Within the Permutation (a game by Leroy Quet)"
    # the page's link carries the game's poster, as the share panel's does (issue 53): it opens on the board
    page.wait_for_function("() => document.getElementById('embed-link').value.includes('!poster.')")
    link = page.locator("#embed-link").input_value()
    game_url = links(link)[0][0]
    assert game_url.startswith(page.evaluate("() => new URL('index.html#' + encodeURIComponent(document.querySelector('section.game').dataset.record), location.href).href") + "!poster.")
    assert len(game_url) <= 2000
    markdown = page.locator("#embed-markdown").input_value()
    shoot(page, "snippets-dialog")
    # HTML that keeps links but drops frames: nh3 and bleach, each at its defaults
    for name, clean in (("nh3", nh3.clean), ("bleach", bleach.clean)):
        out = clean(link)
        assert links(out) == [(game_url, words)], (name, out)
        assert "<" not in seen_as_text(out) and seen_as_text(out) == words, (name, out)
    # Markdown with raw HTML off (CommonMark)
    out = COMMONMARK.render(markdown)
    assert links(out) == [(game_url, words)], out
    assert seen_as_text(out).strip() == words, out
    # the frame's own code where HTML is escaped is exactly what the plain snippets are for
    iframe = page.locator("#embed-code").input_value()
    assert "<iframe" in seen_as_text(COMMONMARK.render(iframe))
    page.locator("dialog.embed-builder[open] button.close").click()


def test_markdown_words_and_addresses_cannot_end_the_link_early(w: Watched, page: Page) -> None:
    open_record(w, finished().record)
    made = page.evaluate("""async () => {
      const { markdownSnippet } = await import('./share/embed-snippet.js');
      return markdownSnippet('https://example.org/a (b)/index.html#q2.x_y', 'Play [this] *game* <now>_');
    }""")
    out = COMMONMARK.render(made)
    assert links(out) == [("https://example.org/a%20%28b%29/index.html#q2.x_y", "Play [this] *game* <now>_")], (made, out)


def test_the_dialog_offers_a_replay_for_a_finished_game_and_play_for_one_in_progress(w: Watched, page: Page) -> None:
    state = finished()
    open_record(w, state.record)
    open_dialog(page)
    assert page.locator("dialog.embed-builder input[name=mode][value=replay]").is_checked()
    assert "mode=replay" in page.locator("#embed-code").input_value()
    # the default size: every game fits it with its board first (e2e/test_frames.py)
    assert 'width="480" height="680"' in page.locator("#embed-code").input_value()
    page.locator("dialog.embed-builder[open] button.close").click()
    going = quetgames.new_game("multiplications", k=3).play("a1")
    open_record(w, going.record)
    open_dialog(page)
    assert page.locator("dialog.embed-builder input[name=mode][value=play]").is_checked()
    assert "mode=" not in page.locator("#embed-code").input_value().split("#")[0]
    page.locator("dialog.embed-builder[open] button.close").click()


def test_a_long_embed_address_is_said_in_the_dialog(w: Watched, page: Page) -> None:
    from quetgames import bridge

    record = finished().record
    for ply in range(10):
        record = json.loads(bridge.call("annotate", json.dumps({"record": record, "ply": ply, "text": "a long comment " * 65})))["result"]["record"]
    open_record(w, record)
    open_dialog(page)
    note = page.locator("dialog.embed-builder .long-link")
    note.wait_for()
    assert "characters long" in note.inner_text() and "Discord" in note.inner_text()
    page.locator("dialog.embed-builder[open] button.close").click()
