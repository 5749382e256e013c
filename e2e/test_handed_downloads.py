"""A puzzle's or a lesson's page waits for Python alone, so index.html's first
script asks for Pyodide's three big files before the page's ~30 modules and
hands each to the worker (named "handed") as it streams in; the home page, a
setup screen and a game's link (which draws its board before Python arrives)
ask for their modules first and the worker fetches as before. Either way each
file is downloaded once, and a download the page could not make is made by
the worker itself."""

from __future__ import annotations

import pytest
from playwright.sync_api import Request, Route

import quetgames

from .harness import Watched

WASM = "pyodide.asm.wasm.xz"


def page_requests(w: Watched) -> list[str]:
    """What the page and its worker ask for, in order, from now on (not the
    service worker, whose precache fetches every file once more)."""
    seen: list[str] = []

    def on_request(request: Request) -> None:
        if request.service_worker is None:
            seen.append(request.url)

    w.context.on("request", on_request)
    return seen


def indexes(requests: list[str], suffix: str) -> list[int]:
    return [i for i, url in enumerate(requests) if url.endswith(suffix)]


def worker_names(w: Watched) -> list[str]:
    return [worker.evaluate("self.name") for worker in w.page.workers]


def test_a_lesson_asks_for_python_first_and_the_worker_takes_it_over(watched: Watched, server: str) -> None:
    requests = page_requests(watched)
    watched.goto_ready(f"{server}index.html#learn=multiplications")
    assert worker_names(watched) == ["handed"]
    # once, by the page, ahead of the modules the page imports
    assert len(indexes(requests, WASM)) == 1
    assert indexes(requests, WASM)[0] < indexes(requests, "/shell/pages.js")[0]
    assert len(indexes(requests, "python_stdlib.zip.xz")) == 1
    watched.page.locator(".lesson-board [data-move], .lesson-stage [data-move]").first.wait_for()
    assert watched.errors == []


def test_a_games_link_starts_its_worker_at_once_which_fetches_for_itself(watched: Watched, server: str) -> None:
    requests = page_requests(watched)
    record = quetgames.new_game("multiplications").record
    watched.goto_ready(f"{server}index.html#{record}")
    assert worker_names(watched) == [""]  # not handed: the board's own modules are not held behind Python's files
    assert len(indexes(requests, WASM)) == 1
    assert indexes(requests, "/worker.js")[0] < indexes(requests, "/view/gameview.js")[0]  # (started first of all)
    watched.page.locator("#board [data-move]").first.wait_for()
    assert watched.errors == []


@pytest.mark.parametrize("fragment", ["", "#setup=multiplications"])
def test_the_home_page_and_a_setup_screen_ask_for_their_modules_first(watched: Watched, server: str, fragment: str) -> None:
    requests = page_requests(watched)
    watched.goto_ready(f"{server}index.html{fragment}")
    assert worker_names(watched) == [""]
    assert len(indexes(requests, WASM)) == 1
    assert indexes(requests, WASM)[0] > indexes(requests, "/view/gameview.js")[0]
    assert watched.errors == []


def test_a_download_the_page_could_not_make_is_made_by_the_worker(watched: Watched, server: str) -> None:
    failed: list[str] = []

    def fail_the_first(route: Route) -> None:
        if not failed:
            failed.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    watched.context.route(f"**/{WASM}", fail_the_first)
    requests = page_requests(watched)
    watched.goto_ready(f"{server}index.html#learn=enumeration")
    assert len(failed) == 1
    assert len(indexes(requests, WASM)) == 2  # the page's, refused, then the worker's own
    watched.page.locator(".lesson-stage [data-move]").first.wait_for()
    # the browser logs the refused load; nothing else went wrong
    assert [e for e in watched.errors if "Failed to load resource" not in e] == []
