#!/usr/bin/env python3
"""Build, serve and test the Quet Games site (games invented by Leroy Quet).

    python build.py                 build the static site into dist/
    python build.py serve [--port N] build if needed, then serve dist/ on 127.0.0.1
    python build.py test [PYTEST ARGS]  install test tools, build, find a browser, run pytest
    python build.py bench [--reps N]   start-up, move and size figures against bare Pyodide
                                       (--only lighthouse | first-board | proofs: docs/BENCH.md)

Standard library only. Every outside input is pinned and checked: the Pyodide
npm tarball and the shipped npm dependencies (package-lock.json) by their
sha512 integrity, the micropip and packaging wheels by sha256, the wheel build
backend by version, esbuild (a build tool only: it minifies our own scripts and
style sheets) by its platform package's sha512. Downloads are kept in .cache/,
so a rebuild needs no network.

Our own .js and .css files ship minified, each on its own (see MINIFIED): the
readable sources are in web/, with the same file names.

dist/ layout (every URL inside is relative, so it works from any sub-path):

    index.html app.js engine.js worker.js style.css boards/*.js
    build.json                   what the page and worker need to know
    engine/<hash>/quetgames.zip.xz the engine compiled, as the site's worker loads it
    wheels/<hash>/quetgames-*.whl  the engine as a wheel, for pip or micropip (the site never loads it)
    pyodide/                     the Pyodide runtime, only the files we use
    vendor/                      browser libraries from package.json's dependencies, with their licences
"""

from __future__ import annotations

import argparse
import base64
import functools
import gzip
import hashlib
import http.server
import json
import lzma
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
WEB = ROOT / "web"

PYODIDE_VERSION = "314.0.7"
PYODIDE_INTEGRITY = "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
# The Pyodide files the site loads; the rest of the npm package (type
# declarations, consoles, the CommonJS build, source maps) is left out.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# Shipped only xz-compressed (name + ".xz"), whatever the host does: the worker
# expands them as they stream in (web/bridge/xz.js). python_stdlib.zip is first cut
# down to what the engine imports (tools/stdlib_closure.mjs).
COMPRESSED = ("pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# The npm package ships the core only; these wheels come from PyPI, at the
# versions Pyodide's own lock file names, checked by their PyPI sha256.
LOCK_WHEELS = {
    "micropip": ("micropip-0.11.1-py3-none-any.whl", "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"),
    "packaging": ("packaging-26.1-py3-none-any.whl", "5d9c0669c6285e491e0ced2eee587eaf67b670d94a19e94e3984a481aba6802f"),
}
BUILD_BACKEND = "setuptools==80.9.0"  # must match [build-system] requires in pyproject.toml
SOURCE_DATE_EPOCH = "315532800"  # 1980-01-01: zip's earliest date, so the wheel is byte-for-byte repeatable

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".gz": "application/gzip",  # the page expands these itself: no Content-Encoding
    ".xz": "application/x-xz",  # and the worker these
    ".whl": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
}


def log(message: str) -> None:
    print(f"build: {message}", file=sys.stderr, flush=True)


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    log("$ " + " ".join(str(c) for c in cmd))
    return subprocess.run(cmd, check=True, **kwargs)


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- pinned inputs ---------------------------------------------------------------


def pyodide_tarball() -> Path:
    """The pinned Pyodide npm tarball, fetched once with `npm pack` and checked."""
    return npm_tarball("pyodide", PYODIDE_VERSION, PYODIDE_INTEGRITY)


def npm_tarball(name: str, version: str, integrity: str) -> Path:
    """The npm package `name`@`version`, fetched once into .cache/ with `npm pack`
    and checked against its pinned `integrity` (sha512-…, as npm's lock writes it)."""
    # npm pack names a scoped package's file without its @ and with - for the
    # slash: @esbuild/linux-x64 -> esbuild-linux-x64-<version>.tgz
    file = f"{name.removeprefix('@').replace('/', '-')}-{version}.tgz"
    tgz = CACHE / file
    if not tgz.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
            run(["npm", "pack", f"{name}@{version}", "--pack-destination", tmp, "--silent"],
                stdout=subprocess.DEVNULL)
            fetched = Path(tmp) / file
            check_integrity(fetched, integrity)
            fetched.replace(tgz)
    check_integrity(tgz, integrity)
    return tgz


def check_integrity(path: Path, integrity: str) -> None:
    algo, _, want = integrity.partition("-")
    got = base64.b64encode(hashlib.new(algo, path.read_bytes()).digest()).decode()
    if got != want:
        raise SystemExit(f"build: {path.name} does not match its pinned integrity {integrity}; "
                         f"it hashes to {algo}-{got}. Delete it and build again.")


# Browser libraries the site ships: the "dependencies" of package.json (the
# devDependencies are test tools, never shipped), at the version and sha512
# package-lock.json pins. For each, the files copied into dist/vendor/ (the
# licence always among them); a module's `//# sourceMappingURL` line is
# dropped, since its map is not shipped.
VENDORED = {
    # gifenc (MIT): encodes the animated GIF of a game's moves (picture.js), loaded only then
    "gifenc": {"package/dist/gifenc.esm.js": "gifenc.esm.js", "package/LICENSE.md": "gifenc.LICENSE.txt"},
    # xz-decompress (MIT; xz-embedded inside is public domain): only its wasm,
    # which the worker drives itself (web/bridge/xz.js) to expand Python's downloads.
    # The package has no licence file: its bundle's header names the licences.
    "xz-decompress": {"package/dist/package/xz-decompress.js": ["xz-decompress.wasm", "xz-decompress.LICENSE.txt"]},
}
SOURCE_MAP_LINE = re.compile(rb"\n//# sourceMappingURL=[^\n]*\n?$")
WASM_DATA_URL = re.compile(rb'"data:application/wasm;base64,([A-Za-z0-9+/=]+)"')
HEADER_COMMENT = re.compile(rb"\A/\*!(.*?)\*/", re.S)


def vendored_bytes(name: str, target: str, data: bytes) -> bytes:
    """What `target` in vendor/ holds, taken from `data`, a file of package `name`."""
    if target.endswith(".js"):
        return SOURCE_MAP_LINE.sub(b"\n", data)
    if target.endswith(".wasm"):  # a bundle carrying its wasm as a data: URL
        found = WASM_DATA_URL.findall(data)
        if len(found) != 1:
            raise SystemExit(f"build: {name} no longer holds exactly one wasm data: URL")
        return base64.b64decode(found[0])
    if target.endswith(".LICENSE.txt") and (header := HEADER_COMMENT.match(data)):  # the bundle's licence header
        lines = [line.strip(" *") for line in header[1].decode().splitlines()]
        return ("\n".join(line for line in lines if line) + "\n").encode()
    return data


XZ_DECODER = "vendor/xz-decompress.wasm"  # what the worker expands the files of COMPRESSED with


def copy_vendored(out: Path) -> None:
    """Copy the shipped npm dependencies' files into out/vendor/ (see VENDORED)."""
    wanted = json.loads((ROOT / "package.json").read_text()).get("dependencies", {})
    locked = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    if set(wanted) != set(VENDORED):
        raise SystemExit(f"build: package.json's dependencies {sorted(wanted)} are not the vendored {sorted(VENDORED)}")
    folder = out / "vendor"
    folder.mkdir(exist_ok=True)
    for name, files in VENDORED.items():
        entry = locked[f"node_modules/{name}"]
        if entry["version"] != wanted[name]:
            raise SystemExit(f"build: package-lock.json has {name} {entry['version']}, package.json pins {wanted[name]}: run npm install")
        with tarfile.open(npm_tarball(name, entry["version"], entry["integrity"])) as tar:
            for inner, targets in files.items():
                member = tar.extractfile(inner)
                if member is None:
                    raise SystemExit(f"build: {name} {entry['version']} has no {inner}")
                data = member.read()
                for target in [targets] if isinstance(targets, str) else targets:
                    (folder / target).write_bytes(vendored_bytes(name, target, data))


def lock_wheels() -> dict[str, Path]:
    """The micropip and packaging wheels, fetched once from PyPI and checked."""
    folder = CACHE / "pyodide-wheels"
    missing = [name for name, (file, _) in LOCK_WHEELS.items() if not (folder / file).exists()]
    if missing:
        folder.mkdir(parents=True, exist_ok=True)
        pins = [f"{name}=={LOCK_WHEELS[name][0].split('-')[1]}" for name in missing]
        run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
             "--python-version", "3.14", "--only-binary=:all:", "--no-deps", "-d", str(folder), *pins])
    paths = {}
    for name, (file, want) in LOCK_WHEELS.items():
        path = folder / file
        if sha256_of(path) != want:
            raise SystemExit(f"build: {path} does not match its pinned sha256 {want}; delete it and build again")
        paths[name] = path
    return paths


def build_backend() -> Path:
    """A folder holding the pinned wheel build backend, so `pip wheel` can run offline."""
    folder = CACHE / "build-backend"
    name, _, version = BUILD_BACKEND.partition("==")
    if not any(folder.glob(f"{name}-{version}-*.whl")):
        folder.mkdir(parents=True, exist_ok=True)
        run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
             "--no-deps", "--only-binary=:all:", "-d", str(folder), BUILD_BACKEND])
    return folder


# -- the build -------------------------------------------------------------------


def build_engine_wheel(out: Path) -> Path:
    """Build the quetgames wheel from pyproject.toml, in a scratch copy of the
    tree so nothing (build/, *.egg-info) lands beside the sources."""
    pins = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    if pins != [BUILD_BACKEND]:
        raise SystemExit(f"build: pyproject.toml's build backend {pins} differs from build.py's {BUILD_BACKEND}")
    backend = build_backend()
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        for name in ("pyproject.toml", "README.md", "LICENSE"):
            if (ROOT / name).exists():
                shutil.copy2(ROOT / name, src / name)
        shutil.copytree(ROOT / "py", src / "py",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".*"))
        wheels = Path(tmp) / "wheels"
        env = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
        run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index",
             "--find-links", str(backend), "-w", str(wheels), str(src)], env=env)
        (wheel,) = wheels.glob("quetgames-*.whl")
        digest = sha256_of(wheel)
        target = out / "wheels" / digest[:16]
        target.mkdir(parents=True)
        return Path(shutil.copy2(wheel, target / wheel.name))


def pyodide_runtime() -> Path:
    """The pinned Pyodide files, whole, unpacked once into .cache/ (the build
    trims and compresses copies of them; the tests and the benchmark also use
    them as they are, for a bare Pyodide)."""
    folder = CACHE / f"pyodide-{PYODIDE_VERSION}"
    names = (*PYODIDE_FILES, "pyodide-lock.json")
    if not all((folder / name).exists() for name in names):
        tarball = pyodide_tarball()
        scratch = Path(tempfile.mkdtemp(dir=CACHE, prefix=".pyodide-"))
        with tarfile.open(tarball) as tar:
            for name in names:
                data = tar.extractfile(tar.getmember(f"package/{name}")).read()  # type: ignore[union-attr]
                (scratch / name).write_bytes(data)
        shutil.rmtree(folder, ignore_errors=True)
        scratch.replace(folder)
    return folder


def gzipped(data: bytes) -> bytes:
    """Standard gzip at zlib's best, with no name or time inside (same input,
    same bytes)."""
    return gzip.compress(data, compresslevel=9, mtime=0)


# xz settings for what the worker expands: the strongest preset, with a
# dictionary of 8 MB (the wasm is 9.6 MB: a larger one gains 0.01%, and the
# decoder in the browser allocates it in full), and CRC32, which the decoder
# checks (xz-embedded, in vendor/xz-decompress.wasm). Against the best gzip (zopfli):
# the wasm 3.42 -> 2.64 MB, the standard library 0.64 -> 0.49 MB.
XZ_FILTERS = [{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "dict_size": 1 << 23}]


def xz_packed(data: bytes) -> bytes:
    """`data` as one .xz stream (see XZ_FILTERS), checked by expanding it
    again. Kept in .cache/ by content, since the wasm takes some 6 s."""
    key = CACHE / "xz" / f"{hashlib.sha256(data).hexdigest()}-{hashlib.sha256(repr(XZ_FILTERS).encode()).hexdigest()[:8]}.xz"
    if key.exists():
        return key.read_bytes()
    packed = lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, filters=XZ_FILTERS)
    if lzma.decompress(packed) != data:
        raise SystemExit("build: xz did not round-trip; delete .cache/xz and build again")
    key.parent.mkdir(parents=True, exist_ok=True)
    key.write_bytes(packed)
    return packed


def compiled_python(runtime: Path, wheel: Path) -> dict[str, bytes]:
    """What Python the browser gets, as two stored zips of sourceless .pyc files
    compiled by the pinned Pyodide itself (tools/stdlib_closure.mjs, run in
    Node): "python_stdlib.zip", the standard library cut down to the modules
    the site really imports, and "quetgames.zip", the engine's modules the
    browser imports. Found by starting Python as the worker does, with the
    whole library, and making every bridge call (tools/bridge_tour.py). Kept
    in .cache/ by its inputs."""
    tools = ROOT / "tools"
    inputs = [PYODIDE_INTEGRITY.encode(), wheel.read_bytes(),
              (tools / "stdlib_closure.mjs").read_bytes(), (tools / "bridge_tour.py").read_bytes()]
    key = CACHE / "stdlib" / hashlib.sha256(b"\0".join(inputs)).hexdigest()[:32]
    stdlib, engine = key.with_suffix(".zip"), key.with_suffix(".engine.zip")
    if not (stdlib.exists() and engine.exists()):
        if not shutil.which("node"):
            raise SystemExit("build: Node.js is needed to compile the engine and find the standard library it uses "
                             "(it runs Pyodide once); install Node 20 or newer")
        key.parent.mkdir(parents=True, exist_ok=True)
        scratch = [stdlib.with_suffix(".part"), engine.with_suffix(".part")]
        found = subprocess.run(["node", str(tools / "stdlib_closure.mjs"), str(runtime), str(wheel),
                                str(tools / "bridge_tour.py"), *map(str, scratch)],
                               capture_output=True, text=True)
        if found.returncode != 0:
            raise SystemExit(f"build: running the engine in Pyodide (Node) failed:\n{found.stderr[-3000:]}")
        report = json.loads(found.stdout.strip().splitlines()[-1])
        if report["problems"]:
            raise SystemExit("build: the bridge tour failed in Pyodide:\n  " + "\n  ".join(report["problems"]))
        log(f"standard library: {len(report['files'])} of the modules Python loaded, "
            f"{report['bytes'] / 1e6:.2f} MB before compression; engine: {len(report['engine'])} modules compiled, "
            f"{report['engine_bytes'] / 1e3:.0f} kB")
        scratch[1].replace(engine)
        scratch[0].replace(stdlib)
    return {"python_stdlib.zip": stdlib.read_bytes(), "quetgames.zip": engine.read_bytes()}


def packed_file(raw: bytes, target: Path, url: str) -> dict:
    """Write `raw` xz-compressed to `target`; what the worker needs to know of it."""
    packed = xz_packed(raw)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(packed)
    return {"url": url, "size": len(packed), "raw_size": len(raw),
            "sha256": hashlib.sha256(packed).hexdigest(), "raw_sha256": hashlib.sha256(raw).hexdigest()}


def copy_pyodide(out: Path, wheel: Path) -> dict:
    """Put the Pyodide runtime into `out`/pyodide/: pyodide.mjs as it is, the
    big files xz-compressed, the standard library trimmed; the engine compiled, as
    `out`/engine/<hash>/quetgames.zip.xz (the folder is the start of its
    sha256, so a new engine never meets a stale cached one); a lock file
    listing exactly the micropip and packaging wheels shipped beside them.
    Returns what the worker needs to know of them (see write_worker_facts)."""
    runtime = pyodide_runtime()
    python = compiled_python(runtime, wheel)
    target = out / "pyodide"
    target.mkdir(parents=True)
    shutil.copy2(runtime / "pyodide.mjs", target / "pyodide.mjs")
    files = {}
    for name in COMPRESSED:
        raw = python[name] if name in python else (runtime / name).read_bytes()
        files[name] = packed_file(raw, target / f"{name}.xz", f"pyodide/{name}.xz")
    engine = python["quetgames.zip"]
    folder = f"engine/{hashlib.sha256(engine).hexdigest()[:16]}"
    files["quetgames.zip"] = packed_file(engine, out / folder / "quetgames.zip.xz", f"{folder}/quetgames.zip.xz")
    lock = json.loads((runtime / "pyodide-lock.json").read_text())
    shipped = {}
    for name, path in lock_wheels().items():
        shutil.copy2(path, target / path.name)
        entry = lock["packages"][name]
        entry.update(file_name=path.name, sha256=sha256_of(path), version=path.name.split("-")[1])
        shipped[name] = entry
    # Drop the entries for the hundreds of packages we do not ship: a request
    # for one would only 404, and this way the lock says what dist/ holds.
    lock["packages"] = shipped
    (target / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n")
    return {"files": files, "lock": lock}


WORKER_FACTS = re.compile(r"/\* build \*/.*?/\* end build \*/", re.S)


def write_worker_facts(out: Path, facts: dict) -> None:
    """Write into `out`/worker.js what it must know before its first request
    (file names, sizes and hashes, the lock), so its downloads start at once
    instead of after a fetch of build.json."""
    worker = out / "worker.js"
    text, count = WORKER_FACTS.subn(lambda _: "/* build */ " + json.dumps(facts, separators=(",", ":")) + " /* end build */",
                                    worker.read_text())
    if count != 1:
        raise SystemExit(f"build: {worker} has no /* build */ ... /* end build */ slot for the build's facts")
    worker.write_text(text)


def engine_env() -> dict[str, str]:
    """The environment of a Python run on the engine in py/ (the build's checks and answers)."""
    return {**os.environ, "PYTHONPATH": str(ROOT / "py"), "PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8"}


def engine_catalog() -> list[dict]:
    """The engine's own answer to the bridge call "games" (each game's id, code,
    name, inventor, summary, rules, options and computer levels), from py/ run by
    this Python. It goes into build.json so the page can draw the game list, the
    setup screens and the rules before Pyodide has arrived; copied, never
    restated, so the engine stays the one source of those texts."""
    program = "import sys, quetgames.bridge; sys.stdout.write(quetgames.bridge.call('games'))"
    env = engine_env()
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, env=env, capture_output=True, text=True, encoding="utf-8")
    try:
        answer = json.loads(done.stdout)
    except ValueError:
        answer = {}
    if done.returncode != 0 or not answer.get("ok"):
        raise SystemExit(f"build: the engine could not list its games: {answer.get('error') or done.stderr.strip()}")
    return answer["result"]


BALANCE_REPORT = ROOT / "docs" / "balance.json"


def balance_figures() -> dict | None:
    """The balance figures the setup screens and "How to play" show, from
    docs/balance.json (written by `python -m quetgames balance`), trimmed by the
    engine (quetgames.balance.page_data: each row's full options, seats and
    figures). None when there is no report."""
    if not BALANCE_REPORT.exists():
        return None
    program = ("import json, sys, quetgames.balance as b; "
               "sys.stdout.write(json.dumps(b.page_data(json.loads(sys.stdin.read()))))")
    env = engine_env()
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, env=env, capture_output=True, text=True,
                          encoding="utf-8", input=BALANCE_REPORT.read_text(encoding="utf-8"))
    if done.returncode != 0:
        raise SystemExit(f"build: the engine could not read {BALANCE_REPORT}: {done.stderr.strip()}")
    figures = json.loads(done.stdout)
    if figures["stale"]:
        log(f"balance: left out {len(figures['stale'])} rows measured with other options than today's: rerun `quetgames balance`")
    return figures


PUZZLES = ROOT / "docs" / "puzzles.json"


def start_puzzle_check() -> subprocess.Popen | None:
    """Start re-proving every puzzle of docs/puzzles.json (written by `python
    -m quetgames puzzles`) from its record (quetgames.puzzles.check_all), in
    a process of its own beside the rest of the build (it takes half a
    minute). None without a file."""
    if not PUZZLES.exists():
        return None
    program = ("import json, sys, quetgames.puzzles as p; "
               f"d = json.load(open({str(PUZZLES)!r}, encoding='utf-8')); "
               "sys.stdout.write(json.dumps({'problems': p.check_all(d) + p.spread_problems(d['puzzles']), "
               "'spread': p.spread(d['puzzles'])}))")
    env = engine_env()
    return subprocess.Popen([sys.executable, "-c", program], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, encoding="utf-8")


def write_puzzles(out: Path, check: subprocess.Popen | None, started: float) -> int:
    """Copy docs/puzzles.json into `out` (as puzzles.json.gz) once `check` (start_puzzle_check)
    has re-proved every puzzle: a puzzle the rules or the solvers no longer
    bear out stops the build. The number of puzzles; 0 without a file."""
    if check is None:
        return 0
    stdout, stderr = check.communicate()
    if check.returncode != 0:
        raise SystemExit(f"build: the engine could not check {PUZZLES}: {stderr.strip()}")
    answer = json.loads(stdout)
    problems = answer["problems"]
    # each game's ratings (docs/PUZZLES.md, "Difficulty"): a spread the rule refuses stops the build too
    for game, spread in answer["spread"].items():
        log(f"puzzles: {game}: {spread['near']} of {spread['puzzles']} rated within 200 of 1200, "
            f"at most {spread['most']} on one rating ({spread['at']}), {spread['low']} to {spread['high']}")
    if problems:
        raise SystemExit(f"build: {len(problems)} puzzles in {PUZZLES} do not hold: " + "; ".join(problems[:5]))
    data = json.loads(PUZZLES.read_text(encoding="utf-8"))
    # gzipped whatever the host does (web/features/puzzle-board.js expands it, with the
    # browser's own DecompressionStream): 196 kB of JSON is 19 kB, and a plain
    # host sends it on every first visit (the offline copy)
    (out / "puzzles.json.gz").write_bytes(gzipped((json.dumps(data, separators=(",", ":")) + "\n").encode()))
    log(f"puzzles: {len(data['puzzles'])} re-proved, {time.perf_counter() - started:.1f} s after the build began")
    return len(data["puzzles"])


def write_known(out: Path, started: float) -> int:
    """Write into `out`/known/ what a lesson's or a puzzle's page first asks
    the engine, answered by the engine now (quetgames.known): the page draws
    its first screen from it before Python has arrived (web/bridge/known.js).
    After write_puzzles, so only puzzles that were re-proved are answered.
    The number of files."""
    program = ("import json, sys, quetgames.known as k; "
               f"p = json.load(open({str(PUZZLES)!r}, encoding='utf-8'))['puzzles'] if {PUZZLES.exists()} else []; "
               "sys.stdout.write(json.dumps(k.known_answers(p), separators=(',', ':')))")
    env = engine_env()
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, env=env, capture_output=True, text=True, encoding="utf-8")
    if done.returncode != 0:
        raise SystemExit(f"build: the engine could not answer the lessons' and puzzles' first questions: {done.stderr.strip()}")
    folder = out / "known"
    folder.mkdir()
    files = json.loads(done.stdout)
    for name, answer in files.items():
        (folder / name).write_text(json.dumps(answer, separators=(",", ":"), ensure_ascii=False) + "\n", encoding="utf-8")
    log(f"known answers: {len(files)} files, {sum(f.stat().st_size for f in folder.iterdir()) // 1000} kB, "
        f"{time.perf_counter() - started:.1f} s after the build began")
    return len(files)


def check_lessons(started: float) -> int:
    """Re-check every lesson step against the engine (quetgames.lessons.problems:
    each position replayed, each stated answer derived again, every rule
    section taught; docs/LEARN.md), from py/ run by this Python: a step that
    no longer holds stops the build, named. The number of steps checked."""
    program = ("import json, sys, quetgames.lessons as l; "
               "sys.stdout.write(json.dumps({'problems': l.problems(), 'steps': sum(len(x.steps) for x in l.LESSONS.values())}))")
    env = engine_env()
    begun = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, env=env, capture_output=True, text=True, encoding="utf-8")
    if done.returncode != 0:
        raise SystemExit(f"build: the engine could not check its lessons: {done.stderr.strip()}")
    answer = json.loads(done.stdout)
    if answer["problems"]:
        raise SystemExit(f"build: {len(answer['problems'])} lesson steps do not hold: " + "; ".join(answer["problems"][:5]))
    log(f"lessons: {answer['steps']} steps re-checked in {time.perf_counter() - begun:.1f} s "
        f"({time.perf_counter() - started:.1f} s after the build began)")
    return int(answer["steps"])


def build(out: Path = DIST) -> dict:
    started = time.perf_counter()
    # Build beside dist/ under a unique name and swap it in at the end, so a
    # server reading dist/ (or a second build running at the same time) never
    # sees half a site.
    scratch = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}-new-"))
    puzzle_check = start_puzzle_check()
    try:
        check_lessons(started)  # a second or so: before anything is built, so a broken step stops the build at once
        shutil.copytree(WEB, scratch, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".*", "*~"))
        wheel = build_engine_wheel(scratch)
        runtime = copy_pyodide(scratch, wheel)
        copy_vendored(scratch)
        decoder = {"url": XZ_DECODER, "size": (scratch / XZ_DECODER).stat().st_size, "sha256": sha256_of(scratch / XZ_DECODER)}
        boards = sorted(p.stem for p in (scratch / "boards").glob("*.js"))
        info = {
            "name": "Quet Games",
            "version": tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"],
            "wheel": wheel.relative_to(scratch).as_posix(),
            "wheel_sha256": sha256_of(wheel),
            "pyodide": PYODIDE_VERSION,
            "pyodide_wheels": {name: entry["file_name"] for name, entry in runtime["lock"]["packages"].items()},
            "pyodide_files": runtime["files"],
            "xz_decoder": decoder,
            "boards": boards,
            "games": engine_catalog(),  # the page draws games, setups and rules from it before Python has loaded
            "balance": balance_figures(),  # in here, not a file of its own: the setup screen needs no second request
            "puzzles": write_puzzles(scratch, puzzle_check, started),  # how many dist/puzzles.json.gz holds, every one re-proved
        }
        write_known(scratch, started)
        # compact: every page fetches it before its first screen (62 kB indented, 43 kB so)
        (scratch / "build.json").write_text(json.dumps(info, separators=(",", ":"), ensure_ascii=False) + "\n", encoding="utf-8")
        write_worker_facts(scratch, {"pyodide": PYODIDE_VERSION, "files": runtime["files"], "decoder": decoder, "lock": runtime["lock"]})
        write_module_preloads(scratch)
        allow_inline_scripts(scratch / "index.html")
        # after everything that reads the scripts' text (the module preloads
        # follow their import lines), before the precache hashes their bytes
        minify_own_files(scratch)
        write_precache(scratch)  # keep last: it lists every file written above
        scratch.chmod(0o755)
        swap_in(scratch, out)
    except BaseException:
        if puzzle_check is not None and puzzle_check.poll() is None:
            puzzle_check.kill()
            puzzle_check.wait()
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    log(f"built {out} in {time.perf_counter() - started:.1f} s: {size_report(out)}")
    return info


# A static import of one of our modules (./ or ../, web/ being in folders): at
# the start of a line, as web/ writes them, or after a ; as well, as the minified files (one line) have them.
MODULE_IMPORT = re.compile(r'(?:^|;)(?:import|export)\b[^;]*?from\s*"(\.\.?/[^"]+\.js)"|(?:^|;)import\s*"(\.\.?/[^"]+\.js)"', re.M)
PRELOAD_SLOT = re.compile(r"<!-- modulepreload -->.*?<!-- /modulepreload -->", re.S)


def static_imports(folder: Path, entry: str) -> list[str]:
    """`entry` and every module it imports statically, directly or not, as paths
    relative to `folder` in the order first met."""
    found, queue = [], [entry]
    while queue:
        name = queue.pop(0)
        if name in found:
            continue
        found.append(name)
        source = (folder / name).read_text()
        for match in MODULE_IMPORT.finditer(source):
            target = (Path(name).parent / (match[1] or match[2])).as_posix()
            queue.append(os.path.normpath(target))
    return found


# Modules app.js imports when a game is first shown (the game view), preloaded
# after its own: a game's link does not wait for them, and the home page,
# which needs none of them, is drawn once app.js's own have arrived.
LATER_PRELOADS = ("view/gameview.js",)


def module_preloads(folder: Path) -> list[str]:
    """app.js and every module it imports statically, then the modules of
    LATER_PRELOADS not among them, each in the order first met."""
    first = static_imports(folder, "app.js")
    later = [name for entry in LATER_PRELOADS for name in static_imports(folder, entry) if name not in first]
    return first + list(dict.fromkeys(later))


def write_module_preloads(out: Path) -> None:
    """List in index.html every module app.js needs, and then the game view's,
    so the browser asks for them all at once instead of one level of imports
    after another."""
    page = out / "index.html"
    links = "".join(f'\n<link rel="modulepreload" href="{name}">' for name in module_preloads(out))
    text, count = PRELOAD_SLOT.subn(lambda _: f"<!-- modulepreload -->{links}\n<!-- /modulepreload -->", page.read_text())
    if count != 1:
        raise SystemExit(f"build: {page} has no <!-- modulepreload --> ... <!-- /modulepreload --> slot")
    page.write_text(text)


INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)
CSP_SCRIPT_SRC = re.compile(r"(<meta http-equiv=\"Content-Security-Policy\" content=\"[^\"]*?script-src 'self')([^;\"]*)")
CSP_HASH = re.compile(r" 'sha256-[^']*'")


def allow_inline_scripts(page: Path) -> None:
    """Name each inline <script> of `page` by its sha256 in the page's CSP
    (script-src, after 'self'; the page's other sources kept as they are), so
    exactly those scripts run and no other inline code can."""
    text = page.read_text()
    hashes = "".join(f" 'sha256-{base64.b64encode(hashlib.sha256(m[1].encode()).digest()).decode()}'"
                     for m in INLINE_SCRIPT.finditer(text))
    text, count = CSP_SCRIPT_SRC.subn(lambda m: m[1] + hashes + CSP_HASH.sub("", m[2]), text)
    if count != 1:
        raise SystemExit(f"build: {page} has no Content-Security-Policy with script-src 'self' for its inline scripts")
    page.write_text(text)


# -- minifying -------------------------------------------------------------------

# Our own scripts and style sheets ship minified: comments and spaces gone,
# local names shortened, each file on its own (no bundling: the modules, their
# file names and exports are those of web/, where the readable sources are; no
# source maps). A host that does not compress sends every byte, and web/ is
# generously commented: minified, our scripts and style sheets are about half
# as big (670 kB -> 360 kB; gzipped, 224 kB -> 141 kB). esbuild does it, a build tool
# only (nothing of it ships), pinned like the rest: its native binary comes in
# one npm package per platform, checked by sha512.
ESBUILD_VERSION = "0.28.2"
ESBUILD_PACKAGES = {  # platform.machine() on Linux -> the npm package holding esbuild, its integrity
    "x86_64": ("@esbuild/linux-x64", "sha512-4xTZr1FUmSoQW4XIWmit3tzQrUTZM+N3P0XV8xROKYF50XfI7xeO90+1bZvNwxIufQ9hDQVRJH5YhgPVF8A/HQ=="),
    "aarch64": ("@esbuild/linux-arm64", "sha512-pW4AC0P3it8c7do9MVM4p51FzHzdM/TZrerurgRcHJ2WTa1VQ1CIq18xncfpBJw4ojkiZZrKW2yIBWBP92j6Ug=="),
}
MINIFIED = (".js", ".css")  # the files copied from web/, not those of NOT_OURS
NOT_OURS = {"vendor", "pyodide"}  # the npm dependencies' files and Pyodide's, shipped as their makers wrote them
# Classic scripts, not modules: the service worker (offline.js registers it
# without type: "module") and the host pages' script. Their top-level names
# are globals, so esbuild keeps them; every other script is a module.
CLASSIC_SCRIPTS = {"sw.js", "embed-host.js"}
# The slots build.py fills by regex (write_worker_facts, write_precache): each is kept whole through minifying, markers included, so
# it can be filled before or after, and filled again (write_precache on a
# changed folder).
FILLED_SLOT = re.compile(r"/\* (build|precache) \*/.*?/\* end \1 \*/", re.S)


def esbuild() -> Path:
    """The pinned esbuild binary for this machine, unpacked once into .cache/."""
    machine = platform.machine()
    if sys.platform != "linux" or machine not in ESBUILD_PACKAGES:
        raise SystemExit(f"build: esbuild (which minifies our scripts) is pinned for Linux on x86_64 and aarch64 only, "
                         f"not {sys.platform} on {machine}: add its @esbuild/ package to ESBUILD_PACKAGES in build.py")
    name, integrity = ESBUILD_PACKAGES[machine]
    binary = CACHE / f"esbuild-{ESBUILD_VERSION}-{machine}" / "esbuild"
    if not binary.exists():
        with tarfile.open(npm_tarball(name, ESBUILD_VERSION, integrity)) as tar:
            member = tar.extractfile("package/bin/esbuild")
            if member is None:
                raise SystemExit(f"build: {name} {ESBUILD_VERSION} has no package/bin/esbuild")
            data = member.read()
        binary.parent.mkdir(parents=True, exist_ok=True)
        part = binary.with_suffix(".part")
        part.write_bytes(data)
        part.chmod(0o755)
        part.replace(binary)
    return binary


def minified(tool: Path, text: str, name: str) -> str:
    """`text`, the file `name` of web/, minified by esbuild (`tool`). Each
    FILLED_SLOT is swapped for a placeholder name before and put back after."""
    slots: list[str] = []

    def hold(match: re.Match) -> str:
        slots.append(match[0])
        return f"__quet_slot_{len(slots) - 1}__"

    held = FILLED_SLOT.sub(hold, text)
    args = [str(tool), "--minify", "--charset=utf8", "--legal-comments=inline", "--log-level=error"]
    if name.endswith(".css"):
        args.append("--loader=css")
    else:
        # es2022: what web/ is written in (private methods, class fields); the
        # minifier writes nothing newer
        args += ["--loader=js", "--target=es2022"] + ([] if Path(name).name in CLASSIC_SCRIPTS else ["--format=esm"])
    done = subprocess.run(args, input=held, capture_output=True, text=True, encoding="utf-8")
    if done.returncode != 0:
        raise SystemExit(f"build: esbuild could not minify {name}:\n{done.stderr.strip()}")
    out = done.stdout
    for i, slot in enumerate(slots):
        placeholder = f"__quet_slot_{i}__"
        if out.count(placeholder) != 1:
            raise SystemExit(f"build: minifying {name} lost or copied its slot {slot[:20]}...")
        out = out.replace(placeholder, slot)
    return out


def minify_own_files(out: Path) -> None:
    """Minify in place every .js and .css file of `out` that came from web/ (MINIFIED)."""
    tool = esbuild()
    before = after = 0
    names = sorted(rel for p in out.rglob("*")
                   if p.suffix in MINIFIED and p.is_file()
                   and (rel := p.relative_to(out).as_posix()).split("/")[0] not in NOT_OURS)
    for name in names:
        path = out / name
        text = path.read_text(encoding="utf-8")
        small = minified(tool, text, name)
        path.write_text(small, encoding="utf-8")
        before, after = before + len(text.encode()), after + len(small.encode())
    log(f"minified {len(names)} of our scripts and style sheets with esbuild {ESBUILD_VERSION}: "
        f"{before / 1e3:.0f} kB -> {after / 1e3:.0f} kB")


# Files the service worker does not keep: itself (the browser fetches it past
# the worker), the hosts' _headers file, anything dot-named, and what only a bare Pyodide with micropip
# uses (the lock file and its two wheels, and the engine's own wheel: the worker has the lock written in,
# loads the engine compiled from engine/ and never installs a package). Add test- or bench-only files here.
# The app's PNG icons are left out too: only the browser asks for them, online, when it
# installs the site as an app (an installed app keeps its own copy); offline, no page uses
# them (icon.svg, the pages' icon, is kept). 22 kB less on a first visit.
# Each puzzle's known answer (known/, 2.6 MB in 500 files) only draws a puzzle before Python
# has arrived; offline, Python is in the cache, so a puzzle waits a second for it, not the network.
PRECACHE_SKIP = re.compile(r"known/puzzle-[^/]+\.json|sw\.js|_headers|pyodide/pyodide-lock\.json|pyodide/[^/]+\.whl|wheels/[^/]+/[^/]+\.whl|icons/[^/]+\.png")
PRECACHE_MARK = re.compile(r"/\* precache \*/.*?/\* end precache \*/", re.S)


def write_precache(out: Path) -> str:
    """Write into `out`/sw.js the list of every file in `out` with its sha256,
    and a version hashing them all; return the version. Run again on a changed
    folder, it rewrites the list in place."""
    files = {}
    for path in sorted(out.rglob("*")):
        rel = path.relative_to(out).as_posix()
        skipped = PRECACHE_SKIP.fullmatch(rel) or any(part.startswith(".") for part in rel.split("/"))
        if path.is_file() and not skipped:
            digest = hashlib.sha256(path.read_bytes()).digest()
            files[urllib.parse.quote(rel)] = "sha256-" + base64.b64encode(digest).decode()
    version = hashlib.sha256("".join(f"{k} {v}\n" for k, v in files.items()).encode()).hexdigest()[:16]
    sw = out / "sw.js"
    text, count = PRECACHE_MARK.subn(
        lambda _: "/* precache */ " + json.dumps({"version": version, "files": files}) + " /* end precache */",
        sw.read_text())
    if count != 1:
        raise SystemExit(f"build: {sw} has no /* precache */ ... /* end precache */ slot for the file list")
    sw.write_text(text)
    log(f"service worker precaches {len(files)} files, version {version}")
    return version


def swap_in(new: Path, out: Path) -> None:
    """Replace the folder `out` with `new` using renames only."""
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}-old-"))
        out.replace(old / out.name)
    new.replace(out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def size_report(out: Path) -> str:
    def total(paths) -> int:
        return sum(p.stat().st_size for p in paths if p.is_file())
    everything = list(out.rglob("*"))
    pyodide = total((out / "pyodide").rglob("*"))
    engine = total((out / "engine").rglob("*"))
    wheel = total((out / "wheels").rglob("*"))
    own = total(everything) - pyodide - engine - wheel
    return (f"Pyodide {pyodide / 1e6:.1f} MB, engine {engine / 1e3:.1f} kB compiled (wheel {wheel / 1e3:.1f} kB), "
            f"web files {own / 1e3:.1f} kB")


def inputs_newest() -> float:
    paths = [ROOT / "build.py", ROOT / "pyproject.toml", ROOT / "package-lock.json", BALANCE_REPORT, *WEB.rglob("*"), *(ROOT / "py").rglob("*.py")]
    return max(p.stat().st_mtime for p in paths if p.is_file())


def build_if_needed() -> None:
    stamp = DIST / "build.json"
    if not stamp.exists() or stamp.stat().st_mtime < inputs_newest():
        build()


# -- serving ---------------------------------------------------------------------


HEADERS_FILE = "_headers"  # per-path response headers, in the format Netlify and Cloudflare Pages read


def header_rules(text: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The rules of a _headers file: a path (a trailing * matches any rest)
    followed by indented `Name: value` lines; # starts a comment."""
    rules: list[tuple[str, list[tuple[str, str]]]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            rules.append((line.strip(), []))
        elif rules and ":" in line:
            name, _, value = line.strip().partition(":")
            rules[-1][1].append((name.strip(), value.strip()))
    return rules


def headers_for(rules: list[tuple[str, list[tuple[str, str]]]], path: str) -> list[tuple[str, str]]:
    """The headers every rule matching the site-relative URL path `path` adds."""
    def matches(pattern: str) -> bool:
        return path.startswith(pattern[:-1]) if pattern.endswith("*") else path == pattern
    return [header for pattern, headers in rules if matches(pattern) for header in headers]


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the MIME types Pyodide and module workers need, and
    the site's own _headers rules."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    protocol_version = "HTTP/1.1"  # keep-alive: one connection serves the page's dozen requests
    quiet = False
    rules: list[tuple[str, list[tuple[str, str]]]] = []

    def site_path(self) -> str | None:
        """The request's path from the site's root, or None if it is not the site's."""
        return urllib.parse.urlsplit(self.path).path

    def end_headers(self) -> None:
        # Revalidate every time: a changed build shows up on reload, unchanged
        # files still come back as 304s.
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        path = self.site_path()
        for name, value in headers_for(self.rules, path) if path is not None else ():
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, format: str, *args) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    """The threaded server, which says nothing of a browser that hangs up
    mid-answer (a page closed or a download cancelled: the tests do both)."""

    def handle_error(self, request, client_address) -> None:
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


def make_server(directory: Path = DIST, port: int = 0, quiet: bool = False,
                mounts: dict[str, Path] | None = None) -> http.server.ThreadingHTTPServer:
    """A threaded server for `directory` on 127.0.0.1 (port 0: any free one).

    `mounts` maps a URL prefix like "/_e2e/" to another folder (used by tests)."""
    mounts = {prefix: Path(path) for prefix, path in (mounts or {}).items()}

    class MountHandler(Handler):
        def translate_path(self, path: str) -> str:
            for prefix, folder in mounts.items():
                if path.startswith(prefix):
                    return _translate(folder, path[len(prefix):])
            return super().translate_path(path)

        def site_path(self) -> str | None:
            path = urllib.parse.urlsplit(self.path).path
            for prefix, folder in mounts.items():
                if path.startswith(prefix):  # the site again under a sub-path, or another folder
                    return "/" + path[len(prefix):] if folder.resolve() == Path(directory).resolve() else None
            return path

    MountHandler.quiet = quiet
    headers_file = Path(directory) / HEADERS_FILE
    MountHandler.rules = header_rules(headers_file.read_text()) if headers_file.is_file() else []
    handler = functools.partial(MountHandler, directory=str(directory))
    return Server(("127.0.0.1", port), handler)


def _translate(folder: Path, path: str) -> str:
    """Map a URL path onto `folder` the way SimpleHTTPRequestHandler does."""
    path = path.split("?", 1)[0].split("#", 1)[0]
    parts = [p for p in path.split("/") if p and p not in (".", "..")]
    return str(folder.joinpath(*parts)) if parts else str(folder)


def serve(port: int) -> None:
    build_if_needed()
    server = make_server(DIST, port)
    host, real_port = server.server_address[:2]
    print(f"Serving {DIST} at http://{host}:{real_port}/  (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


# -- testing ---------------------------------------------------------------------

VENV = CACHE / "venv"


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def test_python() -> str:
    """An interpreter with the pinned test tools: a project venv in .cache/, or
    this interpreter when a venv cannot be made here."""
    pins = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    stamp_text = json.dumps(pins)
    python = venv_python()
    if not python.exists():
        try:
            run([sys.executable, "-m", "venv", str(VENV)])
        except subprocess.CalledProcessError:
            log("cannot make a venv here; installing the test tools into this interpreter")
            shutil.rmtree(VENV, ignore_errors=True)
            python = Path(sys.executable)
    stamp = (VENV if python != Path(sys.executable) else CACHE) / "test-pins.json"
    if not stamp.exists() or stamp.read_text() != stamp_text:
        extra = []
        if python == Path(sys.executable) and any(Path(sys.prefix, "lib").glob("python3*/EXTERNALLY-MANAGED")):
            extra = ["--break-system-packages"]
        run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *extra, *pins])
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(stamp_text)
    return str(python)


def ensure_browser(python: str) -> None:
    """Make sure e2e/browser.py can find a Chromium, installing one if not; with
    Debian's, its headless shell too (the behaviour tests run in it; without
    it they run in the full browser, only slower)."""
    finder = [python, str(ROOT / "e2e" / "browser.py")]
    found = subprocess.run(finder, stdout=subprocess.DEVNULL).returncode == 0
    shell = Path("/usr/bin/chromium-headless-shell").exists()
    if found and (shell or not Path("/usr/bin/chromium").exists()):
        return
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        packages = ["chromium-headless-shell"] + ([] if found else ["chromium"])
        log(f"installing Debian's {' and '.join(packages)}")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        try:
            run(["apt-get", "update", "-qq"], env=env)
            run(["apt-get", "install", "-y", "-qq", *packages], env=env, stdout=subprocess.DEVNULL)
        except subprocess.CalledProcessError:
            if not found:
                raise
            log("the headless shell could not be installed: the behaviour tests use the full browser")
    elif not found:
        log("no Chromium found; asking Playwright to install its own")
        run([python, "-m", "playwright", "install", "chromium"])
    run(finder)


def node_test_tools() -> None:
    """npm ci the pinned devDependencies of package.json (puppeteer-core, which
    drives Firefox in e2e/cross/) into node_modules/, once per package-lock.json.
    Never part of dist/. Without npm, the Firefox tests skip and say why."""
    lock = ROOT / "package-lock.json"
    stamp = ROOT / "node_modules" / ".quet-lock-sha256"
    if not lock.exists() or not shutil.which("npm"):
        return
    if stamp.exists() and stamp.read_text() == sha256_of(lock):
        return
    env = {**os.environ, "PUPPETEER_SKIP_DOWNLOAD": "1"}  # puppeteer-core fetches no browser anyway
    try:
        run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], cwd=ROOT, env=env)
    except subprocess.CalledProcessError:
        log("npm ci failed: the Firefox tests will skip and say so")
        return
    stamp.write_text(sha256_of(lock))


def browser_summary(python: str) -> list[str]:
    """One line per engine of the cross-browser smoke set: tested, or missing and why."""
    found = subprocess.run([python, str(ROOT / "e2e" / "cross" / "engines.py")], cwd=ROOT,
                           capture_output=True, text=True)
    return found.stdout.splitlines() or [f"could not tell which browsers are present: {found.stderr.strip()}"]


def test(pytest_args: list[str]) -> int:
    python = test_python()
    build_if_needed()
    ensure_browser(python)
    node_test_tools()
    # The engine's types first (config: [tool.mypy] in pyproject.toml); a type
    # error fails the command before any test runs.
    log(f"$ {python} -m mypy")
    if subprocess.run([python, "-m", "mypy"], cwd=ROOT).returncode != 0:
        log("mypy found type errors in py/quetgames: fix them first")
        return 1
    env = {**os.environ, "QUET_DIST": str(DIST)}
    paths = [p for p in ("tests", "e2e") if (ROOT / p).is_dir()]
    if pytest_args or len(paths) < 2 or (os.cpu_count() or 1) < 2:
        cmd = [python, "-m", "pytest", *(pytest_args or paths)]
        log("$ " + " ".join(cmd))
        code = subprocess.run(cmd, cwd=ROOT, env=env).returncode
    else:
        code = both_suites(python, env)
    # Said after pytest's own summary, so a missing engine is never a silent pass.
    for line in browser_summary(python):
        log(f"browsers: {line}" + ("  <- its smoke tests were SKIPPED" if "MISSING" in line else ""))
    return code


def both_suites(python: str, env: dict[str, str]) -> int:
    """The whole suite: the engine's tests (pure Python, about two minutes)
    beside the browser tests, which spend much of their time waiting on the
    browser, so a second core cuts the wall time. The engine's report is
    printed after the browser's; the command fails if either does."""
    engine_log = CACHE / "engine-tests.log"
    engine_cmd = [python, "-m", "pytest", "tests", "-p", "no:cacheprovider"]
    browser_cmd = [python, "-m", "pytest", "e2e", "--durations=15"]  # (the slowest tests, for keeping the suite's time in check)
    log("$ " + " ".join(engine_cmd) + f"  (beside the browser tests; its report: {engine_log.relative_to(ROOT)})")
    log("$ " + " ".join(browser_cmd))
    with engine_log.open("w") as out:
        engine = subprocess.Popen(engine_cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            browser_code = subprocess.run(browser_cmd, cwd=ROOT, env=env).returncode
        finally:
            engine_code = engine.wait()
    log("the engine's tests (tests/):")
    sys.stdout.write(engine_log.read_text())
    sys.stdout.flush()
    log(f"tests/: {'passed' if engine_code == 0 else f'FAILED (exit {engine_code})'}; "
        f"e2e/: {'passed' if browser_code == 0 else f'FAILED (exit {browser_code})'}")
    return engine_code or browser_code


def bench(bench_args: list[str]) -> int:
    """Start-up, move and size figures against bare Pyodide: tools/bench.py, run
    with the test venv's Python and the same Chromium as the tests (`--only
    lighthouse`: tools/lighthouse_bench.py; `--only first-board`:
    tools/first_board_bench.py; `--only proofs`: tools/proof_bench.py)."""
    python = test_python()
    build_if_needed()
    ensure_browser(python)
    tool = "bench.py"
    if bench_args[:2] == ["--only", "lighthouse"]:  # Lighthouse's scores of every kind of page
        tool, bench_args = "lighthouse_bench.py", bench_args[2:]
    elif bench_args[:2] == ["--only", "first-board"]:  # a shared link's first board on a slow phone
        tool, bench_args = "first_board_bench.py", bench_args[2:]
    elif bench_args[:2] == ["--only", "proofs"]:  # Prime Target's proofs in a page, at 1x and 4x CPU
        tool, bench_args = "proof_bench.py", bench_args[2:]
    cmd = [python, str(ROOT / "tools" / tool), *bench_args]
    log("$ " + " ".join(cmd))
    return subprocess.run(cmd, cwd=ROOT).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("build", help="build dist/ (the default)")
    p_serve = sub.add_parser("serve", help="build if needed and serve dist/ on 127.0.0.1")
    p_serve.add_argument("--port", type=int, default=8000)
    p_test = sub.add_parser("test", help="install test tools, build, and run every test")
    p_test.add_argument("pytest_args", nargs=argparse.REMAINDER, help="passed to pytest (default: tests e2e)")
    sub.add_parser("bench", help="measure start-up, moves and sizes against bare Pyodide (docs/BENCH.md)")
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["bench"]:  # every later argument (--reps N, --help) is tools/bench.py's
        return bench(argv[1:])
    if argv[:1] == ["test"] and argv[1:2] not in (["-h"], ["--help"]):
        return test(argv[1:])  # argparse's REMAINDER refuses a leading "-x"; pytest reads them all
    args = parser.parse_args(argv)
    if args.command in (None, "build"):
        build()
        return 0
    if args.command == "serve":
        serve(args.port)
        return 0
    if args.command == "test":
        return test(args.pytest_args)
    parser.error(f"unknown command {args.command}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
