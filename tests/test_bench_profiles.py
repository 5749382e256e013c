"""The bench's profiles (tools/bench.py): what the phone profile sets up and how
its first visits are summed up and judged. No browser and no timing: rows of
made-up figures go in, the medians, ratios and verdicts that come out are
checked."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import bench  # noqa: E402  (tools/bench.py; it needs Playwright, which the test venv has)


@pytest.fixture
def phone(monkeypatch):
    monkeypatch.setattr(bench, "PROFILE", bench.PROFILES["phone"])
    return bench.PROFILES["phone"]


def visit(ready: float, sent: int = 0, **more) -> dict:
    return {"ready": ready, "board": ready + 50, "elsewhere": [], "service_worker_activated": ready + 900,
            "bytes": {"bytes": sent, "page": {"bytes": sent - 100_000}, "service_worker": {"bytes": 100_000},
                      "service_worker_before_ready": {"bytes": 0}}, **more}


def test_the_phone_profile_is_the_issue_s_phone() -> None:
    phone = bench.PROFILES["phone"]
    assert phone["cpu"] == 4
    assert phone["viewport"] == {"width": 390, "height": 844}
    assert phone["device"]["has_touch"] and phone["device"]["is_mobile"]
    assert phone["networks"] == [(1.6, 150.0), (10.0, 60.0)]
    # bare Pyodide from the compressing host, on the main thread and in a worker; the app on both hosts; the embed
    assert {("bare", "gzip"), ("bare_worker", "gzip"), ("app", "plain"), ("app", "gzip"), ("embed", "gzip")} <= set(phone["net_visits"])
    assert ("bare", "plain") not in phone["net_visits"]
    assert bench.PROFILES["desktop"]["cpu"] == 1


def test_context_options_follow_the_profile(phone, monkeypatch) -> None:
    assert bench.context_options() == {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
                                       "is_mobile": True, "has_touch": True}
    monkeypatch.setattr(bench, "PROFILE", bench.PROFILES["desktop"])
    assert bench.context_options() == {"viewport": {"width": 1100, "height": 900}}


def test_a_desktop_page_is_not_slowed(monkeypatch) -> None:
    monkeypatch.setattr(bench, "PROFILE", bench.PROFILES["desktop"])

    class NoCdp:
        def new_cdp_session(self, target):
            raise AssertionError("a desktop page must keep the machine's speed")

    bench.slowed(NoCdp(), object())  # no session asked for


def test_a_phone_page_gets_the_rate_before_it_navigates(phone) -> None:
    sent = []

    class Session:
        def send(self, method, params):
            sent.append((method, params))

    class Context:
        def new_cdp_session(self, target):
            return Session()

    bench.slowed(Context(), object())
    assert sent == [("Emulation.setCPUThrottlingRate", {"rate": 4})]


def test_phone_first_visits_are_judged_against_bare_pyodide_from_a_compressing_host(phone) -> None:
    raw = {
        "bare_gzip": [visit(40_000, 6_390_000), visit(44_000, 6_390_000), visit(42_000, 6_390_000)],
        "bare_worker_gzip": [visit(34_000), visit(36_000), visit(35_000)],
        "app_plain": [visit(20_000, 3_900_000), visit(22_000, 3_950_000), visit(21_000, 3_940_000)],
        "app_gzip": [visit(19_000, 3_600_000), visit(19_500, 3_650_000), visit(20_000, 3_700_000)],
        "home_gzip": [{"on_screen": 2_000, "elsewhere": []}],
        "embed_gzip": [{"poster_s": 2.0, "poster_bytes": 40_000, "start_to_board": 21_000, "tap": 12.0,
                        "bytes_after_start": 3_500_000, "own_process": True, "elsewhere": []}],
    }
    s = bench.summarize_network(raw)
    assert s["bare_gzip_ready"] == 42_000 and s["bare_plain_ready"] is None  # a visit not made is None, not an error
    assert s["ratio_app_plain_vs_bare_gzip"] == pytest.approx(21_000 / 42_000)
    assert s["ratio_app_gzip_vs_bare_gzip"] == pytest.approx(19_500 / 42_000)
    assert s["ratio_app_plain_vs_bare_worker_gzip"] == pytest.approx(21_000 / 35_000)
    assert s["embed_gzip_start_to_board"] == 21_000 and s["embed_gzip_tap"] == 12.0
    verdicts = list(s["budgets"].values())
    # 0.50 and 0.46 of bare on the main thread pass, 0.60 of bare in a worker misses, 3.94 and 3.65 MB miss 3.6 MB
    assert verdicts == ["PASS", "PASS", "MISS", "MISS", "MISS"]
    assert all("{net}" in name for name in s["budgets"])  # run_network names the network


def test_a_phone_table_shows_only_the_visits_made(phone) -> None:
    raw = {"bare_gzip": [visit(40_000, 6_390_000)], "app_plain": [visit(20_000, 3_900_000)],
           "app_gzip": [visit(19_000, 3_600_000)]}
    net = {"summary": bench.summarize_network(raw), "reps": 1, "seconds": 60.0, "link_check": None,
           "conditions": {"mbit": 1.6, "delay_ms": 150.0, "gzip_level": 6}}
    text = "\n".join(bench.network_table(net))
    assert "| first visit, 1.6 Mbit/s, 150 ms | plain host | compressing host |" in text
    assert "| bare Pyodide: navigation -> loadPyodide() resolved | – | 40.00 s |" in text
    assert "embed" not in text and "setup page" not in text  # rows of visits not made are left out
    assert "| app ready on this host ÷ bare ready on the compressing host | 0.50 | 0.47 |" in text
