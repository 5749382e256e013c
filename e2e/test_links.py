"""Links as a person uses them: copy the link, open it somewhere else, play
on by correspondence (two browsers, each with its own storage, taking turns
by sending the link), and Nonconformity's secret picks sealed by commit and
reveal so that no link ever shows a pick the other player has not made yet.

Each browser context keeps one page loaded (one engine start each); opening a
link there is a same-document navigation, as pasting it into the address bar
of an open tab is. Expected records come from the Python engine in py/.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator

import pytest
import quetgames
from playwright.sync_api import Browser

from .harness import DESKTOP, Watched, board_moves, click_move, routes, saved_entries, shoot, watched_page

SEAL_MARK = "~~"


def player_page(browser: Browser, server: str) -> Watched:
    """The site in a browser of its own, allowed to use the clipboard."""
    w = watched_page(browser, server)
    w.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.rstrip("/"))
    w.goto_ready(server)
    return w


@pytest.fixture(scope="module")
def pair(browser: Browser, server: str) -> Iterator[tuple[Watched, Watched]]:
    """Two players, each with a browser of their own (own storage)."""
    a, b = player_page(browser, server), player_page(browser, server)
    yield a, b
    a.context.close()
    b.context.close()


@pytest.fixture
def players(pair: tuple[Watched, Watched]) -> Iterator[tuple[Watched, Watched]]:
    for w in pair:
        w.errors.clear()
        w.page.set_viewport_size(DESKTOP)
    yield pair
    for w in pair:
        assert w.errors == []


# -- helpers ---------------------------------------------------------------------------


def open_link(w: Watched, url: str) -> None:
    """Open a link in this player's tab (a fragment change: no reload) and wait until it is shown."""
    before = routes(w)
    w.page.evaluate("u => { location.href = u; }", url)
    w.page.wait_for_function("n => Number(document.documentElement.dataset.routes || 0) > n", arg=before)
    w.wait_ready()


def url_of(w: Watched) -> str:
    return w.page.evaluate("location.href")


def copied_link(w: Watched) -> str:
    """The link as the page offers it for sharing: the address bar's, with the
    position's poster after it once made (share/still.js)."""
    w.fragment()  # (the address is written after a move's paint, and the share panel after that)
    w.page.wait_for_function(
        """() => {
          const field = document.querySelector('#share-link, #seal-link');
          return field?.value.split('!poster.')[0] === location.href && field.dataset.poster !== 'pending';
        }""", timeout=10_000)
    return w.page.locator("#share-link, #seal-link").first.input_value()


def page_state(w: Watched) -> dict:
    page = w.page
    return {
        "status": page.locator("#status").inner_text(),
        "moves": page.locator(".move-list .ply").all_inner_texts(),
        "seats": page.locator(".seats .seat-name").all_inner_texts(),
        "scores": page.locator(".seats .score").all_inner_texts(),
        "record": page.locator("section.game").get_attribute("data-record"),
        "targets": sorted(board_moves(page)),
    }


def named(game_id: str, **options) -> quetgames.State:
    return quetgames.new_game(game_id, **options).with_seats(["Ann", "Bob"])


# -- the link is the game ----------------------------------------------------------------


def test_a_link_opens_the_same_game_in_a_fresh_browser(players: tuple[Watched, Watched], browser: Browser, server: str) -> None:
    a, _ = players
    state = named("multiplications", players=2, k=3)
    open_link(a, f"{server}#{state.record}")
    rng = random.Random(5)
    for _ in range(5):
        move = rng.choice(board_moves(a.page))
        assert click_move(a, move) == (state := state.play(move)).record
    page = a.page
    assert "Send this link to the next player" in page.locator("#share").inner_text()
    # Copy link: the clipboard gets the address bar's link, and the page says so
    page.locator("[data-key=copy-link]").click()
    page.locator(".share-said", has_text="copied").wait_for()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith(f"{url_of(a)}!poster."), copied  # the address, with the position's poster
    shoot(page, "links-share")
    link = copied_link(a)
    before = page_state(a)

    fresh = player_page(browser, server)
    try:
        fresh.goto_ready(link)
        fresh.page.locator(f'section.game[data-record="{state.record}"]').wait_for()
        assert page_state(fresh) == before
        # each move with its mover, in the engine's words
        assert before["moves"] == [f"{i + 1}. {['Ann', 'Bob'][m['seat']]}: {m['words']}" for i, m in enumerate(state.view()["moves"])]
        assert fresh.errors == []
    finally:
        fresh.context.close()


def test_copy_falls_back_to_select_and_copy_without_the_clipboard_api(players: tuple[Watched, Watched], server: str) -> None:
    a, _ = players
    state = named("enumeration")
    open_link(a, f"{server}#{state.record}")
    # a browser without navigator.clipboard (an insecure origin, an old browser)
    a.page.evaluate("Object.defineProperty(navigator, 'clipboard', {value: undefined, configurable: true})")
    a.page.evaluate("document.execCommand = () => false")  # and copying refused too
    a.page.locator("[data-key=copy-link]").click()
    said = a.page.locator(".share-said[data-kind=select]")
    said.wait_for()
    assert "Select the link" in said.inner_text()
    assert a.page.evaluate("document.activeElement.id") == "share-link"
    selected = a.page.evaluate("getSelection().toString() || document.activeElement.value.slice(document.activeElement.selectionStart, document.activeElement.selectionEnd)")
    assert selected.split("!poster.")[0] == url_of(a), selected  # (with the position's poster, once made)


# -- correspondence: two browsers take turns by link --------------------------------------------

TURN_BASED = [gid for gid in quetgames.GAMES if gid != "nonconformity"]


@pytest.mark.parametrize("game_id", TURN_BASED)
def test_correspondence_play_by_link(players: tuple[Watched, Watched], server: str, game_id: str) -> None:
    a, b = players
    state = named(game_id)
    open_link(a, f"{server}#{state.record}")
    rng = random.Random(sum(map(ord, game_id)))
    turn = [a, b]
    for ply in range(8):
        if state.is_over:
            break
        w = turn[ply % 2]
        move = rng.choice(board_moves(w.page))
        assert move in state.legal_moves()
        assert click_move(w, move) == (state := state.play(move)).record
        link = copied_link(w)
        other = turn[(ply + 1) % 2]
        open_link(other, link)
        assert other.fragment() == state.record
        assert other.page.locator("#status").inner_text() == state.view()["status"]
    assert len(state.history) >= 4
    # each player's browser kept the game after its own moves
    for w in (a, b):
        saved = saved_entries(w.page)
        assert any(e["game"] == game_id for e in saved)


def kept_secret(w: Watched) -> dict:
    """The newest sealed pick's secret on this device (the bridge's `keep`)."""
    return w.page.evaluate("JSON.parse(localStorage.getItem('quetgames.seals.v2'))")[0]


def test_nonconformity_by_link_seals_each_first_pick(players: tuple[Watched, Watched], server: str) -> None:
    a, b = players
    state = named("nonconformity", length=4, max_pick=100, starts=(6, 10))
    open_link(a, f"{server}#{state.record}")
    rng = random.Random(12)
    # the hot-seat screen offers play by link; Ann chooses it on her device
    a.page.locator(".link-offer").wait_for()
    shoot(a.page, "links-offer")
    a.page.locator("[data-key=seal-as-0]").click()
    round_ = 0
    while not state.is_over:
        round_ += 1
        # Ann picks: her link carries the seal in the record, not the pick
        a.page.locator(".seal-banner").wait_for()
        if round_ == 1:
            shoot(a.page, "links-seal-pick")
        pick_a = rng.choice(board_moves(a.page))
        assert pick_a in state.legal_moves(0)
        fragment = click_move(a, pick_a)
        kept = kept_secret(a)
        assert kept["pick"] == pick_a and len(kept["salt"]) == 20 and kept["seat"] == 0 and kept["round"] == round_
        assert all(ch.isascii() and ch.isalnum() for ch in kept["salt"])
        sealed = state.seal(pick_a, kept["salt"], 0)
        assert fragment == sealed.record, "the link is the public record: the seal, never the pick"
        assert SEAL_MARK not in fragment and kept["salt"] not in fragment
        assert hashlib.sha256(f"{kept['salt']}:{pick_a}".encode()).hexdigest() == kept["commitment"]
        assert f"c{kept['commitment']}" in fragment
        screen = a.page.locator('.seal-screen[data-phase="sealed"]')
        screen.wait_for()
        assert "Send this link to Bob" in screen.inner_text()
        if round_ == 1:
            shoot(a.page, "links-sealed")
        link = copied_link(a)

        # Bob opens it: he picks in the open; nothing on his side shows Ann's pick
        open_link(b, link)
        b.page.locator(".seal-banner", has_text="Ann has sealed a pick").wait_for()
        assert b.page.locator(f'.seal-state[data-round="{round_}"]').count() == 1
        assert kept["salt"] not in b.page.content()
        if round_ == 1:
            shoot(b.page, "links-second-pick")
        pick_b = rng.choice(board_moves(b.page))
        assert pick_b in sealed.legal_moves(1)
        fragment = click_move(b, pick_b)
        assert fragment == sealed.play(pick_b, 1).record
        b.page.locator('.seal-screen[data-phase="waiting"]', has_text="Waiting for Ann to reveal").wait_for()
        if round_ == 1:
            shoot(b.page, "links-waiting")
        link = copied_link(b)

        # Ann opens Bob's link: her device reveals the round (the engine checks it)
        open_link(a, link)
        state = sealed.play(pick_b, 1).reveal(pick_a, kept["salt"], 0)
        assert a.fragment() == state.record
        entry = state.view()["board"]["round_log"][-1]
        assert entry["picks"] == [int(pick_a), int(pick_b)]
        a.page.locator(".reveal, #note", has_text="matches its seal").first.wait_for()
        assert f"Ann picked {pick_a} and Bob picked {pick_b}" in a.page.locator(".reveal, #note").first.inner_text()
        if round_ == 1:
            shoot(a.page, "links-revealed")
    a.page.locator("#summary").wait_for()
    assert a.page.locator("#status").inner_text() == state.view()["status"]
    # Bob gets the final link and sees the same finished game
    open_link(b, copied_link(a))
    assert b.page.locator("#status").inner_text() == state.view()["status"]


def test_a_tampered_seal_is_refused_and_only_the_sealer_can_reveal(players: tuple[Watched, Watched], browser: Browser, server: str) -> None:
    a, b = players
    state = named("nonconformity", length=3, max_pick=100, starts=(4, 9))
    open_link(a, f"{server}#{state.record}")
    a.page.locator("[data-key=seal-as-0]").click()
    a.page.locator(".seal-banner").wait_for()
    pick_a = board_moves(a.page)[0]
    sealed = click_move(a, pick_a)
    kept = kept_secret(a)
    open_link(b, copied_link(a))
    pick_b = board_moves(b.page)[-1]
    answered = click_move(b, pick_b)
    link = copied_link(b)

    # someone changes one digit of the seal: Ann's device says so and plays nothing
    hexdigest = kept["commitment"]
    flipped = hexdigest[:10] + ("0" if hexdigest[10] != "0" else "1") + hexdigest[11:]
    tampered = link.replace(hexdigest, flipped)
    open_link(a, tampered)
    problem = a.page.locator("[data-conflict=changed]")
    problem.wait_for()
    assert "This link changes round 1: the seal Ann sent is not the one in this link" in problem.inner_text()
    assert a.page.locator("#status").count() == 0
    shoot(a.page, "links-mismatch")

    # a third browser (no secret there) cannot reveal it either, and says who can
    c = player_page(browser, server)
    try:
        open_link(c, link)
        waiting = c.page.locator('.seal-screen[data-phase="waiting"]')
        waiting.wait_for()
        assert "Only Ann can reveal the sealed pick" in waiting.inner_text()
        assert c.fragment() == answered
        assert c.errors == []
    finally:
        c.context.close()

    # the true link still reveals
    open_link(a, link)
    assert a.fragment() == state.seal(pick_a, kept["salt"], 0).play(pick_b, 1).reveal(pick_a, kept["salt"], 0).record
    assert sealed == state.seal(pick_a, kept["salt"], 0).record


def pick_at_one_screen(w: Watched, server: str, state: quetgames.State) -> str:
    """Open `state` (Nonconformity, a round to choose) by link and make Ann's
    pick at this one screen; returns the pick, once the hand-over shows."""
    open_link(w, f"{server}#{state.record}")
    w.page.get_by_role("button", name="I am Ann: show my choices").click()
    w.page.locator("#board [data-move]").first.wait_for()
    pick = board_moves(w.page)[0]
    w.page.locator(f'#board [data-move="{pick}"]').first.click()
    w.page.locator('.curtain[data-phase="handover"]').wait_for()
    w.wait_ready()
    return pick


def test_a_link_never_shows_a_hot_seat_pick_to_share(players: tuple[Watched, Watched], server: str) -> None:
    """At one screen the pending pick stays out of the address, and the page
    offers no link to share until the round is revealed."""
    a, _ = players
    state = named("nonconformity", length=3, max_pick=100, starts=(6, 10))
    pick = pick_at_one_screen(a, server, state)
    assert a.fragment() == state.record  # the round's public record: the pick is not in it
    assert a.page.locator("#share, #share-link, .export-record").count() == 0
    assert json.dumps(state.play(pick, 0).record) not in a.page.content()


# -- a link checked against the game this device holds ------------------------------------------


def conflict_text(w: Watched, kind: str) -> str:
    panel = w.page.locator(f'[data-conflict="{kind}"]')
    panel.wait_for()
    # the game is not shown as if nothing happened
    assert w.page.locator("#status").count() == 0 and w.page.locator("section.game").count() == 0
    return panel.inner_text()


def shown_silently(w: Watched, record: str) -> None:
    w.page.locator(f'section.game[data-record="{record}"]').wait_for()
    assert w.page.locator("[data-conflict]").count() == 0
    assert w.fragment() == record
    assert w.page.locator("#status").inner_text() == quetgames.load(record).view()["status"]


def saved_records(w: Watched) -> list[str]:
    return [e["record"] for e in saved_entries(w.page)]


@pytest.mark.parametrize("game_id", TURN_BASED)
def test_a_link_that_rewrites_a_move_is_named_and_the_player_chooses(players: tuple[Watched, Watched], server: str, game_id: str) -> None:
    a, _ = players
    start = named(game_id)
    open_link(a, f"{server}#{start.record}")
    # Ann plays on this device (by clicks) past a first choice, to a second one
    state, chosen, first_choice = start, False, None
    while True:
        moves = [m for m in board_moves(a.page) if m in state.legal_moves()]
        if chosen and len(moves) > 1:
            break
        if len(moves) > 1 and first_choice is None:
            first_choice = (state, moves)
        chosen = chosen or len(moves) > 1
        assert click_move(a, moves[-1]) == (state := state.play(moves[-1])).record
    here, k = state, len(state.history)
    mover = here.seat_name(here.to_move[0])
    assert click_move(a, moves[0]) == (state := state.play(moves[0])).record
    # a link that merely continues my game (the other player's move, sent back) opens at once, as my game
    mine = state.play(state.legal_moves()[0])
    open_link(a, f"{server}#{mine.record}")
    shown_silently(a, mine.record)
    assert mine.record in saved_records(a) and state.record not in saved_records(a)

    # a link that plays another move at move k+1, and goes on from there
    rewritten = here.play(moves[-1])
    rewritten = rewritten.play(rewritten.legal_moves()[0])
    open_link(a, f"{server}#{rewritten.record}")
    text = conflict_text(a, "changed")
    mine_words, their_words = here.describe_move(moves[0]), here.describe_move(moves[-1])
    assert mine_words.startswith(mover) and mine_words != their_words
    assert f"This link changes move {k + 1}: {mine_words} here; the link says {their_words}" in text, text
    shoot(a.page, f"links-changed-{game_id}")
    # keep my game: back to it, as it was
    a.page.locator("[data-key=keep-mine]").click()
    shown_silently(a, mine.record)
    # the same link again, opened as a separate game: saved beside mine, mine untouched
    open_link(a, f"{server}#{rewritten.record}")
    conflict_text(a, "changed")
    a.page.locator("[data-key=open-separate]").click()
    # the link's game under a new id of its own (docs/RECORD.md): never taken for mine again
    a.page.locator("section.game").wait_for()
    a.wait_ready()
    separate = quetgames.load(a.page.locator("section.game").get_attribute("data-record"))
    assert separate.moves_record == rewritten.moves_record and separate.game_id not in (None, rewritten.game_id)
    assert a.fragment() == separate.record
    records = saved_records(a)
    assert mine.record in records and separate.record in records
    before, choices = first_choice
    # a link of my game (the same id) that changes its first choice: named too, as a rewrite
    rewrote_first = before.play(choices[0])
    rewrote_first = rewrote_first.play(rewrote_first.legal_moves()[0])
    assert rewrote_first.game_id == mine.game_id and choices[0] != mine.history[len(before.history)]
    open_link(a, f"{server}#{rewrote_first.record}")
    assert f"This link changes move {len(before.history) + 1}:" in conflict_text(a, "changed")
    a.page.locator("[data-key=keep-mine]").click()
    shown_silently(a, mine.record)
    # another game (its own id) from the same start, parting at the first choice: no false alarm
    other = before.with_game_id(quetgames.new_game_id()).play(choices[0])
    other = other.play(other.legal_moves()[0])
    assert choices[0] != choices[-1]
    open_link(a, f"{server}#{other.record}")
    shown_silently(a, other.record)
    # and a fresh game with the same options and seats: no false alarm either
    open_link(a, f"{server}#{start.record}")
    a.page.locator("section.game").wait_for()
    assert a.page.locator("[data-conflict]").count() == 0


def links_on_screen(w: Watched) -> list[str]:
    """Every link and copyable text the page shows: the address, every href,
    every text field (share link, export, embed snippet)."""
    page = w.page
    found = [page.evaluate("location.href")]
    found += page.locator("a[href]").evaluate_all("els => els.map(e => e.href)")
    found += page.locator("input, textarea").evaluate_all("els => els.map(e => e.value)")
    return found


def test_every_link_on_screen_is_the_public_record(players: tuple[Watched, Watched], server: str) -> None:
    """Nonconformity at one screen: while Ann's pick is secret no link shows it
    (address, Resume); once the round is revealed, Share, Export, Embed and the
    address all carry the public record, which is then the whole game."""
    a, _ = players
    state = named("nonconformity", length=4, max_pick=100, starts=(6, 10))
    pick = pick_at_one_screen(a, server, state)
    secret = state.play(pick, 0).record
    assert all(secret not in link for link in links_on_screen(a))
    open_link(a, f"{server}#")
    a.page.locator("#saved-games a.resume").first.wait_for()
    assert all(secret not in link for link in links_on_screen(a))
    assert a.page.locator("#saved-games a.resume").first.get_attribute("href") == f"#{state.record}"
    # Bob picks at the same screen: the round is revealed, and every link is the record
    a.page.locator("#saved-games a.resume").first.click()
    a.page.get_by_role("button", name="I am Bob: show my choices").click()
    a.page.locator("#board [data-move]").first.wait_for()
    pick_b = board_moves(a.page)[-1]
    old = a.fragment()
    a.page.locator(f'#board [data-move="{pick_b}"]').first.click()
    a.page.wait_for_function("old => decodeURIComponent(location.hash.slice(1)) !== old", arg=old)
    a.wait_ready()
    done = state.play(pick, 0).play(pick_b, 1)
    assert a.fragment() == done.record
    a.page.locator("#share-link").wait_for()
    a.page.locator("details.export summary").click()
    a.page.locator("[data-key=embed]").click()
    a.page.locator("dialog[open] textarea, dialog[open] input").first.wait_for()
    shown = links_on_screen(a)
    assert any(done.record in link for link in shown if "embed.html" in link), shown
    assert a.page.locator("#share-link").input_value().split("!poster.")[0].endswith(f"#{done.record}")
    assert a.page.locator(".export-record").input_value() == done.record
    a.page.keyboard.press("Escape")
