"""index.html's first script starts Python's worker at once on every page
that needs it soon (a game's link, a puzzle, a lesson), and the worker fetches
Pyodide's files itself; the home page and a setup screen ask for their
modules first, and the engine starts the worker after them. Either way each
file is downloaded once. (The page no longer fetches Pyodide's files for the
worker: it drew no board before Python then, and does now, issue 53.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import Request

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


@pytest.mark.parametrize("route", ["game", "#learn=multiplications", "#puzzle=today"])
def test_a_link_a_lesson_and_a_puzzle_start_the_worker_first_which_fetches_for_itself(
        watched: Watched, server: str, route: str) -> None:
    requests = page_requests(watched)
    fragment = f"#{quetgames.new_game('multiplications').record}" if route == "game" else route
    watched.goto_ready(f"{server}index.html{fragment}")
    assert len(indexes(requests, WASM)) == 1
    assert len(indexes(requests, "python_stdlib.zip.xz")) == 1
    assert indexes(requests, "/worker.js")[0] < indexes(requests, "/app.js")[0]  # (started first of all)
    watched.page.locator("#board [data-move]").first.wait_for()
    assert watched.errors == []


@pytest.mark.parametrize("fragment", ["", "#setup=multiplications"])
def test_the_home_page_and_a_setup_screen_ask_for_their_modules_first(watched: Watched, server: str, fragment: str) -> None:
    requests = page_requests(watched)
    watched.goto_ready(f"{server}index.html{fragment}")
    assert len(indexes(requests, WASM)) == 1
    assert indexes(requests, WASM)[0] > indexes(requests, "/view/gameview.js")[0]
    assert watched.errors == []
