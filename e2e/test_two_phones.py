"""Two phones, one game by link (issue 54): two browser contexts that share
nothing, 390×844 with touch, pass the page's own link back and forth. Each
phone knows the seats it plays (the setup's choice, or the seat of its first
move from someone's link), says whose turn it is and offers the link where
the eye is, asks before playing the other seat's move, and catches a rewrite
of its own move whatever the link's id. Screenshots of every step go to
e2e/artifacts/two-phones/."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import unquote

import pytest
import quetgames
from playwright.sync_api import Browser

from .harness import ARTIFACTS, CONFIRM_OPEN, READY, Watched, click_move, go, press_target, saved_entries, unfold, watched_page

PHONE = {"width": 390, "height": 844}
SMALL = {"width": 360, "height": 740}
SHOTS = ARTIFACTS / "two-phones"


@pytest.fixture
def phones(browser: Browser, server: str) -> Iterator[tuple[Watched, Watched]]:
    """Ana's phone and Ben's: two contexts, nothing shared but the links they pass."""
    made = [watched_page(browser, server, viewport=PHONE, has_touch=True, timeout_ms=30_000) for _ in range(2)]
    yield made[0], made[1]
    for w in made:
        assert w.errors == [], w.errors
        w.context.close()


def over_the_board(w: Watched, selector: str) -> bool:
    """Whether `selector`, shown, covers any of the board."""
    return w.page.evaluate("""(selector) => {
      const el = document.querySelector(selector), board = document.querySelector('#board');
      if (!el || !board || el.hidden || !el.getClientRects().length) return false;
      const a = el.getBoundingClientRect(), b = board.getBoundingClientRect();
      return a.bottom > b.top + 0.5 && a.top < b.bottom - 0.5 && a.right > b.left && a.left < b.right;
    }""", selector)


def snap(w: Watched, name: str) -> None:
    """What the phone's screen shows now (the screen, not the whole page)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    w.page.screenshot(path=str(SHOTS / f"{name}.png"))


def set_up_by_link(w: Watched, game_id: str, names: list[str], seat: int, options: dict[str, str] | None = None,
                   shot: str | None = None) -> str:
    """The setup screen as a person fills it: options, names, and "Only <name>: the others by link"; the new game's record."""
    w.goto_ready(f"{w.origin}/index.html#setup={game_id}")
    form = w.page.locator(f'form.setup[data-game="{game_id}"]')
    for name, value in (options or {}).items():
        form.locator(f'[name="{name}"]').fill(value)
    rows = form.locator(".seat-row")
    for i, name in enumerate(names):
        rows.nth(i).locator("input").fill(name)
    form.locator("#setup-here").select_option(str(seat))
    assert form.locator("#setup-here option:checked").inner_text() == f"Only {names[seat]}: the others by link"
    if shot:
        form.locator("#setup-here").scroll_into_view_if_needed()
        snap(w, shot)
    form.locator("button[type=submit]").click()
    w.page.wait_for_function("() => document.querySelector('section.game')?.dataset.record === decodeURIComponent(location.hash.slice(1))")
    w.wait_ready()
    return w.fragment()


def open_link(w: Watched, url: str) -> None:
    """Open a link someone sent, as a phone does: the first one loads the site, later ones change the address."""
    if not w.page.url.startswith(w.origin):
        w.goto_ready(url)
    else:
        go(w, unquote(url.split("#", 1)[1]), wait=True, one_screen=False)
    w.page.locator("section.game, .link-conflict").first.wait_for()


def sent_link(w: Watched) -> str:
    """The link the hand-off line offers to send."""
    return w.page.locator("#handoff-link").input_value()


def a_move(w: Watched) -> str:
    """A move the board offers with one tap."""
    return w.page.locator("#board [data-move]").first.get_attribute("data-move")


def a_pick(w: Watched) -> str:
    """A number a list offers (the lists unfolded first, as a person opens them)."""
    # (the list's title brought to the middle of the screen first, well past where the status line starts to stick)
    w.page.evaluate("() => document.querySelector('#board details:not([open]) > summary')?.scrollIntoView({block: 'center'})")
    unfold(w.page)
    return w.page.locator("#board [data-pick]:visible").first.get_attribute("data-pick")


def handoff_text(w: Watched) -> str:
    return w.page.locator("#handoff .handoff-words").inner_text()


def on_screen(w: Watched, selector: str) -> bool:
    return w.page.evaluate("""sel => { const el = document.querySelector(sel); if (!el) return false;
        const r = el.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }""", selector)


def refuse_other_seat(w: Watched, name: str, shot: str) -> None:
    """A tap on the other seat's move asks first; No plays nothing."""
    before = w.fragment()
    press_target(w.page, a_move(w))
    dialog = w.page.locator(CONFIRM_OPEN)
    dialog.wait_for()
    assert dialog.locator("#confirm-text").inner_text().startswith(f"Play {name}'s move on this phone too?")
    snap(w, shot)
    dialog.locator("button[value=no]").click()
    w.page.locator(CONFIRM_OPEN).wait_for(state="detached")
    w.page.locator(READY).wait_for(state="attached")
    assert w.fragment() == before


def test_prime_target_on_two_phones(phones: tuple[Watched, Watched]) -> None:
    ana, ben = phones
    names = {id(ana): ("Ana", "Ben"), id(ben): ("Ben", "Ana")}
    record = set_up_by_link(ana, "prime-target", ["Ana", "Ben"], 0, shot="pt-00-ana-setup")
    assert quetgames.load(record).view()["seats"][0]["name"] == "Ana"
    snap(ana, "pt-01-ana-set-up")
    # who each phone is: Ana's plays Ana; Ben's learns it plays Ben from his first move
    player, other = ana, ben
    step = 1
    sent: list[str] = []
    while True:
        me, them = names[id(player)]
        # this phone's turn: no hand-off, its board plays
        assert player.page.locator("#handoff").count() == 0
        click_move(player, a_move(player), name=f"pt-{step}")
        state = quetgames.load(player.fragment())
        snap(player, f"pt-{step:02d}-{me.lower()}-moved")
        if state.is_over:
            break
        # the hand-off, where the eye is: whose turn, and the link to send, on the screen without scrolling
        player.page.locator("#handoff").wait_for()
        assert handoff_text(player) == f"{them}'s turn: send {them} this link."
        assert on_screen(player, "#handoff") and player.page.evaluate("scrollY") == 0
        assert player.page.locator("#handoff .copy-link").is_visible()
        assert player.page.locator(".computer-bar").count() == 0
        if step in (1, 2):
            # the other seat's move is asked first, and No plays nothing
            refuse_other_seat(player, them, f"pt-{step:02d}-{me.lower()}-asked")
        if step == 1:
            player.page.set_viewport_size(SMALL)
            assert on_screen(player, "#handoff")
            player.page.set_viewport_size(PHONE)
        url = sent_link(player)
        assert unquote(url.split("#", 1)[1]).split("!poster.")[0] == state.record  # (with the position's poster after it, once made)
        sent.append(url)
        open_link(other, url)
        other.page.wait_for_function("r => document.querySelector('section.game')?.dataset.record === r", arg=state.record)
        other.wait_ready()
        # the phone whose turn it is shows no hand-off, and its board plays
        assert other.page.locator("#handoff").count() == 0
        snap(other, f"pt-{step:02d}-{them.lower()}-opened")
        player, other = other, player
        step += 1
    # the end: the phone that finished says to send the last link; the other shows the result when it opens it
    player.page.locator("#handoff").wait_for()
    assert handoff_text(player) == f"The game is over: send {them} the last link, so that {them} sees the result."
    assert on_screen(player, "#handoff")
    result = state.view()["status"]
    assert result in player.page.locator("#status").inner_text()
    open_link(other, sent_link(player))
    other.page.locator("#summary").wait_for()
    assert result in other.page.locator("#status").inner_text()
    snap(other, f"pt-{step:02d}-{them.lower()}-sees-the-result")
    # an older link, on Ana's phone: one count, no second pop-up over the board
    open_link(ana, sent[1])
    banner = ana.page.locator(".replay-banner")
    banner.wait_for()
    assert banner.locator("p").first.inner_text().startswith(f"This link shows move 2 of {len(state.history)}: ")
    assert not ana.page.locator("#answer").is_visible()
    snap(ana, "pt-older-link")


def test_yes_makes_it_one_screen(phones: tuple[Watched, Watched]) -> None:
    ana, _ = phones
    set_up_by_link(ana, "prime-target", ["Ana", "Ben"], 0)
    click_move(ana, a_move(ana))
    ana.page.locator("#handoff").wait_for()
    before = ana.fragment()
    press_target(ana.page, a_move(ana))
    ana.page.locator(f"{CONFIRM_OPEN} button[value=yes]").click()
    ana.page.wait_for_function("old => decodeURIComponent(location.hash.slice(1)) !== old", arg=before)
    ana.wait_ready()
    # Ben's move is played here, and from now on every seat is: no hand-off, no question
    assert len(quetgames.load(ana.fragment()).history) == 2
    assert ana.page.locator("#handoff").count() == 0
    click_move(ana, a_move(ana))
    assert ana.page.locator(CONFIRM_OPEN).count() == 0 and ana.page.locator("#handoff").count() == 0
    assert len(quetgames.load(ana.fragment()).history) == 3


def _rewritten(record: str, ply: int, new_id: str | None) -> str:
    """`record` with its move `ply` (0-based) played otherwise, and the moves after it played on as far as they go."""
    state = quetgames.load(record)
    moves = list(state.history)
    at = state.position(ply)
    other = next(m for m in at.legal_moves() if m != moves[ply])
    at = at.play(other)
    for move in moves[ply + 1:]:
        if move in at.legal_moves():
            at = at.play(move)
        else:
            at = at.play(at.legal_moves()[0])
    return at.with_game_id(new_id).record if new_id else at.record


def _play_to(ana: Watched, ben: Watched, plies: int) -> str:
    """Ana sets up Prime Target by link; the two phones pass the link until `plies` moves; Ana's phone holds the game."""
    set_up_by_link(ana, "prime-target", ["Ana", "Ben"], 0)
    player, other = ana, ben
    for _ in range(plies):
        click_move(player, a_move(player))
        player.page.locator("#handoff").wait_for()
        open_link(other, sent_link(player))
        other.wait_ready()
        player, other = other, player
    return player.fragment()


@pytest.mark.parametrize("new_id", [None, "Copy12345678"], ids=["same-id", "new-id"])
def test_a_rewrite_of_my_move_is_named_whatever_its_id(phones: tuple[Watched, Watched], new_id: str | None) -> None:
    ana, ben = phones
    held = _play_to(ana, ben, 4)
    # Ben's phone changes Ana's move 3 in the link (under the same id, or another) and sends it on
    changed = _rewritten(held, 2, new_id)
    open_link(ana, f"{ana.origin}/index.html#{changed}")
    panel = ana.page.locator('.link-conflict[data-conflict="changed"]')
    panel.wait_for()
    assert "This link changes move 3: Ana wrote" in panel.inner_text()
    snap(ana, f"rewrite-{'new' if new_id else 'same'}-id")
    # nothing saved beside Ana's game
    assert ana.page.evaluate("() => Object.keys(localStorage).filter((k) => k.startsWith('quetgames.game.')).length") == 1


def test_a_game_opened_apart_and_sent_on_is_named_on_the_phone_it_came_from(phones: tuple[Watched, Watched]) -> None:
    ana, ben = phones
    held = _play_to(ana, ben, 3)  # Ana's phone, then Ben's turn ... Ben's phone holds the game at 3 moves
    # the link Ben's phone is sent has Ana's move 1 changed (by someone on the way), under the same id
    changed = _rewritten(held, 0, None)
    open_link(ben, f"{ben.origin}/index.html#{changed}")
    ben.page.locator('.link-conflict[data-conflict="changed"]').wait_for()
    ben.page.locator("[data-key=open-separate]").click()
    ben.page.locator("section.game").wait_for()
    ben.wait_ready()
    apart = quetgames.load(ben.fragment())
    assert apart.game_id != quetgames.load(held).game_id
    assert apart.branch == (quetgames.load(held).game_id, 0)
    # Ben plays on there and sends it to Ana, whose phone names the change
    if apart.to_move == (1,):
        click_move(ben, a_move(ben))
    open_link(ana, f"{ana.origin}/index.html#{ben.fragment()}")
    panel = ana.page.locator('.link-conflict[data-conflict="changed"]')
    panel.wait_for()
    text = panel.inner_text()
    assert "This link changes move 1: Ana wrote" in text and "separate game made from yours" in text
    snap(ana, "separate-game-named")


def seats_kept(w: Watched, record: str) -> object:
    """The seats this phone keeps for the game (web/share/seats.js)."""
    game_id = quetgames.load(record).game_id
    return w.page.evaluate("id => JSON.parse(localStorage.getItem('quetgames.seats.v1') || '{}')[id]?.seats ?? null", game_id)


def seal_link(w: Watched) -> str:
    w.page.wait_for_function("() => document.querySelector('#seal-link')?.value === location.href")
    return w.page.locator("#seal-link").input_value()


def test_nonconformity_on_two_phones(phones: tuple[Watched, Watched]) -> None:
    ana, ben = phones
    record = set_up_by_link(ana, "nonconformity", ["Ana", "Ben"], 0, {"length": "4", "max_pick": "100"})
    state = quetgames.load(record)
    # Ana's phone plays Ana: her pick screen, sealed, at once (no "who are you" screen, no curtain)
    assert seats_kept(ana, record) == [0]
    ana.page.locator(".seal-banner", has_text="Ana, playing by link.").wait_for()
    snap(ana, "nc-01-ana-set-up")
    result = ""
    round_ = 0
    while not state.is_over:
        round_ += 1
        if round_ > 1:
            # Ana's phone revealed the last round on opening Ben's link: its result is over her pick screen
            ana.page.locator(".seal-banner .reveal", has_text=result).wait_for()
        pick_a = a_pick(ana)
        if round_ == 1:
            # a pick takes a deliberate act: a tap on a number selects it, and "Seal <n>" seals it
            ana.page.locator(f'#board [data-pick="{pick_a}"]:visible').first.click()
            assert ana.page.locator("#board .nc-play").inner_text() == f"Seal {pick_a}"
            assert ana.page.locator(f'#board [data-pick="{pick_a}"][aria-pressed=true]').count() == 1
            assert ana.fragment() == record, "a tap on a number plays nothing"
            snap(ana, "nc-01-ana-selected")
        click_move(ana, pick_a)
        screen = ana.page.locator('.seal-screen[data-phase="sealed"]')
        screen.wait_for()
        if round_ == 1:
            # a sealed pick can be taken back until its link is sent
            snap(ana, "nc-01-ana-may-take-back")
            screen.locator("[data-key=take-back-seal]").click()
            ana.page.locator(".seal-banner", has_text="Ana, playing by link.").wait_for()
            ana.wait_ready()
            assert ana.fragment() == record
            click_move(ana, pick_a)
            screen.wait_for()
            screen.locator(".copy-link").click()
            screen.locator("[data-key=take-back-seal]").wait_for(state="detached")
            # sent is sent: a reload does not offer to take it back again
            ana.page.reload()
            ana.wait_ready()
            screen.wait_for()
            assert screen.locator("[data-key=take-back-seal]").count() == 0
        assert "Send this link to Ben" in screen.inner_text()
        assert on_screen(ana, "#seal-link")
        snap(ana, f"nc-{round_:02d}-ana-sealed")
        # Ben's phone: Ana's seal, Ben's pick in the open, and the last round's result where the eye is
        open_link(ben, seal_link(ana))
        banner = ben.page.locator(".seal-banner", has_text="Ana has sealed a pick")
        banner.wait_for()
        if round_ > 1:
            assert result in banner.locator(".reveal").inner_text()
        snap(ben, f"nc-{round_:02d}-ben-picks")
        pick_b = a_pick(ben)
        ben.page.locator(f'#board [data-pick="{pick_b}"]:visible').first.click()
        assert ben.page.locator("#board .nc-play").inner_text() == f"Choose {pick_b}"
        click_move(ben, pick_b)
        assert seats_kept(ben, record) == [1], "Ben's phone plays Ben from his first pick"
        ben.page.locator('.seal-screen[data-phase="waiting"]').wait_for()
        snap(ben, f"nc-{round_:02d}-ben-picked")
        open_link(ana, seal_link(ben))
        state = quetgames.load(ana.fragment())
        entry = state.view()["board"]["round_log"][-1]
        assert entry["picks"] == [int(pick_a), int(pick_b)]
        result = f"Round {round_}: Ana picked {pick_a} and Ben picked {pick_b}"
        snap(ana, f"nc-{round_:02d}-ana-revealed")
    # the end: Ana's phone revealed the last round; it says to send the last link, and Ben's phone shows the result
    assert state.is_over
    ana.page.locator("#handoff").wait_for()
    assert handoff_text(ana) == "The game is over: send Ben the last link, so that Ben sees the result."
    assert on_screen(ana, "#handoff")
    assert result in ana.page.locator("#note").inner_text()
    # the last round's picks are said in the hand-off line, where the answer
    # would rise to: no answer hangs over the board (the table's head, issue 56)
    assert result in ana.page.locator("#handoff .handoff-reveal").inner_text()
    assert not over_the_board(ana, "#answer")
    snap(ana, "nc-05-ana-ended")
    open_link(ben, sent_link(ana))
    ben.page.locator("#summary").wait_for()
    assert ben.page.locator("#status").inner_text() == ana.page.locator("#status").inner_text()
    assert result in ben.page.locator("#note").inner_text()
    assert ben.page.locator("#handoff").count() == 0
    snap(ben, "nc-05-ben-sees-the-result")
    record_final = state.record
    # an older link on Ana's phone (her round-4 seal): one count, and "Play on from here as a new game" reveals
    # her own sealed pick again rather than asking her to send a link to herself or to give it up as lost
    older = quetgames.load(record_final)
    open_link(ana, f"{ana.origin}/index.html#{older.position(older.plies - 2).public_record}")
    banner = ana.page.locator(".replay-banner")
    banner.wait_for()
    assert banner.locator("p").first.inner_text().startswith("This link shows move ")
    snap(ana, "nc-06-ana-older-link")
    ana.page.locator("[data-key=play-on-new]").click()
    ana.page.locator(".replay-banner").wait_for(state="detached")
    ana.wait_ready()
    text = ana.page.locator("section.game").inner_text()
    assert "Send this link to Ana" not in text and "lost" not in text.lower()
    snap(ana, "nc-07-ana-played-on")


def test_the_genuine_link_replaces_a_copy_nothing_checked(phones: tuple[Watched, Watched]) -> None:
    ana, ben = phones
    set_up_by_link(ana, "nonconformity", ["Ana", "Ben"], 0, {"length": "4", "max_pick": "100"})
    click_move(ana, a_pick(ana))
    ana.page.locator('.seal-screen[data-phase="sealed"]').wait_for()
    genuine = seal_link(ana)
    genuine_record = unquote(genuine.split("#", 1)[1])
    commitment = quetgames.load(genuine_record).view()["sealing"]["open"][0]["commitment"]
    # one character of Ana's seal changed on the way: Ben's phone cannot check it yet, and Ben picks against it
    bad = genuine.replace(commitment, commitment[:10] + ("0" if commitment[10] != "0" else "1") + commitment[11:])
    open_link(ben, bad)
    ben.page.locator(".seal-banner", has_text="Ana has sealed a pick").wait_for()
    click_move(ben, a_pick(ben))
    ben.page.locator('.seal-screen[data-phase="waiting"]').wait_for()
    # the genuine link comes: no "Keep my game" for the copy nothing checked; it is opened in its place
    open_link(ben, genuine)
    panel = ben.page.locator('.link-conflict[data-conflict="unchecked"]')
    panel.wait_for()
    text = panel.inner_text()
    assert "Round 1: Ana's seal in this link is not the one in the link this device opened before." in text
    assert "it is not kept as your game" in text
    assert panel.locator("[data-key=keep-mine]").count() == 0
    snap(ben, "unchecked-copy")
    panel.locator("[data-key=replace-unchecked]").click()
    ben.page.locator(".seal-banner", has_text="Ana has sealed a pick").wait_for()
    ben.wait_ready()
    assert ben.fragment() == genuine_record
    entries = saved_entries(ben.page)
    assert [e["record"] for e in entries] == [genuine_record], "one game, the genuine one"
    snap(ben, "unchecked-replaced")
