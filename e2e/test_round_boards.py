"""The Prime Target and Nonconformity boards, played like a person would.

One page (one engine start) for the whole module: games are opened by
changing the URL fragment. Every expectation (records, previews, reasons for
refusal) comes from the Python engine imported from py/, so the tests check
the page against the rules rather than against numbers copied in here.
"""

from __future__ import annotations

import random

import pytest
import quetgames
from playwright.sync_api import Page

from .harness import DESKTOP, PHONE, Watched, open_record, shoot



# -- helpers -------------------------------------------------------------------------


def wait_record(w: Watched, record: str) -> None:
    """The page now shows `record` (the section names it unless it holds a secret pick)."""
    w.page.wait_for_function(
        """r => decodeURIComponent(location.hash.slice(1)) === r
          && document.querySelector('section.game') !== null
          && [r, undefined].includes(document.querySelector('section.game').dataset.record)""",
        arg=record)
    w.wait_ready()


def status(w: Watched) -> str:
    return w.page.locator("#status").inner_text()


# -- Prime Target ----------------------------------------------------------------------


def pt_click_wedge(page: Page, ring: int, wedge: int) -> None:
    """Click a wedge where a person would: on its number (the middle of the
    annular sector; its bounding box's centre may lie in another ring)."""
    page.locator(f'.pt-wedge[data-ring="{ring}"][data-wedge="{wedge}"]').scroll_into_view_if_needed()
    # the wedge's number sits at the origin of its label group
    x, y = page.locator(f'.pt-texts g[data-ring="{ring}"][data-wedge="{wedge}"]').evaluate(
        """g => { const p = new DOMPoint(0, 0).matrixTransform(g.getScreenCTM()); return [p.x, p.y]; }""")
    page.mouse.click(x, y)


def pt_preview_text(values: list[int]) -> str:
    return ", ".join(str(v) for v in values)


def pt_play_centre(w: Watched, state, rng: random.Random):
    """Write one number in the centre: pick it in the palette, click a free wedge."""
    page = w.page
    board = state.view()["board"]
    value = rng.choice(board["free_values"])
    wedge = rng.choice(board["free_wedges"])
    if value != board["free_values"][0] or rng.random() < 0.5:
        page.locator(f'.pt-value-choice[data-value="{value}"]').click()
    assert page.locator(f'.pt-value-choice[data-value="{value}"]').get_attribute("aria-pressed") == "true"
    # every free wedge now plays this value, and no taken wedge carries a move
    moves = sorted(page.locator("[data-move]").evaluate_all("els => els.map(e => e.dataset.move)"))
    assert moves == sorted(f"{value}@{x}" for x in board["free_wedges"])
    assert page.locator(f'.pt-wedge[data-ring="0"][data-wedge="{wedge}"]').get_attribute("data-move") == f"{value}@{wedge}"
    pt_click_wedge(page, 0, wedge)
    after = state.play(f"{value}@{wedge}")
    wait_record(w, after.record)
    return after


def pt_build_ring(w: Watched, state, rng: random.Random):
    """Toggle some wedges of the next ring, checking the live preview each time."""
    page = w.page
    board = state.view()["board"]
    rays = board["rays"]
    signs = ["+"] * rays
    preview = page.locator(".pt-preview-values")
    expect = state.preview("+" * rays)
    preview.filter(has_text=pt_preview_text(expect["values"])).wait_for()
    assert page.locator(".pt-preview-score").inner_text() == str(expect["score"])
    togglable = [i for i, c in enumerate(board["choices"]) if not c["same"]]
    for i in rng.sample(togglable, k=min(len(togglable), rng.randint(1, 3))):
        before = preview.inner_text()
        pt_click_wedge(page, board["next_ring"], i + 1)
        signs[i] = "-" if signs[i] == "+" else "+"
        expect = state.preview("".join(signs))
        preview.filter(has_text=pt_preview_text(expect["values"])).wait_for()
        assert preview.inner_text() != before  # the toggle changed the preview
        page.locator(".pt-preview-score", has_text=str(expect["score"])).wait_for()
        primes = page.locator(".pt-preview-values .pt-prime-text").all_inner_texts()
        assert primes == [str(v) for v, p in zip(expect["values"], expect["primes"]) if p]
    notation = "".join(signs)
    button = page.locator(".pt-play-ring")
    assert button.get_attribute("data-move") == notation
    button.click()
    after = state.play(notation)
    wait_record(w, after.record)
    return after


def pt_finish(w: Watched, state, rng: random.Random, *, toggle_every: int = 1):
    ring_no = 0
    while not state.is_over:
        board = state.view()["board"]
        if board["phase"] == "centre":
            state = pt_play_centre(w, state, rng)
        elif ring_no % toggle_every == 0:
            state = pt_build_ring(w, state, rng)
            ring_no += 1
        else:
            # a quicker ring: the default all-sums button, played as it stands
            move = w.page.locator(".pt-play-ring").get_attribute("data-move")
            w.page.locator(".pt-play-ring").click()
            state = state.play(move)
            wait_record(w, state.record)
            ring_no += 1
        assert status(w) == state.view()["status"]
    return state


@pytest.mark.parametrize("options", [{}, {"players": 3, "k": 2, "rays": 6}], ids=["default", "p3-k2-r6"])
def test_prime_target_plays_to_the_end(w: Watched, page: Page, options: dict) -> None:
    rng = random.Random(7)
    state = quetgames.new_game("prime-target", **options)
    open_record(w, state.record)
    state = pt_finish(w, state, rng)
    view = state.view()
    assert view["is_over"]
    assert page.locator("[data-move]").count() == 0
    # the per-ring score list says who scored what on every ring
    rows = page.locator(".pt-scores tbody tr")
    assert rows.count() == len(view["board"]["ring_scores"])
    for row, rs in zip(rows.all(), view["board"]["ring_scores"]):
        cells = row.locator("td").all_inner_texts()
        assert cells[0].strip() == view["seats"][rs["seat"]]["name"]
        assert cells[2].split()[0] == str(rs["score"])
    # primes are circled on the board (a shape, not only a colour)
    primes = sum(sum(rs["primes"]) for rs in view["board"]["ring_scores"])
    assert page.locator(".pt-texts .pt-prime-mark:not(.off)").count() == primes


def test_prime_target_illegal_click_shows_reason_and_changes_nothing(w: Watched, page: Page) -> None:
    state = quetgames.new_game("prime-target").play("3@2")
    open_record(w, state.record)
    page.locator('.pt-value-choice[data-value="5"]').click()
    taken = page.locator('.pt-wedge[data-try="5@2"]')
    assert taken.get_attribute("data-move") is None
    with pytest.raises(quetgames.IllegalMove) as refused:
        state.play("5@2")
    pt_click_wedge(page, 0, 2)
    page.locator("#message").filter(has_text=str(refused.value)).wait_for()
    w.wait_ready()
    assert w.fragment() == state.record
    assert status(w) == state.view()["status"]


def test_prime_target_keyboard_only(w: Watched, page: Page) -> None:
    """An opening number and one ring, with Tab, digits, arrows, Enter and Space."""
    state = quetgames.new_game("prime-target", rays=4)
    for move in ("1@1", "2@2", "3@3"):
        state = state.play(move)
    open_record(w, state.record)
    # Tab until a centre wedge has focus (the palette buttons come after the board)
    page.locator("body").focus()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement?.classList.contains('pt-wedge')"):
            break
    else:
        pytest.fail("Tab never reached the board")
    # only 4@4 is left: the focused wedge is the one free wedge
    assert page.evaluate("() => document.activeElement.dataset.move") == "4@4"
    page.keyboard.press("Enter")
    state = state.play("4@4")
    wait_record(w, state.record)

    # the ring: focus comes back to the board; go round it and switch two wedges
    page.wait_for_function("() => document.activeElement?.classList.contains('next')")
    signs = ["+"] * 4
    focused = lambda: int(page.evaluate("() => document.activeElement.dataset.wedge"))  # noqa: E731
    here = focused()  # the wedge the last move was played from
    page.keyboard.press("ArrowRight")  # clockwise
    assert focused() == here % 4 + 1
    page.keyboard.press("Enter")
    signs[focused() - 1] = "-"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert focused() == (here - 2) % 4 + 1
    page.keyboard.press(" ")
    signs[focused() - 1] = "-"
    assert signs.count("-") == 2
    move = "".join(signs)
    expect = state.preview(move)
    page.locator(".pt-preview-values").filter(has_text=pt_preview_text(expect["values"])).wait_for()
    # the play button sits above the target, with the preview: Shift+Tab back to it
    for _ in range(10):
        page.keyboard.press("Shift+Tab")
        if page.evaluate("() => document.activeElement?.classList.contains('pt-play-ring')"):
            break
    assert page.evaluate("() => document.activeElement.dataset.move") == move
    page.keyboard.press("Enter")
    state = state.play(move)
    wait_record(w, state.record)
    assert status(w) == state.view()["status"]


def test_prime_target_screenshots(w: Watched, page: Page) -> None:
    rng = random.Random(3)
    state = quetgames.new_game("prime-target")
    open_record(w, state.record)
    # the palette offers each free value once
    values = page.locator(".pt-value-choice").evaluate_all("els => els.map(e => Number(e.dataset.value))")
    assert sorted(values) == sorted(state.view()["board"]["free_values"])
    shoot(page, "prime-target-centre")
    page.set_viewport_size(DESKTOP)
    state = pt_play_centre(w, state, rng)
    # a big target late in the game, built from the engine
    big = quetgames.new_game("prime-target", k=5, players=2, rays=12)
    while not big.is_over and len(big.view()["board"]["ring_scores"]) < 8:
        big = big.play(rng.choice(big.legal_moves()[:64]))
    open_record(w, big.record)
    view = big.view()
    pt_click_wedge(page, view["board"]["next_ring"], 3)
    page.locator(".pt-preview-score").wait_for()
    # the clicked wedge switched to its difference (where that differs), and the
    # preview is the engine's for the ring the Play button would play
    move = page.locator(".pt-play-ring").get_attribute("data-move")
    assert move in big.legal_moves()
    assert move[2] == ("+" if view["board"]["choices"][2]["same"] else "-")
    page.locator(".pt-preview-score", has_text=str(big.preview(move)["score"])).wait_for()
    assert page.locator(".pt-scores tbody tr").count() == len(view["board"]["ring_scores"])
    shoot(page, "prime-target-late")


# -- Nonconformity ----------------------------------------------------------------------


def nc_take_device(w: Watched, seat: int) -> bool:
    """Go through the shell's hand-over screen for `seat`, when it shows one."""
    page = w.page
    curtain = page.locator(".curtain")
    if curtain.count() == 0:
        return False
    assert curtain.get_attribute("data-seat") == str(seat)
    page.locator(".show-board").click()
    page.locator(".nc-pick").wait_for()
    w.wait_ready()
    return True


def nc_check_table(page: Page, view: dict) -> None:
    """Both sequences side by side, one row per revealed round, scoring terms starred."""
    board = view["board"]
    rows = page.locator(".nc-seqs-table tbody tr:not(.nc-pending-row):not(.nc-room)")
    assert rows.count() == 1 + len(board["round_log"])
    for row, entry in zip(rows.all()[1:], board["round_log"]):
        assert row.locator(".nc-term").all_inner_texts() == [str(p) for p in entry["picks"] if p is not None]
    assert page.locator(".nc-seqs-table .nc-term.scored").count() == sum(map(sum, board["scored"]))


def nc_pick(w: Watched, state, seat: int, rng: random.Random, *, secret_before: bool):
    page = w.page
    nc_take_device(w, seat)
    board = state.view()["board"]
    assert page.locator(".nc-round").inner_text() == f"Round {board['round']} of {board['rounds']}"
    nc_check_table(page, state.view(seat))
    legal = state.legal_moves(seat)
    # a long list starts closed and gets its buttons when opened, as a person opens it
    if page.locator("details.nc-all:not([open])").count():
        assert page.locator(".nc-picks.all [data-move]").count() == 0
        page.locator("details.nc-all > summary").click()
        page.locator(".nc-picks.all [data-move]").first.wait_for()
    shown = page.locator(".nc-picks.all [data-move]").evaluate_all("els => els.map(e => e.dataset.move)")
    assert shown == legal
    # starred picks are exactly the ones the engine says would score
    starred = set(page.locator(".nc-picks.all button.scores").evaluate_all("els => els.map(e => e.dataset.move)"))
    sample = rng.sample(legal, k=min(6, len(legal)))
    for m in sample:
        assert (m in starred) == state.preview(m, seat)["scores"], m
    # no pick of the other seat is ever on this seat's screen
    assert page.locator(".nc-term.pending").count() == 0
    if secret_before:
        assert page.locator('.nc-who li[data-state="picked"]').count() == 1
    scoring = sorted(starred, key=int)
    move = rng.choice(scoring) if scoring and rng.random() < 0.7 else rng.choice(legal)
    if move in starred:
        # a long list of scoring picks comes in closed ranges of a hundred, each
        # given its buttons when opened: the range counts add up, and the one
        # opened holds exactly the scoring picks of its hundred
        ranges = page.locator("details.nc-range")
        if ranges.count():
            counts = ranges.locator("> summary").all_inner_texts()
            assert sum(int(c.rsplit("(", 1)[1].rstrip(")")) for c in counts) == len(starred)
            low = int(move) // 100 * 100
            holder = page.locator(f'details.nc-range[data-low="{low}"]')
            assert holder.locator("[data-move]").count() == 0
            holder.locator("> summary").click()
            holder.locator("[data-move]").first.wait_for()  # (made on the toggle event, a task after the click)
            inside = holder.locator("[data-move]").evaluate_all("els => els.map(e => e.dataset.move)")
            assert inside == [m for m in legal if m in starred and int(m) // 100 * 100 == low]
        page.locator(f'.nc-picks:not(.all) [data-move="{move}"]').click()
    else:
        if page.locator("details.nc-all:not([open])").count():
            page.locator("details.nc-all > summary").click()
        page.locator(f'.nc-picks.all [data-move="{move}"]').click()
    after = state.play(move, seat)
    if after.view()["record"] != after.record:
        # a pick still secret: the address keeps the public record, the hand-over shows
        page.locator('.curtain[data-phase="handover"]').wait_for()
        w.wait_ready()
        assert w.fragment() == after.view()["record"]
    else:
        wait_record(w, after.record)
    return after


def test_nonconformity_plays_to_the_end(w: Watched, page: Page) -> None:
    rng = random.Random(11)
    state = quetgames.new_game("nonconformity", length=5)
    open_record(w, state.record)
    while not state.is_over:
        first, *rest = state.view()["to_move"]
        state = nc_pick(w, state, first, rng, secret_before=False)
        for seat in rest:
            state = nc_pick(w, state, seat, rng, secret_before=True)
        assert status(w) == state.view()["status"]
    nc_check_table(page, state.view())
    assert page.locator("[data-move]").count() == 0
    assert page.locator(".nc-round").inner_text().startswith("Game over")


def test_nonconformity_typed_pick_preview_and_illegal_pick(w: Watched, page: Page) -> None:
    state = quetgames.new_game("nonconformity", length=5, starts=(29, 14))
    state = state.play("116", 0).play("6", 1)  # bands now: Player 1 scores between 6 and 14
    open_record(w, state.record)
    nc_take_device(w, 0)
    box = page.locator("#nc-pick")
    # a pick that scores, as the engine previews it
    assert state.preview("12", 0)["scores"] is True
    box.fill("12")
    page.locator(".nc-verdict.scores").filter(has_text="12 would score").wait_for()
    # a legal pick that does not score
    assert state.preview("58", 0)["scores"] is False
    box.fill("58")
    page.locator(".nc-verdict").filter(has_text="58 is allowed but would not score").wait_for()
    # an illegal pick: the preview says why, and playing it changes nothing
    with pytest.raises(quetgames.IllegalMove) as refused:
        state.play("13", 0)
    box.fill("13")
    page.locator(".nc-verdict.illegal").filter(has_text=str(refused.value)).wait_for()
    page.locator(".nc-play").click()
    page.locator("#message").filter(has_text=str(refused.value)).wait_for()
    w.wait_ready()
    assert w.fragment() == state.record
    assert status(w) == state.view()["status"]
    shoot(page, "nonconformity-pick")


def test_nonconformity_screenshots_late(w: Watched, page: Page) -> None:
    rng = random.Random(5)
    state = quetgames.new_game("nonconformity", length=9)
    while state.view()["board"]["played"] < 6:
        for seat in state.view()["to_move"]:
            state = state.play(rng.choice(state.legal_moves(seat)[:40]), seat)
    for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        # the board is drawn for the window it is in: open it afresh at each size
        page.set_viewport_size(size)
        open_record(w, "")
        open_record(w, state.record)
        w.screenshot(f"nonconformity-late-curtain-{name}")
        nc_take_device(w, 0)
        w.screenshot(f"nonconformity-late-{name}")
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]


def test_home_page_thumbnails(w: Watched, page: Page) -> None:
    open_record(w, "")
    for game in ("prime-target", "nonconformity"):
        page.locator(f"#game-{game} svg").first.wait_for()
        # the board's own thumbnail replaced the placeholder, and is decoration only
        assert page.locator(f"#game-{game} .thumb-placeholder").count() == 0
        assert page.locator(f"#game-{game} .thumb").get_attribute("aria-hidden") == "true"
    w.screenshot("home-round-thumbnails")
