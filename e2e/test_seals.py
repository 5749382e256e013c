"""Nonconformity by link with the seals in the record, as two players on two
devices (two browser contexts, separate storage) meet it: the honest round
trip, the two cheats of issue 12 replayed against the victim's device, a seal
whose secret is lost (forfeit), links made by the older version, and no
secret pick in any link on screen at one screen.

Cheats are written with the Python engine (what a person editing the link by
hand, or with a script, could make); the victim's device must show the
conflict (data-conflict) every time and never the rewritten round as played.
"""

from __future__ import annotations

import quetgames
from playwright.sync_api import Browser

from .harness import Watched, board_moves, click_move, saved_entries, shoot, watched_page
from .test_links import copied_link, open_link, pair, pick_at_one_screen, player_page, players  # noqa: F401  (the two-device fixtures)

KEEPS = "quetgames.seals.v2"


def named(**options) -> quetgames.State:
    return quetgames.new_game("nonconformity", **options).with_seats(["Ann", "Bob"])


def kept(w: Watched) -> dict:
    return w.page.evaluate(f"JSON.parse(localStorage.getItem('{KEEPS}'))")[0]


def seal_round(a: Watched, b: Watched, pick_a: str | None = None, pick_b: str | None = None) -> tuple[str, str, dict, str]:
    """Ann seals (on the board shown to her), Bob picks in the open: (pick_a,
    pick_b, Ann's keep, Bob's link back)."""
    a.page.locator(".seal-banner").wait_for()
    pick_a = pick_a or board_moves(a.page)[0]
    click_move(a, pick_a)
    secret = kept(a)
    a.page.locator('.seal-screen[data-phase="sealed"]').wait_for()
    open_link(b, copied_link(a))
    b.page.locator(".seal-banner", has_text="Ann has sealed a pick").wait_for()
    assert b.page.locator('.nc-who li[data-state="sealed"][data-seat="0"]').count() == 1
    pick_b = pick_b or board_moves(b.page)[-1]
    click_move(b, pick_b)
    b.page.locator('.seal-screen[data-phase="waiting"]').wait_for()
    return pick_a, pick_b, secret, copied_link(b)


def start(a: Watched, server: str, state: quetgames.State) -> None:
    open_link(a, f"{server}#{state.record}")
    a.page.locator("[data-key=seal-as-0]").click()


def assert_conflict(w: Watched, kind: str, *words: str) -> None:
    panel = w.page.locator(f'[data-conflict="{kind}"]')
    panel.wait_for()
    text = panel.inner_text()
    for word in words:
        assert word in text, text
    # the game is not shown as if nothing happened
    assert w.page.locator("#status").count() == 0
    assert w.page.locator("section.game").count() == 0


def scores(w: Watched) -> list[str]:
    return w.page.locator(".seats .score").all_inner_texts()


def test_the_honest_round_trip_reveals_and_both_devices_agree(players: tuple[Watched, Watched], server: str) -> None:
    a, b = players
    state = named(length=3, max_pick=100, starts=(6, 10))
    start(a, server, state)
    pick_a, pick_b, secret, link = seal_round(a, b)
    open_link(a, link)
    state = state.seal(pick_a, secret["salt"], 0).play(pick_b, 1).reveal(pick_a, secret["salt"], 0)
    assert a.fragment() == state.record
    a.page.locator(".reveal, #note", has_text="matches its seal").first.wait_for()
    # the record holds the reveal now, so the secret is one no more; it stays on this device, so that a new game
    # played on from an older link of this round is revealed again, not "lost" (issue 54)
    assert [k["commitment"] for k in a.page.evaluate(f"JSON.parse(localStorage.getItem('{KEEPS}'))")] == [secret["commitment"]]
    assert f"{pick_a}~{secret['salt']}" in state.record
    open_link(b, copied_link(a))
    want = [str(x) for x in state.view()["scores"]]
    assert scores(a) == scores(b) == want
    assert a.page.locator("#status").inner_text() == b.page.locator("#status").inner_text() == state.view()["status"]
    assert b.page.locator("[data-conflict]").count() == 0


def test_cheat_1_the_sealer_changes_the_pick_after_the_other_has_picked(players: tuple[Watched, Watched], server: str) -> None:
    a, b = players
    state = named(length=3, max_pick=100, starts=(6, 4))
    start(a, server, state)
    pick_a, pick_b, secret, link = seal_round(a, b, "12", "8")
    sealed = state.seal(pick_a, secret["salt"], 0).play(pick_b, 1)
    assert b.fragment() == sealed.record

    # (1) Ann deletes her seal from Bob's link and picks 10 in the open: "…s6x4.10_8"
    rewritten = state.play("10", 0).play("8", 1)
    open_link(b, f"{server}#{rewritten.record}")
    assert_conflict(b, "changed", "This link changes round 1", "the seal Ann sent is not")
    shoot(b.page, "seals-conflict-changed")
    # keeping his own game takes Bob back to it, untouched
    b.page.locator("[data-key=keep-mine]").click()
    b.page.locator('.seal-screen[data-phase="waiting"]').wait_for()
    assert b.fragment() == sealed.record

    # (2) Ann seals 10 anew (a new seal and salt) and reveals it consistently
    salt = "Z" * 20
    resealed = state.seal("10", salt, 0).play("8", 1).reveal("10", salt, 0)
    open_link(b, f"{server}#{resealed.record}")
    assert_conflict(b, "changed", "round 1", "the seal Ann sent is not")

    # (3) Ann reveals her true seal as 10 (with her salt): the engine refuses it on every device
    forged = sealed.record.replace(f"c{secret['commitment']}_", f"c{secret['commitment']}~10~{secret['salt']}_")
    open_link(b, f"{server}#{forged}")
    assert_conflict(b, "seal", "round 1", "does not match")
    shoot(b.page, "seals-conflict-seal")

    # the honest reveal still opens on Bob's device, with Ann's true pick
    open_link(a, link)
    open_link(b, copied_link(a))
    assert b.page.locator("[data-conflict]").count() == 0
    assert b.fragment() == sealed.reveal("12", secret["salt"], 0).record


def test_cheat_2_the_second_player_forges_the_sealers_pick(players: tuple[Watched, Watched], server: str) -> None:
    a, b = players
    state = named(length=4, max_pick=1000, starts=(6, 4))
    start(a, server, state)
    # round 1 played honestly
    pick_a, pick_b, secret, link = seal_round(a, b, "12", "8")
    open_link(a, link)
    state = state.seal(pick_a, secret["salt"], 0).play(pick_b, 1).reveal(pick_a, secret["salt"], 0)
    assert a.fragment() == state.record
    # round 2: Ann seals a pick; Bob picks 16
    a.page.locator(".seal-banner").wait_for()
    choice = "30" if "30" in state.legal_moves(0) else state.legal_moves(0)[0]
    _, pick_b2, secret2, link2 = seal_round(a, b, choice, None)
    round2 = state.seal(choice, secret2["salt"], 0).play(pick_b2, 1)
    assert b.fragment() == round2.record

    # (1) Bob removes Ann's seal and picks 996 for her
    forged_pick = next(p for p in reversed(state.legal_moves(0)) if p != choice)
    rewritten = state.play(forged_pick, 0).play(pick_b2, 1)
    open_link(a, f"{server}#{rewritten.record}")
    assert_conflict(a, "changed", "This link changes round 2", "the seal Ann sent is not")
    shoot(a.page, "seals-conflict-forged")
    # opening it as a separate game is Ann's choice; her own game stays saved as it was
    a.page.locator("[data-key=open-separate]").click()
    a.page.locator("section.game").wait_for()
    assert a.page.locator("#status").inner_text() == rewritten.view()["status"]
    saved = saved_entries(a.page)
    assert any(e["link"] == state.seal(choice, secret2["salt"], 0).record for e in saved), saved

    # (2) Bob writes a reveal of his choosing under Ann's seal: refused by the engine, on her device and any other
    fake = round2.record.replace(f"c{secret2['commitment']}_", f"c{secret2['commitment']}~{forged_pick}~{'Q' * 20}_")
    open_link(a, f"{server}#{fake}")
    assert_conflict(a, "seal", "round 2")

    # the true link still reveals Ann's sealed pick
    open_link(a, link2)
    assert a.fragment() == round2.reveal(choice, secret2["salt"], 0).record


def test_a_lost_seal_can_only_be_given_up_and_both_devices_see_it(players: tuple[Watched, Watched], server: str) -> None:
    a, b = players
    state = named(length=3, max_pick=100, starts=(6, 4))
    start(a, server, state)
    pick_a, pick_b, secret, link = seal_round(a, b, "12", "8")
    # Bob's device: waiting, and nothing to give up on Ann's behalf
    waiting = b.page.locator('.seal-screen[data-phase="waiting"]')
    assert "Waiting for Ann to reveal" in waiting.inner_text()
    assert b.page.locator("[data-key=forfeit], [data-key=seal-lost]").count() == 0
    # Ann's storage loses the secret
    a.page.evaluate(f"localStorage.removeItem('{KEEPS}')")
    open_link(a, link)
    lost = a.page.locator('.seal-screen[data-phase="lost"]')
    lost.wait_for()
    text = lost.inner_text()
    assert "not on this device" in text and "Bob scores one point" in text
    assert a.fragment() == link.split("#", 1)[1]
    shoot(a.page, "seals-lost")
    a.page.locator("[data-key=forfeit]").click()
    a.page.locator("dialog[open] button[value=yes]").click()
    given_up = state.seal(pick_a, secret["salt"], 0).play(pick_b, 1).play("f", 0)
    a.page.wait_for_function("r => decodeURIComponent(location.hash.slice(1)) === r", arg=given_up.record)
    a.wait_ready()
    a.page.locator(".reveal, #note", has_text=f"{given_up.last_move_text}.").first.wait_for()
    assert "Ann gave up a sealed pick" in given_up.last_move_text
    open_link(b, copied_link(a))
    assert scores(a) == scores(b) == ["0", "1"]
    assert b.page.locator("[data-conflict]").count() == 0


def test_a_link_from_the_older_version_is_refused_in_words(players: tuple[Watched, Watched], server: str) -> None:
    a, _ = players
    state = named(length=3, max_pick=100, starts=(6, 4))
    old = f"{state.play('8', 1).record}~~c0{'ab' * 32}"
    open_link(a, f"{server}#{old}")
    message = a.page.locator("#message")
    message.wait_for()
    assert "made by an older version of Quet Games" in message.inner_text()
    assert a.page.locator("#status").count() == 0


def test_no_link_on_screen_holds_a_secret_hot_seat_pick(players: tuple[Watched, Watched], browser: Browser, server: str) -> None:
    a, _ = players
    state = named(length=3, max_pick=100, starts=(6, 10))
    pick = pick_at_one_screen(a, server, state)
    secret = state.play(pick, 0).record
    assert a.fragment() == state.record
    assert a.page.locator("#share, #share-link, .embed-button, .export-record").count() == 0
    assert secret not in a.page.content()
    # the home page's Resume link is the public record too
    open_link(a, f"{server}#")
    resume = a.page.locator("#saved-games a.resume").first
    resume.wait_for()
    href = resume.get_attribute("href")
    assert href == f"#{state.record}" and secret not in a.page.content()
    # …and resuming at this screen still has Ann's pick: it is Bob's turn
    resume.click()
    a.page.locator('.curtain[data-phase="handover"]', has_text="Pass the device to Bob").wait_for()
    # the embed, given a record with a secret pick: its address and "Open in Quet Games" are public
    e = watched_page(browser, server)
    try:
        e.goto_ready(f"{server}embed.html?start=visible#{secret}")
        e.page.locator("#board").wait_for()
        e.wait_ready()
        e.page.wait_for_function("r => decodeURIComponent(location.hash.slice(1)) === r", arg=state.record)
        assert e.page.locator("#open-full").get_attribute("href").endswith(f"#{state.record}")
        assert e.errors == []
    finally:
        e.context.close()


def test_the_sealer_on_a_new_device_can_give_up_the_pick(players: tuple[Watched, Watched], browser: Browser, server: str) -> None:
    """A device that never played this game offers "my sealed pick is lost"
    on the waiting screen; giving it up is a forfeit the other device accepts."""
    a, b = players
    state = named(length=3, max_pick=100, starts=(6, 8))
    start(a, server, state)
    pick_a, pick_b, secret, link = seal_round(a, b, "12", None)
    c = player_page(browser, server)
    try:
        open_link(c, link)
        c.page.locator('.seal-screen[data-phase="waiting"]').wait_for()
        c.page.locator("[data-key=seal-lost]").click()
        c.page.locator('.seal-screen[data-phase="lost"]').wait_for()
        c.page.locator("[data-key=forfeit]").click()
        c.page.locator("dialog[open] button[value=yes]").click()
        given_up = state.seal(pick_a, secret["salt"], 0).play(pick_b, 1).play("f", 0)
        c.page.wait_for_function("r => decodeURIComponent(location.hash.slice(1)) === r", arg=given_up.record)
        c.wait_ready()
        assert c.errors == []
        link = copied_link(c)
    finally:
        c.context.close()
    open_link(b, link)
    assert scores(b) == ["0", "1"]
    assert b.page.locator("[data-conflict]").count() == 0
    # Ann's own device still holds the secret: a forfeit she did not make is a conflict there
    open_link(a, link)
    assert_conflict(a, "forfeit", "gives up Ann's sealed pick of round 1")
