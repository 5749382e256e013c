"""A link to an earlier position of a game this device holds (an old link, or
Back): it opens the game as it stands at the link's move and says so where
the eye is, with both ways on (issue 49); and pages reached by a link open at
their top."""

from __future__ import annotations

from .harness import click_move, forget_games, go, open_record, random_game, saved_entries


def held_game(w, game_id: str = "convoluted-coprimality", seed: int = 3):
    """A game this device holds at 7 moves (opened at 6, one move played here),
    and the link of its move 2."""
    states = random_game(game_id, seed)
    w.goto_ready(w.origin + "/index.html")
    forget_games(w)
    open_record(w, states[6].record)
    move = states[7].history[-1]
    click_move(w, move)
    return states


def in_viewport(page, selector: str) -> bool:
    return page.evaluate("""sel => { const r = document.querySelector(sel).getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }""", selector)


def test_an_older_link_opens_the_game_as_it_stands_at_its_move_and_says_so(w):
    states = held_game(w)
    go(w, states[2].record, wait=True)
    page = w.page
    banner = page.locator(".replay-banner")
    banner.wait_for()
    # one count of moves, said once (issue 54: "(of 7 moves)" beside "move 2 … move 7" read as two things)
    words = "This link shows move 2 of 7: on this device the game has gone on since it was sent."
    assert words in banner.inner_text()
    # the position shown is the link's, as a past position of the game held here
    assert page.locator("section.game").get_attribute("data-ply") == "2"
    # said where the eye is, at once, and once: the banner over the board, on screen, with no second pop-up over the board
    assert "Replaying" not in banner.inner_text() and "of 7 moves" not in banner.inner_text()
    assert not page.locator("#answer").is_visible()
    assert in_viewport(page, ".replay-banner")
    assert page.evaluate("scrollY") == 0
    # nothing saved changed: one game, still at 7 moves
    entries = saved_entries(page)
    assert len(entries) == 1 and entries[0]["moves"] == 7
    w.screenshot("older-link")
    # the first way on: the game as it stands
    page.locator("[data-key=exit-replay]").click()
    page.wait_for_function("() => document.querySelector('section.game').dataset.ply === '7'")
    assert page.locator(".replay-banner").count() == 0
    assert not w.errors, w.errors


def test_an_older_link_plays_on_as_a_new_game_and_the_held_one_stays(w):
    states = held_game(w)
    go(w, states[2].record, wait=True)
    page = w.page
    page.locator("[data-key=play-on-new]").click()
    page.wait_for_function("() => !document.querySelector('.replay-banner') && document.querySelector('section.game')?.dataset.ply === '2'")
    w.wait_ready()
    # a game of its own: two saved games, the held one still at 7 moves
    page.wait_for_function("() => Object.keys(localStorage).filter((k) => k.startsWith('quetgames.game.')).length === 2")
    moves = sorted(e["moves"] for e in saved_entries(page))
    assert moves == [2, 7], moves
    # and a move there is played, not refused as another tab's
    legal = states[2].legal_moves()
    click_move(w, legal[0])
    assert "another tab" not in page.locator("#message").inner_text()
    assert page.locator("section.game").get_attribute("data-ply") == "3"
    assert not w.errors, w.errors


def test_pages_reached_by_a_link_open_at_their_top(w):
    page = w.page
    page.set_viewport_size({"width": 390, "height": 844})
    w.goto_ready(w.origin + "/index.html")
    # the home page scrolled to its foot, then a game's setup by its link
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("scrollY") > 200
    go(w, "setup=multiplications", wait=True)
    page.locator(".setup-screen").wait_for()
    assert page.evaluate("scrollY") == 0
    # the setup page scrolled to its Start, then All games
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("scrollY") > 100
    go(w, "", wait=True)
    assert page.evaluate("scrollY") == 0
    # and a lesson's page
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    go(w, "learn=enumeration", wait=True)
    assert page.evaluate("scrollY") == 0
    assert not w.errors, w.errors


def test_a_comment_saved_while_stepped_back_is_in_the_address_at_once(w):
    states = held_game(w, "prime-target", 5)
    page = w.page
    page.locator("[data-key=ply-2]").click()
    page.wait_for_function("() => document.querySelector('section.game').dataset.ply === '2'")
    w.wait_ready()
    page.locator("[data-key=annotate]").first.click()
    page.locator("dialog textarea").fill("A note at move two")
    page.locator("dialog button:has-text('Save')").click()
    page.locator("#note:has-text('comment was saved')").wait_for(state="attached")
    # the address holds the comment before anything else happens (no Back to the game)
    import quetgames
    record = w.fragment()
    assert quetgames.load(record).comments == ((2, "A note at move two"),)
    assert page.locator("section.game").get_attribute("data-ply") == "2"
    assert not w.errors, w.errors


def test_the_status_line_stuck_to_the_top_wraps_whole_words(w):
    """Stuck to the top of a phone's screen, the status line shows its words
    whole, on two short lines at most, and never cuts one ("…; Play…")."""
    import quetgames
    page = w.page
    page.set_viewport_size({"width": 360, "height": 740})
    state = quetgames.new_game("nonconformity", starts=(27, 12)).with_seats(["Blogger", ""], ["human", "human"])
    state = state.play("54", 0).play("24", 1).play("108", 0)  # round 2: Player 2 still to choose, after a long status
    w.goto_ready(w.origin + "/index.html")
    forget_games(w)
    open_record(w, state.record)
    page.evaluate("window.scrollTo(0, 400)")
    page.wait_for_function("() => document.querySelector('section.game').classList.contains('stuck')")
    look = page.evaluate("""() => { const s = document.getElementById('status'); const r = s.getBoundingClientRect();
        return {text: s.textContent, height: r.height, cut: s.scrollHeight > s.clientHeight + 1 || s.scrollWidth > s.clientWidth + 1}; }""")
    assert len(look["text"]) > 45, look  # long enough that one line at this width cannot hold it
    assert not look["cut"] and look["height"] <= 48, look
    assert not w.errors, w.errors
