"""One game, one identity, in one browser: tabs that agree, and a backup.

- Two tabs of one browser (one storage) holding the same game: a move in
  either shows in the other, the home page in one tab lists what the other
  saves, a tab that missed a move catches up before it plays, and two tabs
  that move from the same position at once never overwrite each other: the
  second is told in words and chooses.
- Export all games saves one versioned JSON file; Import reads it into a
  fresh browser (every game listed and resumable), names and skips damaged
  entries, and refuses whole a file that is not JSON, of a future version or
  too large, changing nothing.
- A full storage (setItem replaced by one that throws QuotaExceededError)
  says the game was not saved and offers Export; the game stays on screen.
- The browser's answer to navigator.storage.persist() is said at the first
  game saved.

Expected records come from the Python engine in py/.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
import quetgames
from playwright.sync_api import Browser, BrowserContext, Page

from .axe import assert_clean
from .harness import (ARTIFACTS, GAME_PREFIX, Watched, board_moves, click_move, forget_games, go, routes,
                      saved_entries, shoot, watched_page)

BACKUP = "quetgames-backup"


def tab_of(context: BrowserContext, origin: str, page: Page | None = None) -> Watched:
    """A tab in `context` (a new one unless `page`), its errors written down as watched_page does."""
    page = page or context.new_page()
    w = Watched(page, context, origin=origin)
    page.on("pageerror", lambda exc: w.errors.append(f"uncaught: {exc}"))
    page.on("console", lambda msg: msg.type == "error" and w.errors.append(f"console: {msg.text}"))
    page.set_default_timeout(30_000)
    return w


@pytest.fixture(scope="module")
def tabs(browser: Browser, server: str) -> Iterator[tuple[Watched, Watched]]:
    """Two tabs of one browser: one storage. The second is opened by the first
    (window.open), so a test can act in both within one task."""
    a = watched_page(browser, server, timeout_ms=30_000)
    a.goto_ready(server)
    with a.context.expect_page() as opened:
        a.page.evaluate("u => { window.__otherTab = window.open(u, '_blank'); }", server)
    b = tab_of(a.context, a.origin, opened.value)
    b.page.set_viewport_size({"width": 1280, "height": 800})
    b.wait_ready()
    yield a, b
    a.context.close()


@pytest.fixture
def both(tabs: tuple[Watched, Watched]) -> Iterator[tuple[Watched, Watched]]:
    for w in tabs:
        w.errors.clear()
    forget_games(tabs[0])
    yield tabs
    for w in tabs:
        assert w.errors == []


def shows(w: Watched, record: str) -> None:
    """The tab shows `record` (drawn, the address following), ready to play."""
    w.page.locator(f'section.game[data-record="{record}"]').wait_for()
    w.page.wait_for_function("r => decodeURIComponent(location.hash.slice(1)) === r", arg=record)
    w.wait_ready()


def home(w: Watched) -> None:
    """The home page in this tab (a fragment change, unless it is there already)."""
    if w.page.evaluate("location.hash.slice(1)") != "":
        go(w, "", wait=True)
    w.page.locator(".game-card").first.wait_for()


def started(game_id: str, names: list[str], **options) -> quetgames.State:
    return quetgames.new_game(game_id, **options).with_seats(names)


# -- two tabs, one game -------------------------------------------------------------------------


def test_a_move_in_either_tab_shows_in_the_other(both: tuple[Watched, Watched]) -> None:
    a, b = both
    state = started("multiplications", ["Ann", "Bob"])
    rng = random.Random(7)
    go(a, state.record, wait=True)
    move = rng.choice(board_moves(a.page))
    assert click_move(a, move) == (state := state.play(move)).record
    # the same game opened in the second tab (its link): it is the saved game
    go(b, state.record, wait=True)
    shows(b, state.record)
    for ply in range(4):
        mover, other = (a, b) if ply % 2 == 0 else (b, a)
        move = rng.choice(board_moves(mover.page))
        assert click_move(mover, move) == (state := state.play(move)).record
        # the other tab follows at once, and says why its board changed
        shows(other, state.record)
        other.page.locator("#note", has_text="played on in another tab").wait_for()
        assert other.page.locator("#status").inner_text() == state.view()["status"]
    [entry] = saved_entries(a.page)
    assert entry["record"] == state.record and entry["moves"] == len(state.history)
    shoot(b.page, "tabs-followed")

    # the home page in one tab lists what the other saves, as it saves it
    home(a)
    row = a.page.locator(".saved-game", has_text="Ann vs Bob")
    assert f"{len(state.history)} moves" in row.inner_text()
    move = rng.choice(board_moves(b.page))
    assert click_move(b, move) == (state := state.play(move)).record
    a.page.locator(".saved-game", has_text=f"{len(state.history)} moves").wait_for()
    assert a.page.locator(".saved-game").count() == 1
    assert_clean(a.page, "the home page with the backup box")


def test_a_tab_that_missed_a_move_catches_up_before_it_plays(both: tuple[Watched, Watched]) -> None:
    a, b = both
    state = started("enumeration", ["Cat", "Dan"])
    rng = random.Random(11)
    go(b, state.record, wait=True)
    move = rng.choice(board_moves(b.page))
    assert click_move(b, move) == (state := state.play(move)).record
    home(a)
    a.page.locator(".saved-game", has_text="Cat vs Dan").wait_for()
    # Another tab stores a move that this tab never hears of (the browser
    # tells every tab but the writer; this tab writes it itself).
    ahead = state.play(rng.choice(state.legal_moves()))
    b.page.evaluate(
        """([key, record, moves]) => {
          const e = JSON.parse(localStorage.getItem(key));
          localStorage.setItem(key, JSON.stringify({...e, record, link: record, moves, at: Date.now()}));
        }""", [GAME_PREFIX + saved_entries(b.page)[0]["id"], ahead.record, len(ahead.history)])
    assert b.fragment() == state.record  # behind, and does not know it
    a.page.locator(".saved-game", has_text=f"{len(ahead.history)} moves").wait_for()  # the home tab heard it

    # a move in the tab that is behind: not played; the tab catches up first, in words
    old = b.fragment()
    target = rng.choice(board_moves(b.page))
    b.page.locator(f'#board [data-move="{target}"]').first.click()
    b.page.wait_for_function("old => decodeURIComponent(location.hash.slice(1)) !== old", arg=old)
    shows(b, ahead.record)
    b.page.locator("#note", has_text="your move was not played").wait_for()
    assert [e["record"] for e in saved_entries(b.page)] == [ahead.record]
    shoot(b.page, "tabs-caught-up")
    # and from there it plays on as usual
    move = rng.choice(board_moves(b.page))
    assert click_move(b, move) == (state := ahead.play(move)).record
    assert [e["record"] for e in saved_entries(b.page)] == [state.record]


def test_one_link_opened_in_two_tabs_before_any_save_is_one_game(both: tuple[Watched, Watched]) -> None:
    """A link clicked twice (a chat app): two tabs show the same new game, and
    neither has saved it yet. It is one game: one saved entry, under the
    game's id, and a move in either tab shows in the other."""
    a, b = both
    state = started("convoluted-coprimality", ["Gil", "Hal"], size=6)
    rng = random.Random(21)
    go(a, state.record, wait=True)
    go(b, state.record, wait=True)
    for ply in range(3):
        mover, other = (a, b) if ply % 2 == 0 else (b, a)
        move = rng.choice(board_moves(mover.page))
        assert click_move(mover, move) == (state := state.play(move)).record
        shows(other, state.record)
        other.page.locator("#note", has_text="played on in another tab").wait_for()
    entries = saved_entries(a.page)
    assert [(e["id"], e["record"]) for e in entries] == [(f"g{state.game_id}", state.record)]
    # brought to the front, the other tab shows the same game as stored
    b.page.bring_to_front()
    shows(b, state.record)


def test_a_stale_tab_that_never_saved_catches_up_instead_of_saving_a_second_copy(both: tuple[Watched, Watched]) -> None:
    a, b = both
    state = started("multiplications", ["Ida", "Jo"])
    rng = random.Random(23)
    go(a, state.record, wait=True)
    go(b, state.record, wait=True)
    home(a)  # (tab a moves on to the home page: what it saves next is not part of this)
    # the other tab's save of a move, which this tab never hears of (it writes it itself)
    ahead = state.play(rng.choice(state.legal_moves()))
    b.page.evaluate(
        """([key, record, game_id]) => localStorage.setItem(key, JSON.stringify({
          id: key.slice('quetgames.game.'.length), link: record, record, game: 'multiplications',
          name: 'Multiplications Within the Permutation', seats: ['Ida', 'Jo'], moves: 1, history: ['x'],
          over: false, at: Date.now(), started: true, gameId: game_id}))""",
        [f"{GAME_PREFIX}g{state.game_id}", ahead.record, state.game_id])
    assert b.fragment() == state.record
    # a move in the stale tab: not saved as a second copy; the tab catches up, in words
    target = rng.choice(board_moves(b.page))
    b.page.locator(f'#board [data-move="{target}"]').first.click()
    shows(b, ahead.record)
    b.page.locator("#note", has_text="your move was not played").wait_for()
    assert [e["record"] for e in saved_entries(b.page)] == [ahead.record]


def test_two_tabs_moving_from_one_position_are_told_and_choose(both: tuple[Watched, Watched]) -> None:
    a, b = both
    state = started("multiplications", ["Eve", "Fay"])
    go(a, state.record, wait=True)
    first = board_moves(a.page)[0]
    assert click_move(a, first) == (state := state.play(first)).record
    go(b, state.record, wait=True)
    shows(b, state.record)
    moves = board_moves(a.page)
    mine, theirs = moves[0], moves[-1]
    assert mine != theirs
    # both tabs move from this one position within one task: neither can have heard of the other
    a.page.evaluate(
        """([ma, mb]) => {
          const click = (doc, move) => {
            const target = doc.querySelector(`#board [data-move="${move}"]`);
            target.dispatchEvent(new doc.defaultView.MouseEvent("click", {bubbles: true, cancelable: true}));
          };
          click(window.__otherTab.document, mb);
          click(document, ma);
        }""", [mine, theirs])
    a.page.wait_for_function(
        "() => [document, window.__otherTab.document].some(d => d.querySelector('[data-conflict=tab]'))")
    told = [w for w in (a, b) if w.page.locator("[data-conflict=tab]").count()]
    assert len(told) == 1, "exactly the second tab to save is told"
    second = told[0]
    first_tab = b if second is a else a
    kept = state.play(theirs if first_tab is b else mine)
    apart = state.play(mine if first_tab is b else theirs)
    shows(first_tab, kept.record)
    text = second.page.locator("[data-conflict=tab]").inner_text()
    assert "This game moved on in another tab" in text and "not saved over" in text, text
    assert [e["record"] for e in saved_entries(a.page)] == [kept.record]  # nothing overwritten
    shoot(second.page, "tabs-conflict")
    assert_clean(second.page, "the conflict between two tabs")

    # the second tab keeps its game apart: a new game id, both games saved
    second.page.locator("[data-key=open-separate]").click()
    second.page.locator("section.game").wait_for()
    second.wait_ready()
    record = second.fragment()
    assert quetgames.load(record).with_game_id(None).record == apart.with_game_id(None).record
    assert quetgames.load(record).game_id not in (None, kept.game_id)
    second.page.wait_for_function("n => Object.keys(localStorage).filter(k => k.startsWith('quetgames.game.')).length === n", arg=2)
    assert sorted(e["record"] for e in saved_entries(a.page)) == sorted([kept.record, record])
    # the first tab still shows its game, untouched
    assert first_tab.fragment() == kept.record


def test_two_tabs_saving_two_games_at_once_both_keep_theirs(both: tuple[Watched, Watched]) -> None:
    a, b = both
    games = [started("enumeration", ["Uli", "Val"]), started("multiplications", ["Wes", "Xia"])]
    go(a, games[0].record, wait=True)
    go(b, games[1].record, wait=True)
    moves = [board_moves(a.page)[0], board_moves(b.page)[0]]
    # each tab saves its first move within one task: the same millisecond, as near as a browser gets
    a.page.evaluate(
        """([ma, mb]) => {
          const click = (doc, move) => {
            const target = doc.querySelector(`#board [data-move="${move}"]`);
            target.dispatchEvent(new doc.defaultView.MouseEvent("click", {bubbles: true, cancelable: true}));
          };
          click(document, ma);
          click(window.__otherTab.document, mb);
        }""", moves)
    want = sorted(g.play(m).record for g, m in zip(games, moves))
    a.page.wait_for_function(
        "n => Object.keys(localStorage).filter(k => k.startsWith('quetgames.game.')).length === n", arg=2)
    shows(a, games[0].play(moves[0]).record)
    shows(b, games[1].play(moves[1]).record)
    assert sorted(e["record"] for e in saved_entries(a.page)) == want


def test_one_game_saved_twice_by_an_older_version_is_listed_twice_with_a_word(browser: Browser, server: str) -> None:
    """Before saves were keyed by game id, two tabs could keep two copies of
    one game under two random ids. Both stay (nothing is dropped unseen), and
    each says it is one of two copies once the engine has read their ids."""
    w = watched_page(browser, server, timeout_ms=30_000)
    try:
        start = started("enumeration", ["Kim", "Lou"])
        one = start.play(start.legal_moves()[0])
        two = start.play(start.legal_moves()[-1])
        w.goto_ready(server)
        w.page.evaluate(
            """(entries) => { for (const [id, record, move] of entries) localStorage.setItem('quetgames.game.' + id, JSON.stringify({
              id, link: record, record, game: 'enumeration', name: 'Enumeration', seats: ['Kim', 'Lou'],
              moves: 1, history: [move], over: false, at: Date.now(), started: true})); }""",
            [["0123456789abcdef", one.record, one.history[0]], ["fedcba9876543210", two.record, two.history[0]]])
        w.page.reload()
        w.wait_ready()
        copies = w.page.locator(".saved-game .saved-copies", has_text="One of 2 copies of this game")
        copies.nth(1).wait_for()
        assert copies.count() == 2
        assert sorted(e["record"] for e in saved_entries(w.page)) == sorted([one.record, two.record])
        shoot(w.page, "tabs-two-copies")
    finally:
        w.context.close()


def test_the_list_of_older_versions_is_moved_into_one_key_per_game(browser: Browser, server: str) -> None:
    w = watched_page(browser, server, timeout_ms=30_000)
    try:
        state = started("multiplications", ["Yan", "Zoe"])
        w.goto_ready(f"{server}#{state.record}")
        move = board_moves(w.page)[0]
        assert click_move(w, move) == (state := state.play(move)).record
        [entry] = saved_entries(w.page)
        other = started("enumeration", ["Abe", "Bea"])
        other = other.play(other.legal_moves()[0])
        old = [
            {**entry, "at": entry["at"] - 1000},  # an older copy of a game kept in its own key: the newer stays
            {**entry, "id": "from-the-old-list", "link": other.record, "record": other.record, "game": "enumeration",
             "name": "Enumeration", "seats": ["Abe", "Bea"], "players": ["Abe", "Bea"], "moves": 1, "history": ["x"]},
        ]
        w.page.evaluate("list => localStorage.setItem('quetgames.saved.v1', JSON.stringify(list))", old)
        w.page.reload()
        w.wait_ready()
        home(w)
        w.page.locator(".saved-game", has_text="Abe vs Bea").wait_for()
        assert w.page.locator(".saved-game").count() == 2
        assert w.page.evaluate("localStorage.getItem('quetgames.saved.v1')") is None
        assert sorted(e["record"] for e in saved_entries(w.page)) == sorted([state.record, other.record])
        assert [e for e in saved_entries(w.page) if e["id"] == entry["id"]] == [entry]
        # the migrated game resumes
        w.page.locator(".saved-game", has_text="Abe vs Bea").locator("a.resume").click()
        shows(w, other.record)
        assert w.errors == []
    finally:
        w.context.close()


# -- a backup a player can hold -------------------------------------------------------------------


def export_file(w: Watched, button: str = "#backup .export-all") -> dict:
    with w.page.expect_download() as download:
        w.page.locator(button).click()
    path = Path(download.value.path())
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "tabs-backup.json").write_bytes(path.read_bytes())
    return json.loads(path.read_text(encoding="utf-8"))


def import_file(w: Watched, name: str, data: bytes) -> None:
    before = w.page.locator("#backup-said").inner_text()
    w.page.locator("#backup-file").set_input_files(files=[{"name": name, "mimeType": "application/json", "buffer": data}])
    w.page.wait_for_function(
        "b => { const s = document.querySelector('#backup-said').textContent; const e = document.querySelector('#backup-error').textContent;"
        " return (e !== '' || (s !== b && !s.startsWith('Reading'))); }", arg=before)


def test_export_all_then_import_into_a_fresh_browser(browser: Browser, server: str, both: tuple[Watched, Watched]) -> None:
    a, _ = both
    finals: list[quetgames.State] = []
    for state, count, seed in [(started("prime-target", ["Gil", "Hal"]), 2, 21),
                               (started("convoluted-coprimality", ["Ida", "Jo"]), 3, 22)]:
        rng = random.Random(seed)
        go(a, state.record, wait=True)
        for _ in range(count):
            move = rng.choice(board_moves(a.page))
            assert click_move(a, move) == (state := state.play(move)).record
        finals.append(state)
    home(a)
    backup = export_file(a)
    assert backup["format"] == BACKUP and backup["version"] == 1
    assert sorted(g["record"] for g in backup["games"]) == sorted(s.record for s in finals)
    assert all(g["name"] and g["saved"].endswith("Z") for g in backup["games"])
    a.page.locator("#backup-said", has_text=f"holding {len(finals)} games").wait_for()

    fresh = watched_page(browser, server, timeout_ms=30_000)
    try:
        fresh.goto_ready(server)
        assert fresh.page.locator(".saved-game").count() == 0
        data = json.dumps(backup).encode()
        import_file(fresh, "quet-games.json", data)
        assert fresh.page.locator("#backup-said").inner_text() == f"{len(finals)} games were added."
        rows = fresh.page.locator(".saved-game")
        assert rows.count() == len(finals)
        shoot(fresh.page, "tabs-imported")
        assert_clean(fresh.page, "the home page after an import")
        # again: nothing is doubled
        import_file(fresh, "quet-games.json", data)
        assert fresh.page.locator("#backup-said").inner_text() == f"{len(finals)} games were already here."
        assert rows.count() == len(finals)
        # every game resumes where it was
        for state in finals:
            row = fresh.page.locator(".saved-game", has_text=" vs ".join(state.view()["seats"][i]["name"] for i in range(2)))
            before = routes(fresh)
            row.locator("a.resume").click()
            fresh.page.wait_for_function("n => Number(document.documentElement.dataset.routes || 0) > n", arg=before)
            shows(fresh, state.record)
            assert fresh.page.locator("#status").inner_text() == state.view()["status"]
            go(fresh, "", wait=True)
        # a backup that goes further than the game saved here brings it up to date
        further = finals[0].play(random.Random(5).choice(finals[0].legal_moves()))
        import_file(fresh, "later.json", json.dumps({**backup, "games": [{"record": further.record, "name": "later"}]}).encode())
        assert fresh.page.locator("#backup-said").inner_text() == "1 saved game was brought up to date."
        assert further.record in [e["record"] for e in saved_entries(fresh.page)]
        assert fresh.page.locator(".saved-game").count() == len(finals)
        assert fresh.errors == []
    finally:
        fresh.context.close()


def test_an_import_names_damaged_entries_and_refuses_bad_files(browser: Browser, server: str) -> None:
    w = watched_page(browser, server, timeout_ms=30_000)
    try:
        w.goto_ready(server)
        good = [started("multiplications", ["Mo", "Ned"]).play("a1"), started("enumeration", ["Oz", "Pam"])]
        good[1] = good[1].play(good[1].legal_moves()[0])
        entries = [
            {"record": good[0].record, "name": "Multiplications", "saved": "2024-05-01T10:00:00Z"},
            {"record": "q1.mu.p2_k3.zz", "name": "Broken record"},
            42,
            {"name": "No record at all"},
            {"record": good[1].record, "name": "Enumeration"},
            {"record": "q1.zz.p2.ab", "name": "<b>Unknown game</b>"},
        ]
        data = json.dumps({"format": BACKUP, "version": 1, "games": entries}).encode()
        import_file(w, "damaged.json", data)
        assert w.page.locator("#backup-said").inner_text() == "2 games were added."
        assert "4 games in the file could not be read and were skipped" in w.page.locator("#backup-error").inner_text()
        items = w.page.locator("#backup-damaged li").all_inner_texts()
        assert [i.split(":")[0] for i in items] == ["game 2 (“Broken record”)", "game 3", "game 4 (“No record at all”)",
                                                   "game 6 (“<b>Unknown game</b>”)"]
        with pytest.raises(quetgames.InvalidRecord) as refused:
            quetgames.load("q1.mu.p2_k3.zz")
        assert str(refused.value) in items[0]
        assert w.page.locator("#view b").count() == 0  # names are text
        assert sorted(e["record"] for e in saved_entries(w.page)) == sorted(s.record for s in good)
        shoot(w.page, "tabs-import-damaged")
        assert_clean(w.page, "an import with damaged entries")

        # refused whole, in words; nothing saved changes
        before = saved_entries(w.page)
        for name, data, words in [
            ("notes.txt", b"these are not my games {", "it is not JSON text"),
            ("other.json", b'{"format": "something-else", "games": []}', "not a Quet Games backup"),
            ("future.json", json.dumps({"format": BACKUP, "version": 2, "games": entries}).encode(), "made by a newer version of Quet Games"),
        ]:
            import_file(w, name, data)
            error = w.page.locator("#backup-error").inner_text()
            assert error.startswith("That file was not imported:") and words in error, error
            assert "Your saved games are as they were." in error
            assert saved_entries(w.page) == before
        # too large: refused before it is read (a 51 MB file made in the page)
        w.page.evaluate("""() => {
          const input = document.querySelector('#backup-file');
          const files = new DataTransfer();
          files.items.add(new File([new Uint8Array(51 * 1024 * 1024)], 'huge.json', {type: 'application/json'}));
          input.files = files.files;
          input.dispatchEvent(new Event('change', {bubbles: true}));
        }""")
        w.page.locator("#backup-error", has_text="too large").wait_for()
        assert "refused above 50 MB" in w.page.locator("#backup-error").inner_text()
        assert saved_entries(w.page) == before
        shoot(w.page, "tabs-import-refused")
        assert w.errors == []
    finally:
        w.context.close()


# -- what the browser does with the storage --------------------------------------------------------


def board_y(page: Page) -> float:
    return page.evaluate("document.getElementById('board').getBoundingClientRect().top + scrollY")


def test_the_first_game_saved_asks_to_keep_the_storage(browser: Browser, server: str) -> None:
    w = watched_page(browser, server, timeout_ms=30_000)
    try:
        state = started("multiplications", ["Quin", "Rex"])
        w.goto_ready(f"{server}#{state.record}")
        assert w.page.locator("#storage-bar").is_hidden()
        move = board_moves(w.page)[0]
        assert click_move(w, move) == state.play(move).record
        board_top = board_y(w.page)
        bar = w.page.locator("#storage-bar")
        bar.locator(".storage-words").wait_for()
        # the note comes below the game: the board just played on stays where it was
        assert board_y(w.page) == board_top
        assert w.page.evaluate("document.getElementById('view').compareDocumentPosition(document.getElementById('storage-bar'))") \
            & 4, "the note is after the game"
        granted = w.page.evaluate("navigator.storage.persisted()")
        words = bar.inner_text()
        assert "Your game is saved in this browser" in words
        assert ("agreed to keep" in words) if granted else ("did not promise" in words and "Export all games" in words), words
        shoot(w.page, "tabs-persist-note")
        assert_clean(w.page, "the game page with the storage note")
        bar.get_by_role("button", name="Hide this note").click()
        assert bar.is_hidden()
        assert w.errors == []
    finally:
        w.context.close()


def test_a_full_storage_says_the_game_was_not_saved_and_offers_export(browser: Browser, server: str) -> None:
    w = watched_page(browser, server, timeout_ms=30_000)
    w.page.add_init_script("Storage.prototype.setItem = function () { throw new DOMException('the quota is used up', 'QuotaExceededError'); };")
    try:
        state = started("prime-target", ["Sue", "Tom"])
        w.goto_ready(f"{server}#{state.record}")
        rng = random.Random(3)
        for _ in range(2):
            move = rng.choice(board_moves(w.page))
            assert click_move(w, move) == (state := state.play(move)).record
        bar = w.page.locator("#storage-bar[data-kind=unsaved]")
        bar.wait_for()
        assert "This game was not saved: this browser's storage for the site is full" in bar.inner_text()
        # the game on screen is not lost
        shows(w, state.record)
        assert w.page.locator("#status").inner_text() == state.view()["status"]
        assert saved_entries(w.page) == []
        shoot(w.page, "tabs-quota")
        assert_clean(w.page, "the game page with a full storage")
        backup = export_file(w, "#storage-bar .export-all")
        assert [g["record"] for g in backup["games"]] == [state.record]
        bar.locator(".storage-words", has_text="this one included").wait_for()
        assert w.errors == []
    finally:
        w.context.close()
