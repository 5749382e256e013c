"""Our own scripts and style sheets ship minified (build.py, minify_own_files):
each file on its own, with esbuild, after everything the build reads from
their text and before the service worker's list hashes their bytes.

The tests of the built site read the dist/ that QUET_DIST names (`python
build.py test` sets it), or else the repo's dist/ if it has been built; the
tests of minified() itself run esbuild (pinned, from .cache/)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (the repo's build.py)

WEB = build.WEB


@pytest.fixture(scope="module")
def dist() -> Path:
    folder = Path(os.environ.get("QUET_DIST") or build.DIST)
    if not (folder / "build.json").exists():
        pytest.skip(f"no built site in {folder} (run `python build.py` or set QUET_DIST)")
    return folder


@pytest.fixture(scope="module")
def esbuild() -> Path:
    return build.esbuild()


def own_files(suffixes: tuple[str, ...] = build.MINIFIED) -> list[str]:
    """The files of web/ the build minifies, as paths relative to web/."""
    return sorted(p.relative_to(WEB).as_posix() for p in WEB.rglob("*")
                  if p.is_file() and p.suffix in suffixes
                  and not any(part.startswith(".") for part in p.relative_to(WEB).parts))


# -- the built site ------------------------------------------------------------------


def test_every_own_script_and_style_sheet_ships_smaller(dist: Path) -> None:
    names = own_files()
    assert {"app.js", "view/gameview.js", "style.css", "sw.js", "embed-host.js", "boards/grid.js"} <= set(names)
    def size(path: Path) -> int:  # leaving out what the build fills in (sw.js's precache list)
        return len(build.FILLED_SLOT.sub("", path.read_text()).encode())
    grown = [name for name in names if size(dist / name) >= 0.9 * size(WEB / name)]
    assert not grown, f"not minified: {grown}"


def test_comments_of_web_are_not_shipped(dist: Path) -> None:
    contract = "// Testability contract (tests outside this repo rely on it):"
    assert contract in (WEB / "app.js").read_text()
    assert "Testability contract" not in (dist / "app.js").read_text()
    # every whole-line comment of every own script, and every CSS comment
    for name in own_files((".js",)):
        shipped = (dist / name).read_text()
        comments = [line.strip()[3:] for line in (WEB / name).read_text().splitlines()
                    if line.strip().startswith("// ") and len(line.strip()) > 40]
        kept = [c for c in comments if c in shipped]
        assert not kept, f"{name} still carries comments of web/{name}: {kept[:3]}"
    for name in own_files((".css",)):
        shipped = (dist / name).read_text()
        assert "/*" not in shipped, f"{name} still carries a comment"


# Parses each file named on the command line, a module or (after "--classic")
# a classic script, without running it; prints what does not parse.
PARSE_CHECK = """
import vm from "node:vm";
import { readFileSync } from "node:fs";
let classic = false, failed = 0;
for (const file of process.argv.slice(2)) {
  if (file === "--classic") { classic = true; continue; }
  const code = readFileSync(file, "utf8");
  try {
    if (classic) new vm.Script(code, { filename: file });
    else new vm.SourceTextModule(code, { identifier: file });
  } catch (error) {
    failed += 1;
    console.log(`${file}: ${error}`);
  }
}
process.exit(failed ? 1 : 0);
"""


def test_every_shipped_script_parses(dist: Path, tmp_path: Path) -> None:
    """Node's parser (not esbuild's, which wrote them) reads every shipped
    script: a module as a module, a classic script as a script. Nothing runs."""
    if not shutil.which("node"):
        pytest.skip("no node to check the scripts' syntax with")
    names = own_files((".js",))
    modules = [str(dist / n) for n in names if Path(n).name not in build.CLASSIC_SCRIPTS]
    classic = [str(dist / n) for n in names if Path(n).name in build.CLASSIC_SCRIPTS]
    (tmp_path / "check.mjs").write_text(PARSE_CHECK)
    done = subprocess.run(["node", "--experimental-vm-modules", "--no-warnings", str(tmp_path / "check.mjs"),
                           *modules, "--classic", *classic], capture_output=True, text=True)
    assert done.returncode == 0, f"shipped scripts that do not parse:\n{done.stdout}{done.stderr[-2000:]}"
    assert len(modules) > 40 and len(classic) == 2


# An import of one of our own modules, as written in web/ or as minified
# (`import{h as e}from"./dom.js"`), static or dynamic.
OWN_IMPORT = re.compile(r'\b(?:from|import)\s*\(?\s*"(\.\.?/[^"]+\.js)"')


def imports_of(text: str) -> set[str]:
    return set(OWN_IMPORT.findall(text))


def test_the_module_graph_is_unchanged(dist: Path) -> None:
    for name in own_files((".js",)):
        source = re.sub(r"^\s*//.*$", "", (WEB / name).read_text(), flags=re.M)  # an import named in a comment is none
        assert imports_of((dist / name).read_text()) == imports_of(source), name


def test_the_module_preloads_name_what_app_js_imports_statically(dist: Path) -> None:
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', (dist / "index.html").read_text())
    # app.js's own modules first (the home page waits for those alone), then
    # the game view's, which app.js imports with the first game shown
    from_sources = build.module_preloads(WEB)
    assert preloaded == from_sources
    own = build.static_imports(WEB, "app.js")
    assert preloaded[:len(own)] == own and "view/gameview.js" not in own
    assert {"app.js", "bridge/engine.js", "view/gameview.js", "ui/dom.js"} <= set(preloaded)


def test_static_imports_reads_the_minified_modules_as_the_sources(dist: Path) -> None:
    """build.static_imports finds the same module graph in a minified module
    (one line) as in its source (e2e/test_download.py asks it of dist/)."""
    for name in own_files((".js",)):
        if Path(name).name not in build.CLASSIC_SCRIPTS:
            assert build.static_imports(dist, name) == build.static_imports(WEB, name), name
    assert len(build.static_imports(dist, "app.js")) > 20


def test_the_precache_hashes_are_the_shipped_bytes(dist: Path) -> None:
    found = re.search(r"/\* precache \*/(.*?)/\* end precache \*/", (dist / "sw.js").read_text(), re.S)
    assert found, "dist/sw.js lost its precache slot"
    files = json.loads(found[1])["files"]
    for name in own_files():
        if name == "sw.js":
            continue  # never precached: the browser fetches it past the worker
        digest = base64.b64encode(hashlib.sha256((dist / name).read_bytes()).digest()).decode()
        assert files[urllib.parse.quote(name)] == f"sha256-{digest}", name


def test_the_filled_slots_survive(dist: Path) -> None:
    facts = re.search(r"/\* build \*/ (.*?) /\* end build \*/", (dist / "worker.js").read_text())
    assert facts and json.loads(facts[1])["pyodide"] == build.PYODIDE_VERSION


def test_credits_and_licences_survive(dist: Path) -> None:
    assert "Leroy Quet" in (dist / "app.js").read_text()
    assert "Leroy Quet" in (dist / "share" / "embed-snippet.js").read_text()
    for licence in ("gifenc.LICENSE.txt", "xz-decompress.LICENSE.txt"):
        assert "License" in (dist / "vendor" / licence).read_text() or "MIT" in (dist / "vendor" / licence).read_text()


def test_nothing_of_esbuild_ships_and_no_source_map(dist: Path) -> None:
    names = [p.relative_to(dist).as_posix() for p in dist.rglob("*")]
    assert not [n for n in names if "esbuild" in n or n.endswith(".map")]
    for name in own_files((".js",)):
        assert "sourceMappingURL" not in (dist / name).read_text(), name


def test_classic_scripts_are_what_the_build_says() -> None:
    """The build minifies sw.js and embed-host.js as classic scripts, every
    other script as a module: so they must be loaded that way."""
    register = re.search(r"serviceWorker\.register\(([^)]*)\)", (WEB / "shell" / "offline.js").read_text())
    assert register and "module" not in register[1]
    for name in own_files((".js",)):
        code = re.sub(r"^\s*//.*$", "", (WEB / name).read_text(), flags=re.M)
        is_module = bool(re.search(r"^(?:import|export)\b", code, re.M))
        assert is_module != (Path(name).name in build.CLASSIC_SCRIPTS), name


# -- minified() ------------------------------------------------------------------------


def test_a_slot_keeps_its_markers_and_text(esbuild: Path) -> None:
    slot = '/* precache */ { version: "", files: {} } /* end precache */'
    text = f"// a comment\nconst PRECACHE = {slot};\nself.addEventListener(\"install\", () => PRECACHE.version);\n"
    out = build.minified(esbuild, text, "sw.js")
    assert slot in out and "a comment" not in out
    # filled again afterwards, as write_precache does on a changed folder
    assert len(build.PRECACHE_MARK.findall(out)) == 1


def test_a_legal_comment_is_kept(esbuild: Path) -> None:
    text = "/*! Quet Games: games by Leroy Quet. MIT licence. */\n// gone\nexport const x = 1 + 1;\n"
    out = build.minified(esbuild, text, "credit.js")
    assert "/*! Quet Games: games by Leroy Quet. MIT licence. */" in out and "gone" not in out


def test_minifying_is_repeatable(esbuild: Path) -> None:
    text = (WEB / "view" / "gameview.js").read_text()
    assert build.minified(esbuild, text, "gameview.js") == build.minified(esbuild, text, "gameview.js")
    css = (WEB / "style.css").read_text()
    assert build.minified(esbuild, css, "style.css") == build.minified(esbuild, css, "style.css")


def test_a_script_that_does_not_parse_stops_the_build(esbuild: Path) -> None:
    with pytest.raises(SystemExit, match="could not minify broken.js"):
        build.minified(esbuild, "export const = ;\n", "broken.js")


def test_a_module_keeps_its_exports(esbuild: Path) -> None:
    out = build.minified(esbuild, "export function openDialog(title) {\n  return title;\n}\n", "dialog.js")
    assert re.search(r"export\s*\{[^}]*\bas openDialog\b|export function openDialog\b", out), out
