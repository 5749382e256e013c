"""A game tells its story: comments and side lines (docs/RECORD.md) in the
page, after a reload, in a second browser, and in the embed.

- Every game: step back to move 2, Annotate, type a comment with markup in
  it; it shows as the characters typed, travels in the address and the saved
  game, and is still there after a reload.
- A game with a side line (made by the engine, as a shared link would bring
  it) opened in a second browser: the moves list shows the comment and the
  side line, and a side-line move steps to that position.
- The embed in replay mode shows the comment of the move shown under the
  board, and the moves list with the side line.
- A link whose comment holds a direction override, a NUL or 10,000
  characters, or whose side line branches past the end or is illegal, is
  refused in the engine's words; the game saved before it is untouched.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import quetgames
from playwright.sync_api import Browser, Page

from .axe import assert_clean, stray_words
from .harness import (LOAD_TIMEOUT_MS, READY, Watched, click_move, forget_games, go, open_record, random_game, shoot,
                      watched_page)

TYPED = "Here <b>Ann</b> & <script>alert(1)</script> lets the win go"


@pytest.fixture(scope="module")
def w(browser: Browser, server: str) -> Iterator[Watched]:
    watched = watched_page(browser, server)
    watched.goto_ready(server)
    yield watched
    watched.context.close()


def annotated(game_id: str) -> quetgames.State:
    """Three moves (rounds) into a seeded random game, with a comment at
    move 1 and a side line instead of move 2 with a comment of its own."""
    states = random_game(game_id, seed=4)
    state = states[min(3, len(states) - 1)]
    before = state.position(1)
    seat = before.to_move[0]
    other = next(m for m in before.legal_moves(seat) if m != state.history[1])
    return (state.with_comment(1, "A calm start.")
            .with_line(1, [(other, seat)], {1: "Sharper, and better."}))


@pytest.mark.parametrize("game_id", list(quetgames.GAMES))
def test_annotate_a_move_then_reload(w: Watched, server: str, game_id: str) -> None:
    page = w.page
    forget_games(w)
    state = random_game(game_id, seed=2)[3]
    open_record(w, state.record)
    page.locator('[data-key="ply-2"]').click()
    page.locator(".replay-banner").wait_for()
    page.locator('[data-key="annotate"]').click()
    dialog = page.locator("dialog.comment-dialog")
    dialog.get_by_label("Your comment").fill(TYPED)
    if game_id == "prime-target":
        assert_clean(page, "the comment dialog")
    dialog.locator('[data-key="save-comment"]').click()
    shown = page.locator("#move-comment")
    shown.filter(has_text=TYPED).wait_for()
    # the characters typed, never markup: no <b>, no script element
    assert page.locator("#move-comment b, #move-comment script, .move-list script").count() == 0
    assert page.locator(".move-list .move-comment").inner_text() == TYPED
    # in the address (the public record) and the saved game
    page.wait_for_function("() => decodeURIComponent(location.hash.slice(1)).includes('.c2~')")
    kept = quetgames.load(w.fragment())
    assert kept.comment(2) == TYPED and kept.history == state.history
    if game_id == "prime-target":
        shoot(page, "story-annotated")
        assert_clean(page, "a game with a comment")
    # a reload keeps it
    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
    page.locator(".move-list .move-comment", has_text=TYPED).wait_for()
    assert quetgames.load(w.fragment()).comment(2) == TYPED
    assert stray_words(page) == [] and w.errors == []


@pytest.mark.parametrize("game_id", ["prime-target", "nonconformity"])
def test_a_side_line_by_link_in_a_second_browser(browser: Browser, server: str, game_id: str) -> None:
    state = annotated(game_id)
    reader = watched_page(browser, server)
    try:
        reader.goto_ready(f"{server}#{state.record}")
        page = reader.page
        page.locator(".move-list .move-comment", has_text="A calm start.").wait_for()
        line = page.locator(".move-list .side-line")
        assert line.count() == 1
        words = state.view()["notes"]["lines"][0]["moves"][0]["words"]
        assert words in line.inner_text() and "Sharper, and better." in line.inner_text()
        page.locator('[data-key="line-0-1"]').click()
        page.locator(".replay-banner", has_text="Replaying a side line: instead of move 2, move 1 of 1").wait_for()
        page.locator("#move-comment", has_text="Sharper, and better.").wait_for()
        assert page.locator('[data-key="line-0-1"]').get_attribute("aria-current") == "step"
        # the board shows the side line's position, and the game itself is unchanged
        assert reader.fragment() == state.record
        shoot(page, f"story-side-line-{game_id}")
        assert_clean(page, "a side line shown")
        assert reader.errors == []
    finally:
        reader.context.close()


def test_the_embed_replays_with_comments(browser: Browser, server: str) -> None:
    state = annotated("multiplications")
    reader = watched_page(browser, server)
    try:
        page = reader.page
        page.goto(f"{server}embed.html?mode=replay&ply=1#{state.record}")
        page.locator("#embed-start").click()
        page.locator(READY).wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
        page.locator("#move-comment", has_text="A calm start.").wait_for()
        # the moves, comments and side lines are a panel under the board, opened by the reader
        assert page.locator(".embed-moves").get_attribute("open") is None
        page.locator(".embed-moves summary").click()
        page.locator(".move-list .side-line").wait_for()
        page.locator('.embed-steps [data-key="forward"]').click()
        page.locator("#embed-ply", has_text="Move 2 of").wait_for()
        assert page.locator("#move-comment").count() == 0  # move 2 has no comment
        page.locator('[data-key="line-0-1"]').click()
        page.locator("#move-comment", has_text="Sharper, and better.").wait_for()
        page.locator("#embed-ply", has_text="Side line instead of move 2").wait_for()
        shoot(page, "story-embed")
        assert_clean(page, "the embed replaying a game with comments")
        assert stray_words(page) == [] and reader.errors == []
    finally:
        reader.context.close()


# -- bad stories in a link: refused in words, nothing saved changes ----------------------


def bad_story_links() -> dict[str, str]:
    """An annotated Prime Target record with one part broken: a comment with
    a direction override, a NUL or 10,000 characters; a side line branching
    past the end, or holding a move that is not legal there."""
    from quetgames.record import encode_text

    parts = annotated("prime-target").record.split(".")
    comments = next(p for p in parts if p.startswith("c"))
    line = next(p for p in parts if p.startswith("v"))
    _, moves, rest = line.split("~", 2)

    def swap(old: str, new: str) -> str:
        return ".".join(new if p == old else p for p in parts)

    return {
        "bidi": swap(comments, "c1~" + encode_text("turn \u202e around")),
        "nul": swap(comments, "c1~" + encode_text("a\x00b")),
        "long": swap(comments, "c1~" + encode_text("x" * 10_000)),
        "past the end": swap(line, f"v40~{moves}~{rest}"),
        "illegal": swap(line, "v1~" + encode_text("1:zzzz")),
    }


STORAGE = "() => JSON.stringify(Object.entries(localStorage).sort())"


@pytest.mark.parametrize("how", list(bad_story_links()))
def test_a_bad_comment_or_side_line_in_a_link_is_refused_in_words(w: Watched, how: str) -> None:
    page = w.page
    record = bad_story_links()[how]
    with pytest.raises(quetgames.InvalidRecord) as refused:
        quetgames.load(record)
    # a game of ours, saved on this device, before the bad link comes
    forget_games(w)
    good = annotated("prime-target")
    open_record(w, good.record)
    click_move(w, page.locator("#board [data-move]").first.get_attribute("data-move"))
    kept = page.evaluate(STORAGE)
    w.errors.clear()
    go(w, record)
    # the engine's own words, in the page, and no game drawn from the bad record
    page.locator("#message", has_text=str(refused.value)[:60]).wait_for()
    assert page.locator(f'section.game[data-record="{record}"]').count() == 0
    assert page.evaluate(STORAGE) == kept
    assert stray_words(page) == [] and w.errors == []
