"""The three browser engines the smoke set can run in (ENGINES: Firefox and
WebKit unless CROSS_ENGINES says otherwise), behind one small interface.

    chromium  Playwright (the suite's own Chromium, from e2e/conftest.py)
    firefox   Debian's firefox-esr over WebDriver BiDi, through puppeteer-core
              (e2e/cross/puppeteer_bridge.mjs; no geckodriver, nothing downloaded)
    webkit    Debian's WebKitGTK: WebKitWebDriver + MiniBrowser through Selenium,
              on a virtual display (Xvfb) unless one is already set

Each engine opens pages (`new_page()`), and a page can go to a URL, evaluate a
JavaScript expression (promises awaited, the value returned as JSON), click the
first visible match of a CSS selector with a real pointer click, and take a
screenshot. Every page gets its own storage (a fresh browser context) except in
WebKit, where it is a new window of the same session.

Run as a script it prints which engines are present and why any is missing,
one line each, and exits 0 (build.py prints that in its test summary).
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BRIDGE = HERE / "puppeteer_bridge.mjs"
FIREFOXES = ("/usr/bin/firefox-esr", "/usr/bin/firefox")
WEBKIT_DRIVERS = ("/usr/bin/WebKitWebDriver",)
MINIBROWSER_GLOBS = ("/usr/lib/*/webkit2gtk-4.1/MiniBrowser", "/usr/lib/*/webkit2gtk-4.0/MiniBrowser",
                     "/usr/lib/*/webkitgtk-6.0/MiniBrowser", "/usr/libexec/webkit2gtk-4.1/MiniBrowser")
KNOWN = ("chromium", "firefox", "webkit")
# The engines the smoke set runs in: Firefox and WebKit, which nothing else
# reaches; the rest of e2e/ runs every test in Chromium already (its own
# shared-link, offline and ready tests included), so Chromium joins the smoke
# set only when asked: CROSS_ENGINES=chromium,firefox,webkit (or "all"), as
# for the three-engine ready figures in docs/BROWSERS.md.
_ASKED = os.environ.get("CROSS_ENGINES", "firefox,webkit").replace(" ", "")
ENGINES = KNOWN if _ASKED == "all" else tuple(name for name in KNOWN if name in _ASKED.split(","))
CALL_TIMEOUT_S = 120


class EngineMissing(Exception):
    """This engine cannot run here; the message says what to install."""


# -- finding the engines ------------------------------------------------------------


def firefox_path() -> str | None:
    for path in (os.environ.get("FIREFOX_PATH"), *FIREFOXES):
        if path and Path(path).exists():
            return path
    return None


def check_firefox() -> str:
    """The firefox executable, or EngineMissing saying what is not there."""
    path = firefox_path()
    if path is None:
        raise EngineMissing("firefox-esr is not installed (apt-get install firefox-esr)")
    if shutil.which("node") is None:
        raise EngineMissing("node is not installed (puppeteer-core needs it)")
    if not (ROOT / "node_modules" / "puppeteer-core" / "package.json").exists():
        raise EngineMissing("puppeteer-core is not installed (npm ci at the repo root; build.py test does it)")
    return path


def check_webkit() -> tuple[str, str]:
    """(WebKitWebDriver, MiniBrowser), or EngineMissing saying what is not there."""
    driver = next((p for p in (os.environ.get("WEBKIT_WEBDRIVER"), *WEBKIT_DRIVERS) if p and Path(p).exists()), None)
    if driver is None:
        raise EngineMissing("WebKitWebDriver is not installed (apt-get install webkit2gtk-driver)")
    browsers = [os.environ.get("WEBKIT_MINIBROWSER")] + sorted(p for g in MINIBROWSER_GLOBS for p in glob.glob(g))
    browser = next((p for p in browsers if p and Path(p).exists()), None)
    if browser is None:
        raise EngineMissing("WebKitGTK's MiniBrowser is not installed (apt-get install webkit2gtk-driver)")
    if not os.environ.get("DISPLAY") and shutil.which("Xvfb") is None:
        raise EngineMissing("no display and no Xvfb (apt-get install xvfb)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        raise EngineMissing("selenium is not installed (it is in pyproject's test extra)") from None
    return driver, browser


def availability() -> dict[str, str]:
    """engine -> "present (where)" or "MISSING: why"."""
    out = {"chromium": "present (the suite's Chromium, e2e/browser.py)"}
    for name, check in (("firefox", check_firefox), ("webkit", check_webkit)):
        try:
            found = check()
            out[name] = f"present ({found if isinstance(found, str) else ', '.join(found)})"
        except EngineMissing as missing:
            out[name] = f"MISSING: {missing}"
    return out


# -- pages --------------------------------------------------------------------------


# One slice of Page.wait, run in the page: `__EXPR__` read now, on every change to
# the document, and once more after 300 ms; the first truthy value, else the
# last one read. An error in `__EXPR__` rejects, as a plain evaluate would.
WAIT_SLICE = """new Promise((resolve, reject) => {
  let done = false;
  const finish = (value) => { if (!done) { done = true; observer.disconnect(); clearTimeout(timer); resolve(value); } };
  const read = () => (async () => (__EXPR__))().then((value) => { if (value) finish(value); return value; }, (error) => { done = true; observer.disconnect(); clearTimeout(timer); reject(error); });
  const observer = new MutationObserver(() => { read(); });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const timer = setTimeout(() => read().then((value) => finish(value)), 300);
  read();
})"""


class Page:
    """One tab, as the smoke set sees it."""

    def goto(self, url: str) -> None: raise NotImplementedError
    def eval(self, expr: str) -> Any: raise NotImplementedError
    def click(self, selector: str) -> None: raise NotImplementedError
    def screenshot(self, path: Path) -> None: raise NotImplementedError
    def errors(self) -> list[str]: raise NotImplementedError
    def close(self) -> None: raise NotImplementedError

    def wait(self, expr: str, timeout: float = 90.0, what: str = "") -> Any:
        """`expr`'s value once it is truthy, or TimeoutError naming `what`. The
        page itself reads `expr` again on every change to its document (WAIT_SLICE)
        and answers when it holds, or at the end of a short slice, so a value that
        changes outside the DOM is still seen; no engine's driver offers such a
        wait across all three."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.eval(WAIT_SLICE.replace("__EXPR__", expr))
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout:.0f} s for {what or expr}")


class Engine:
    name = ""
    version = ""

    def new_page(self) -> Page: raise NotImplementedError
    def close(self) -> None: ...


# Chromium: the suite's Playwright browser --------------------------------------------


class PlaywrightPage(Page):
    def __init__(self, browser) -> None:
        self.context = browser.new_context(viewport={"width": 1100, "height": 900})
        self.page = self.context.new_page()
        self._errors: list[str] = []
        self.page.on("pageerror", lambda exc: self._errors.append(f"uncaught: {exc}"))
        self.page.on("console", lambda msg: msg.type == "error" and self._errors.append(f"console: {msg.text}"))

    def goto(self, url: str) -> None:
        self.page.goto(url)

    def eval(self, expr: str) -> Any:
        return self.page.evaluate(f"async () => ({expr})")

    def click(self, selector: str) -> None:
        self.page.locator(selector).locator("visible=true").first.click()

    def screenshot(self, path: Path) -> None:
        self.page.screenshot(path=str(path), full_page=True)

    def errors(self) -> list[str]:
        return list(self._errors)

    def close(self) -> None:
        self.context.close()


class ChromiumEngine(Engine):
    name = "chromium"

    def __init__(self, browser) -> None:
        self.browser = browser
        self.version = f"Chromium {browser.version}"

    def new_page(self) -> Page:
        return PlaywrightPage(self.browser)


# Firefox: puppeteer-core over WebDriver BiDi -----------------------------------------


class BridgePage(Page):
    def __init__(self, engine: FirefoxEngine) -> None:
        self.engine = engine
        self.id = engine.call("newPage")

    def goto(self, url: str) -> None:
        self.engine.call("goto", page=self.id, url=url)

    def eval(self, expr: str) -> Any:
        return self.engine.call("evaluate", page=self.id, expr=expr)

    def click(self, selector: str) -> None:
        self.engine.call("click", page=self.id, selector=selector)

    def screenshot(self, path: Path) -> None:
        self.engine.call("screenshot", page=self.id, path=str(path))

    def errors(self) -> list[str]:
        return self.engine.call("errors", page=self.id)

    def close(self) -> None:
        self.engine.call("closePage", page=self.id)


class FirefoxEngine(Engine):
    name = "firefox"

    def __init__(self) -> None:
        executable = check_firefox()
        self.stderr = tempfile.TemporaryFile()
        env = {**os.environ, "PUPPETEER_SKIP_DOWNLOAD": "1"}
        self.proc = subprocess.Popen(["node", str(BRIDGE), executable], cwd=ROOT, env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr)
        self._next = 1
        first = self._read()
        if not first.get("ready"):
            raise RuntimeError(f"the Firefox bridge did not start: {first}")
        self.version = f"Firefox {first['version'].split('/')[-1]}"

    def _read(self) -> dict:
        line = self.proc.stdout.readline()  # type: ignore[union-attr]
        if not line:
            self.stderr.seek(0)
            raise RuntimeError("the Firefox bridge stopped: " + self.stderr.read().decode(errors="replace")[-2000:])
        return json.loads(line)

    def call(self, op: str, **args) -> Any:
        request_id = self._next
        self._next += 1
        self.proc.stdin.write(json.dumps({"id": request_id, "op": op, **args}) + "\n")  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]
        reply = self._read()
        if reply.get("id") != request_id:
            raise RuntimeError(f"the Firefox bridge answered out of turn: {reply}")
        if not reply["ok"]:
            raise RuntimeError(f"firefox {op}: {reply['error']}")
        return reply["result"]

    def new_page(self) -> Page:
        return BridgePage(self)

    def close(self) -> None:
        try:
            self.call("close")
        except (RuntimeError, BrokenPipeError, OSError):
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# WebKit: WebKitGTK's MiniBrowser through WebKitWebDriver and Selenium ----------------

# WebKitWebDriver offers no console log; uncaught errors are collected from the
# moment the page has loaded (earlier ones would show as a page that is never ready).
COLLECT_ERRORS = """
if (!window.__crossErrors) {
  window.__crossErrors = [];
  addEventListener("error", (e) => window.__crossErrors.push("uncaught: " + e.message));
  addEventListener("unhandledrejection", (e) => window.__crossErrors.push("unhandled: " + (e.reason?.message ?? e.reason)));
}
"""


class SeleniumPage(Page):
    def __init__(self, engine: WebKitEngine, handle: str) -> None:
        self.engine = engine
        self.handle = handle

    def _driver(self):
        driver = self.engine.driver
        if driver.current_window_handle != self.handle:
            driver.switch_to.window(self.handle)
        return driver

    def goto(self, url: str) -> None:
        driver = self._driver()
        driver.get(url)
        driver.execute_script(COLLECT_ERRORS)

    def eval(self, expr: str) -> Any:
        reply = self._driver().execute_async_script(
            "const done = arguments[arguments.length - 1];"
            f"(async () => ({expr}))().then((value) => done({{ok: true, value}}), (e) => done({{ok: false, error: String(e)}}));")
        if not reply["ok"]:
            raise RuntimeError(f"webkit evaluate: {reply['error']}")
        return reply.get("value")

    def click(self, selector: str) -> None:
        # WebKitWebDriver's element click refuses SVG <g> targets as "not
        # interactable", so this is a pointer click at the middle of the first
        # visible match, scrolled into view: the same events a person's click makes.
        # The point is taken once the element stays put over two frames (as
        # Playwright's click waits for a stable element): a line above it that
        # changes height a frame later (the sticky status line leaving its
        # one-line form) otherwise moves it from under the pointer.
        from selenium.webdriver.common.actions.action_builder import ActionBuilder

        point = self.wait(f"""(async () => {{
          const el = [...document.querySelectorAll({json.dumps(selector)})]
            .find((e) => (e.checkVisibility ? e.checkVisibility() : e.getClientRects().length > 0));
          if (!el) return null;
          el.scrollIntoView({{block: "center", inline: "center"}});
          const middle = () => {{
            const r = el.getBoundingClientRect();
            return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];
          }};
          const before = middle();
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          const after = middle();
          return el.isConnected && after[0] === before[0] && after[1] === before[1] ? after : null;
        }})()""", timeout=10, what=f"a visible {selector}, staying put")
        actions = ActionBuilder(self._driver())
        actions.pointer_action.move_to_location(*point).click()
        actions.perform()

    def screenshot(self, path: Path) -> None:
        self._driver().save_screenshot(str(path))

    def errors(self) -> list[str]:
        return self.eval("window.__crossErrors ?? []")

    def close(self) -> None:
        driver = self._driver()
        if len(driver.window_handles) > 1:
            driver.close()
            driver.switch_to.window(driver.window_handles[0])
        else:  # the session's last window stays open, blank, for the next page
            driver.get("about:blank")
            self.engine.spare = self.handle


class WebKitEngine(Engine):
    name = "webkit"

    def __init__(self) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        driver_path, browser_path = check_webkit()
        self.xvfb = None
        env = dict(os.environ)
        if not env.get("DISPLAY"):
            self.xvfb, env["DISPLAY"] = start_xvfb()
        options = Options()
        options.binary_location = browser_path
        options.add_argument("--automation")
        options.add_argument("--geometry=1100x900")
        service = Service(executable_path=driver_path, env=env)
        self.driver = webdriver.WebKitGTK(options=options, service=service)
        self.driver.set_script_timeout(CALL_TIMEOUT_S)
        self.driver.set_page_load_timeout(60)
        caps = self.driver.capabilities
        self.version = f"WebKitGTK {caps.get('browserVersion', '?')}"
        self.spare: str | None = self.driver.current_window_handle  # the session's first window, unused yet

    def new_page(self) -> Page:
        if self.spare is not None:
            handle, self.spare = self.spare, None
            self.driver.switch_to.window(handle)
            return SeleniumPage(self, handle)
        self.driver.switch_to.new_window("window")
        return SeleniumPage(self, self.driver.current_window_handle)

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            if self.xvfb is not None:
                self.xvfb.terminate()
                try:
                    self.xvfb.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.xvfb.kill()


def start_xvfb() -> tuple[subprocess.Popen, str]:
    """An Xvfb on a free display number (it picks one and writes it to us)."""
    read, write = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        proc.kill()
        raise RuntimeError("Xvfb did not start")
    return proc, f":{number}"


def start(name: str, chromium_browser=None) -> Engine:
    if name == "chromium":
        return ChromiumEngine(chromium_browser)
    if name == "firefox":
        return FirefoxEngine()
    if name == "webkit":
        return WebKitEngine()
    raise ValueError(f"no engine {name}")


if __name__ == "__main__":
    for engine, said in availability().items():
        print(f"{engine}: {said}")
    sys.exit(0)
