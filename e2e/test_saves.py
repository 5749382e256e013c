"""Never lose a game, and never break on a bad link.

- Hundreds of malformed or hostile fragments (every truncation of a record of
  each game, random characters, mutated records, a 200 kB fragment, a record
  from a newer version, damaged seals, hostile seat names in valid records):
  each shows the error view (or the game, names as literal text), the saved
  game stays as it was and can be resumed, and nothing is thrown.
- A game survives a reload, a closed browser and a worker that crashes.
- The home page's saved games: resume, delete; export and import of records;
  storage that refuses to store.

One page serves most tests; the hostile fragments only change the fragment.
Expected records and messages come from the Python engine in py/.
"""

from __future__ import annotations

import json
import random
import re

import pytest
import quetgames
from playwright.sync_api import Browser, Page

from .harness import GAME_PREFIX, OLD_SAVED, SAVED_GAMES, forget_games, Watched, board_moves, click_move, go, routes, saved_entries, shoot, watched_page

SAVED = OLD_SAVED  # the list of older versions: read once, into one key per game
MAX_LINK = 100_000


def new_watched(browser: Browser, server: str, **context_args) -> Watched:
    return watched_page(browser, server, **context_args)


# -- helpers ---------------------------------------------------------------------------------


# Opens a fragment as a link does (the address changes), waits until the page
# has routed it and the engine is ready, and reads back what it shows.
OPEN_AND_LOOK = """async (fragment) => {
  const html = document.documentElement;
  const before = Number(html.dataset.routes || 0);
  location.hash = fragment;
  await new Promise((resolve, reject) => {
    const done = () => Number(html.dataset.routes || 0) > before && html.dataset.engine === "ready";
    if (done()) return resolve();
    const timer = setTimeout(() => { seen.disconnect(); reject(new Error("the page did not route the link")); }, 20000);
    const seen = new MutationObserver(() => { if (done()) { seen.disconnect(); clearTimeout(timer); resolve(); } });
    seen.observe(html, { attributes: true, attributeFilter: ["data-routes", "data-engine"] });
  });
  const all = (selector) => document.querySelectorAll(selector);
  return {
    record: document.querySelector("section.game")?.dataset.record ?? null,
    names: [...all(".seats .seat-name")].map((e) => e.innerText),
    errors: all(".link-error").length,
    message: document.getElementById("message")?.innerText ?? "",
    cards: all(".game-card").length,
    home_links: all(".link-error a[href='#']").length,
    markup: all("#view script, #view img, #view b").length,
    saved: SAVED_GAMES,
  };
}""".replace("SAVED_GAMES", SAVED_GAMES)


def saved(page: Page) -> list[dict]:
    return saved_entries(page)


def play_some(w: Watched, state: quetgames.State, moves: int, seed: int) -> quetgames.State:
    go(w, state.record, wait=True)
    rng = random.Random(seed)
    for _ in range(moves):
        move = rng.choice(board_moves(w.page))
        assert click_move(w, move) == (state := state.play(move)).record
    return state


def played(game_id: str, names: list[str], moves: int, seed: int, **options) -> quetgames.State:
    state = quetgames.new_game(game_id, **options).with_seats(names)
    rng = random.Random(seed)
    for _ in range(moves):
        seats = state.to_move
        seat = seats[0]
        state = state.play(rng.choice(state.legal_moves(seat)), seat if len(seats) > 1 else None)
    return state


# -- hostile links --------------------------------------------------------------------------------

HOSTILE_NAMES = ["<script>alert(1)", "<img src=x onerror=", "\"'><b>x</b>&amp;"]


def expected(fragment: str) -> str | None:
    """The engine's complaint about a fragment, or None when it opens a game."""
    if len(fragment) > MAX_LINK:
        return "far too long to hold a game"
    if "~~" in fragment:
        # a seal after the record: links of the older version, refused in words
        return "made by an older version of Quet Games"
    try:
        quetgames.load(fragment)
    except quetgames.InvalidRecord as exc:
        return str(exc)
    return None


def hostile_fragments() -> list[str]:
    rng = random.Random(2024)
    cases: list[str] = []
    samples = [
        played("convoluted-coprimality", ["Ann", "Bob"], 3, 1),
        played("enumeration", ["Ann", "Bob"], 4, 2),
        played("multiplications", ["Ann", "Bob", "Cy"], 4, 3, players=3),
        played("nonconformity", ["Ann", "Bob"], 3, 4, starts=(6, 10)),
        played("prime-target", ["Ann", "Bob"], 2, 5),
    ]
    for state in samples:  # every truncation of a record of each game
        cases += [state.record[:n] for n in range(1, len(state.record))]
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._~-!$&'()*+,;=:@/?<>\"`{}|^[]\\éü€😀"
    for _ in range(25):  # random characters
        cases.append("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 80))))
    for state in samples:  # mutated characters
        record = state.record
        for _ in range(6):
            i = rng.randrange(len(record))
            cases.append(record[:i] + rng.choice("0123456789abcxyzQ._~-") + record[i + 1:])
    cases += [
        "q99.mu.p2_k3.",  # a newer version
        "q2.mu.p2_k3.dd",
        "q1.zz.p2_k3.",
        "q1.mu.p2_k99.",
        "q1.mu.p2_k3.zz",
        "q1..",
        "x" * 200_000,  # oversized
        "q1.mu.p2_k3." + "a" * (MAX_LINK + 10),
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "javascript:alert(1)",
        "q1.nc.l3_m100_s6x10.~~c0" + "0" * 64,  # a seal on a round with nothing to hide yet… valid shape
        "q1.nc.l3_m100_s6x10.~~c0zz",  # damaged seal
        "q1.nc.l3_m100_s6x10.~~c7" + "ab" * 32,  # a seal for a seat that does not exist
        "q1.mu.p2_k3.~~c0" + "ab" * 32,  # a seal on a game without secrets
        "~~c0" + "ab" * 32,
    ]
    for names in (HOSTILE_NAMES[:2], HOSTILE_NAMES[1:]):  # valid records, hostile seat names
        cases.append(quetgames.new_game("multiplications").with_seats(names).record)
        cases.append(played("enumeration", names, 2, 9).record)
    unique: list[str] = []
    for case in cases:
        if case and case not in unique and not computer_to_move(case):
            unique.append(case)
    return unique


def computer_to_move(fragment: str) -> bool:
    """A mutation can turn a seat into a computer; opening such a link rightly
    lets the computer move (and save the game), which is not what this test is
    about, so those cases are left out."""
    try:
        state = quetgames.load(fragment.partition("~~")[0])
    except quetgames.RulesError:
        return False
    return any(state.seats[seat].kind != "human" for seat in state.to_move)


def test_hostile_fragments_never_break_the_page_or_the_saved_game(w: Watched, page: Page) -> None:
    keep = play_some(w, quetgames.new_game("prime-target").with_seats(["Keeper", "Other"]), 2, 31)
    before = page.evaluate(f"() => {SAVED_GAMES}")
    assert any(e["record"] == keep.record for e in before.values())

    cases = hostile_fragments()
    assert len(cases) >= 200, len(cases)
    games = errors = 0
    for fragment in cases:
        seen = page.evaluate(OPEN_AND_LOOK, fragment)  # (one round trip a case: there are some 250)
        want = expected(fragment)
        if want is None:
            games += 1
            state = quetgames.load(fragment.partition("~~")[0])
            assert seen["record"] == state.record or state.view()["board"].get("picked")
            assert seen["names"] == [s["name"] for s in state.view()["seats"]]
        else:
            errors += 1
            assert seen["errors"] == 1, fragment[:200]
            text = seen["message"]
            assert text.startswith("That link does not hold a game we can open:"), text
            assert want in text, (fragment[:100], want, text)
            assert seen["cards"] == len(quetgames.GAMES)
            assert seen["home_links"] == 1
        # text from a link is only ever text
        assert seen["markup"] == 0
        assert seen["saved"] == before, fragment[:200]
        assert w.errors == [], (fragment[:200], w.errors)
    assert games >= 10 and errors >= 150, (games, errors)

    # the saved game is untouched and resumable from the error view
    go(w, "q99.mu.p2_k3.", wait=True)
    shoot(page, "saves-error-view")
    resume = page.locator(".link-error a", has_text="Resume your game of Prime Target")
    before_routes = routes(w)
    resume.click()
    page.wait_for_function("n => Number(document.documentElement.dataset.routes || 0) > n", arg=before_routes)
    w.wait_ready()
    assert w.fragment() == keep.record
    assert page.locator("#status").inner_text() == keep.view()["status"]


def test_hostile_names_from_a_link_are_shown_as_text(w: Watched, page: Page) -> None:
    state = quetgames.new_game("multiplications", players=3).with_seats(HOSTILE_NAMES)
    go(w, state.record, wait=True)
    assert page.locator(".seats .seat-name").all_inner_texts() == HOSTILE_NAMES
    assert page.locator("#view script, #view img, #view b").count() == 0
    assert page.evaluate("window.__pwned === undefined")


# -- never lose a game -------------------------------------------------------------------------


def test_a_game_survives_a_reload_and_a_closed_browser(w: Watched, page: Page, browser: Browser, server: str) -> None:
    state = play_some(w, quetgames.new_game("enumeration").with_seats(["Rae", "Sol"]), 3, 41)
    page.reload()
    w.wait_ready()
    page.locator(f'section.game[data-record="{state.record}"]').wait_for()

    # the home page offers to resume it, first in the list (a bare-site load is below)
    go(w, "", wait=True)
    first = page.locator(".saved-list").first.locator(".saved-game").first
    assert "Enumeration" in first.inner_text() and "Rae vs Sol" in first.inner_text() and "3 moves" in first.inner_text()
    shoot(page, "saves-saved-list")
    first.locator("a.resume").click()
    page.locator(f'section.game[data-record="{state.record}"]').wait_for()
    w.wait_ready()

    # "closing the browser": a new browser with only this one's stored data
    stored = w.context.storage_state()
    other = new_watched(browser, server, storage_state=stored)
    try:
        other.goto_ready(server)
        other.page.locator(".saved-game a.resume", has_text="Resume").first.click()
        other.page.locator(f'section.game[data-record="{state.record}"]').wait_for()
        assert other.errors == []
    finally:
        other.context.close()


def test_a_crashed_worker_is_restarted_and_the_game_goes_on(w: Watched, page: Page) -> None:
    state = play_some(w, quetgames.new_game("multiplications").with_seats(["Uma", "Vic"]), 2, 51)
    [worker] = page.workers
    # simulate a crash: the worker throws (the page's Worker gets an error event), then closes
    with worker.expect_event("close"):
        worker.evaluate("() => { setTimeout(() => { throw new Error('simulated crash (test)'); }); setTimeout(() => self.close(), 50); }")
    move = random.Random(52).choice(board_moves(page))
    with page.expect_worker() as new_worker:
        record = click_move(w, move, timeout=90_000)
    assert new_worker.value is not worker
    assert record == (state := state.play(move)).record
    page.locator("#note", has_text="restarted").wait_for()
    assert page.locator("#status").inner_text() == state.view()["status"]
    # and it goes on
    move = random.Random(53).choice(board_moves(page))
    assert click_move(w, move) == state.play(move).record
    w.errors[:] = [e for e in w.errors if "simulated crash" not in e]


def test_saved_games_can_be_deleted(w: Watched, page: Page) -> None:
    state = play_some(w, quetgames.new_game("convoluted-coprimality").with_seats(["Del", "Ete"]), 1, 61)
    go(w, "", wait=True)
    row = page.locator(".saved-game", has_text="Del vs Ete")
    assert row.count() == 1
    row.get_by_role("button", name="Delete").click()
    page.locator("dialog.confirm[open] button[value=yes]").click()
    row.wait_for(state="detached")
    assert all(e["record"] != state.record for e in saved(page))


def test_taking_back_a_finished_game_asks_and_keeps_it_as_it_ended(w: Watched, page: Page) -> None:
    forget_games(w)
    # a game one move from its end, finished here by its last move
    state = played("multiplications", ["Fin", "Ish"], 0, 0, k=3)
    rng = random.Random(5)
    while not (whole := state.play(move := rng.choice(state.legal_moves()))).is_over:
        state = whole
    play_some(w, state, 0, 0)
    assert click_move(w, move) == whole.record
    page.locator("#summary").wait_for()
    [entry] = saved(page)
    assert entry["over"] and entry["record"] == whole.record
    # Look again, then Take back: asked first; "keep" changes nothing
    go(w, "", wait=True)
    page.locator(".saved-game", has_text="Fin vs Ish").get_by_role("link", name="Look again").click()
    page.locator("#summary").wait_for()
    page.locator("[data-key=undo]").click()
    page.locator("dialog.confirm[open]", has_text="This game is over").wait_for()
    shoot(page, "take-back-finished-asks")
    page.locator("dialog.confirm[open] button[value=no]").click()
    page.locator("dialog.confirm[open]").wait_for(state="detached")
    assert page.locator("section.game").get_attribute("data-record") == whole.record
    assert [(e["record"], e["over"]) for e in saved(page)] == [(whole.record, True)]
    # taken back: a new game from the move before, and the finished one kept as it ended
    page.locator("[data-key=undo]").click()
    page.locator("dialog.confirm[open] button[value=yes]").click()
    page.wait_for_function("r => document.querySelector('section.game')?.dataset.record !== r", arg=whole.record)
    page.locator("#note", has_text="the finished one is kept").wait_for()
    cut = page.locator("section.game").get_attribute("data-record")
    assert cut is not None and cut != state.record and quetgames.load(cut).history == state.history
    entries = {e["record"]: e for e in saved(page)}
    assert entries[whole.record]["over"] and entries[whole.record]["result"].startswith(("Fin won", "Ish won", "Fin and Ish"))
    assert len(entries) == 2 and not entries[cut]["over"]
    go(w, "", wait=True)
    page.locator(".saved-game[data-over=yes]", has_text="Fin vs Ish").wait_for()
    page.locator(".saved-game[data-over=no]", has_text="Fin vs Ish").wait_for()
    shoot(page, "take-back-finished-home")


def test_a_long_link_is_flagged_with_a_file_to_send_instead(w: Watched, page: Page) -> None:
    from quetgames import bridge

    state = played("multiplications", ["Lon", "Gia"], 9, 7, k=3)
    record = state.record
    for ply in range(10):  # ten comments of about 1,000 characters: a link of over 10,000
        answer = json.loads(bridge.call("annotate", json.dumps({"record": record, "ply": ply, "text": f"{ply} " + "long words " * 90})))
        record = answer["result"]["record"]
    assert len(record) > 10_000
    go(w, record, wait=True)
    note = page.locator("#share .long-link")
    note.wait_for()
    url_length = page.evaluate("() => location.href.length")
    assert url_length > 2000
    words = note.inner_text()
    assert f"{url_length:,} characters long" in words and "Discord" in words and "Telegram" in words, words
    with page.expect_download() as saving:
        note.get_by_role("button", name="Save this game as a file").click()
    backup = json.loads(open(saving.value.path(), encoding="utf-8").read())
    assert backup["format"] == "quetgames-backup" and [g["record"] for g in backup["games"]] == [record]
    shoot(page, "long-link-note")
    # a short link says nothing
    go(w, state.record, wait=True)
    page.locator("#share").wait_for()
    assert page.locator("#share .long-link").is_hidden()


def test_at_the_limit_the_oldest_finished_game_makes_room(w: Watched, page: Page) -> None:
    """web/share/saved.js keeps SAVED_LIMIT (100) games: a move that would keep one
    more drops the oldest finished game, and never the game being played."""
    forget_games(w)
    state = play_some(w, quetgames.new_game("multiplications").with_seats(["Lim", "It"]), 1, 51)
    (key, entry), = page.evaluate(f"() => Object.entries({SAVED_GAMES})")
    # 100 older games beside it, every other one finished: 101 kept, one too many
    page.evaluate("""([prefix, entry]) => {
      for (let i = 0; i < 100; i++) {
        const id = `old${i}`;
        localStorage.setItem(prefix + id, JSON.stringify({ ...entry, id, over: i % 2 === 0, at: entry.at - 10000 - i }));
      }
    }""", [GAME_PREFIX, entry])
    assert len(page.evaluate(f"() => Object.keys({SAVED_GAMES})")) == 101
    move = random.Random(52).choice(board_moves(page))
    state = state.play(move)
    assert click_move(w, move) == state.record
    kept = page.evaluate(f"() => {SAVED_GAMES}")
    assert len(kept) == 100
    assert GAME_PREFIX + "old98" not in kept  # the oldest finished one
    assert GAME_PREFIX + "old99" in kept  # older, but not finished
    assert kept[key]["record"] == state.record
    forget_games(w)


def test_export_and_import_a_record(w: Watched, page: Page, server: str) -> None:
    state = play_some(w, quetgames.new_game("multiplications").with_seats(["Exa", "Imo"]), 2, 71)
    page.locator("details.export summary").click()
    assert page.locator(".export-record").input_value() == state.record
    go(w, "", wait=True)
    page.locator("details.import-box summary").click()
    field = page.locator("#import-text")
    # nonsense: the engine's reason, in words; the page stays home
    field.fill("q1.mu.p2_k3.zz")
    page.get_by_role("button", name="Open the game").click()
    error = page.locator("#import-error")
    error.filter(has_text="does not open a game").wait_for()
    with pytest.raises(quetgames.InvalidRecord) as refused:
        quetgames.load("q1.mu.p2_k3.zz")
    assert str(refused.value) in error.inner_text()
    assert w.fragment() == ""
    shoot(page, "saves-import-error")
    # a whole link, pasted with spaces around it
    field.fill(f"  {server}#{state.record}\n")
    before = routes(w)
    page.get_by_role("button", name="Open the game").click()
    page.wait_for_function("n => Number(document.documentElement.dataset.routes || 0) > n", arg=before)
    w.wait_ready()
    page.locator(f'section.game[data-record="{state.record}"]').wait_for()


def test_refused_storage_is_said_once_and_play_goes_on(browser: Browser, server: str) -> None:
    w = new_watched(browser, server)
    w.page.add_init_script("Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); };")
    try:
        state = quetgames.new_game("multiplications").with_seats(["Pia", "Quo"])
        w.goto_ready(f"{server}#{state.record}")
        rng = random.Random(81)
        for _ in range(2):
            move = rng.choice(board_moves(w.page))
            assert click_move(w, move) == (state := state.play(move)).record
            if _ == 0:
                w.page.locator("#message", has_text="storage for the site is full").wait_for()
        assert "full" not in w.page.locator("#message").inner_text()  # said once, not after every move
        assert w.errors == []
    finally:
        w.context.close()


def test_damaged_saved_games_are_set_aside_and_the_rest_stay(browser: Browser, server: str) -> None:
    """Saved entries that are not objects, lack fields, have fields of the
    wrong type, or hold a record the engine refuses: each is set aside (kept
    as it was under quetgames.damaged.v1), the player is told in words, and
    every other saved game stays listed and resumable."""
    w = new_watched(browser, server)
    try:
        w.goto_ready(server)
        good = play_some(w, quetgames.new_game("multiplications").with_seats(["Gus", "Hal"]), 2, 91)
        [entry] = saved(w.page)
        assert entry["record"] == good.record
        no_seats = {k: v for k, v in entry.items() if k != "seats"}
        damaged = [
            42,
            "a saved game",
            None,
            [entry],
            {"id": "lonely"},
            {**no_seats, "id": "no-seats"},
            {**entry, "id": "moves-as-text", "moves": "2"},
            {**entry, "id": "history-of-numbers", "history": [1, 2]},
            {**entry, "id": "refused-record", "record": "q1.mu.p2_k3.zz", "link": "q1.mu.p2_k3.zz"},
            {**entry, "id": "unknown-game", "record": "q1.zz.p2.ab", "link": "q1.zz.p2.ab"},
        ]
        w.page.evaluate("([key, list]) => localStorage.setItem(key, JSON.stringify(list))", [SAVED, [damaged[0], entry, *damaged[1:]]])
        w.goto_ready(server)
        note = w.page.locator(f'.damaged-note[data-damaged="{len(damaged)}"]')
        note.wait_for()
        assert f"{len(damaged)} saved games could not be read and were set aside" in note.inner_text()
        w.page.locator(".game-card").first.wait_for()
        rows = w.page.locator(".saved-game")
        assert rows.count() == 1 and "Gus vs Hal" in rows.inner_text()
        assert saved(w.page) == [entry]
        kept = json.loads(w.page.evaluate("localStorage.getItem('quetgames.damaged.v1')"))
        assert sorted(json.dumps(k["raw"], sort_keys=True) for k in kept) == sorted(json.dumps(d, sort_keys=True) for d in damaged)
        assert all(k["why"] for k in kept)
        assert any("refused its record" in k["why"] for k in kept)
        shoot(w.page, "saves-damaged")
        # the good game resumes
        rows.get_by_role("link", name=re.compile("Resume")).click()
        w.page.locator(f'section.game[data-record="{good.record}"]').wait_for()

        # a list that is not JSON at all: set aside whole, and one more is said
        go(w, "q1.zz.broken", wait=True)  # a broken link's page draws too
        w.page.evaluate("key => localStorage.setItem(key, '[{oops')", SAVED)
        w.page.reload()  # (a new page: the count of entries set aside starts again)
        w.wait_ready()
        w.page.locator("#message", has_text="does not hold a game").wait_for()
        note = w.page.locator(".damaged-note")
        note.wait_for()
        assert "One saved game could not be read and was set aside" in note.inner_text()
        kept = json.loads(w.page.evaluate("localStorage.getItem('quetgames.damaged.v1')"))
        assert kept[0]["raw"] == "[{oops"
        assert w.errors == []
    finally:
        w.context.close()
