// The Python side of the page: a module worker that loads Pyodide from our own
// copy, installs the quetgames wheel and answers requests.
//
// Protocol, page -> worker: {id, call, args}
//           worker -> page: {id, ok: true, result} | {id, ok: false, error: {type, message}}
//                           {progress: "text", fraction?: 0..1} while loading
//                           {ready: true} once requests can be answered
//                           {ready: false, error: {type, message}} if loading failed
//
// Python is reached through one function, quetgames.bridge.call(name, args_json),
// which takes and returns JSON text, so nothing but strings crosses over and no
// PyProxy is ever handed out.

import { loadPyodide } from "./pyodide/pyodide.mjs";

// loadPyodide never settles if, say, the wasm is served with the wrong type. A
// fixed deadline would also kill honest loads on slow links (14 MB), so the
// limit is on silence: this long with no bytes arriving and no step finished.
const STALL_TIMEOUT_MS = 30_000;
const BASE = new URL("./", import.meta.url);
const INDEX_URL = new URL("pyodide/", BASE).href;

// How the wheel gets into site-packages. "unpack" (the default) fetches the
// wheel while Pyodide boots and unpacks it; "loadPackage" and "micropip" are
// kept for measuring (worker.js?install=...); see the README for the figures.
const INSTALL = new URL(import.meta.url).searchParams.get("install") || "unpack";
// worker.js?diagnostics also answers a few calls named "_…" that reach past the
// bridge (Python's random module, a timed computer move): the benchmark
// (tools/bench.py) and the snapshot tests use them; the site never does.
const DIAGNOSTICS = new URL(import.meta.url).searchParams.has("diagnostics");

// Memory snapshot. Most of a repeat visit used to be Python starting up and
// importing the engine; the wasm itself comes from the browser's caches. So
// the first visit snapshots Python's memory once quetgames is imported
// (pyodide.makeMemorySnapshot) and keeps it in Cache Storage, on this device
// only (nothing extra crosses the network), and later visits restore it.
// A snapshot only fits the exact Pyodide build and wheel it was made with: it
// is stored with a stamp naming both and the SHA-256 of its bytes, and a stale,
// damaged or failing one is deleted and Python starts the usual way (and
// snapshots again). worker.js?snapshot=off turns this off (for measuring).
// Python's hash seed is fixed per device by the snapshot; the random module is
// reseeded from the browser's crypto after every restore.
const SNAPSHOT_CACHE = "quetgames python snapshot"; // not the service worker's "quet-games …" caches
const SNAPSHOT_FORMAT = 1; // bump when what the snapshot holds changes
const SNAPSHOT_KEY = new URL("python-snapshot.bin", BASE).href; // a cache key only: never on the server
const SNAPSHOT = new URL(import.meta.url).searchParams.get("snapshot") !== "off" && INSTALL === "unpack";

let bridgeCall = null; // PyProxy of quetgames.bridge.call, fetched once
let diagnosticCall = null; // PyProxy of the diagnostics function, with ?diagnostics only
let loadError = null;

function progress(text, fraction) {
  postMessage(fraction === undefined ? { progress: text } : { progress: text, fraction });
}

/** `promise`, or a rejection once `ms` pass without a call to the returned `kick`. */
function withStallTimeout(ms, what) {
  let timer;
  let fail;
  const stalled = new Promise((_, reject) => {
    fail = reject;
  });
  const kick = () => {
    clearTimeout(timer);
    timer = setTimeout(() => fail(new Error(`${what} stalled: nothing arrived for ${ms / 1000} s`)), ms);
  };
  const race = (promise) => {
    kick();
    return Promise.race([promise, stalled]).finally(() => clearTimeout(timer));
  };
  return { kick, race };
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not fetch ${url} (${response.status})`);
  return response.arrayBuffer();
}

/** A fetch that reports the bytes of Pyodide's big downloads (the wasm and the
 * standard library) as they arrive, so the page can show real progress. */
function countingFetch(realFetch, onBytes) {
  return async (input, init) => {
    const response = await realFetch(input, init);
    const url = input instanceof Request ? input.url : String(input);
    if (!response.ok || !response.body || !url.startsWith(INDEX_URL) || !/\.(wasm|zip)$/.test(new URL(url).pathname)) {
      return response;
    }
    const reader = response.body.getReader();
    const counted = new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
        } else {
          onBytes(value.byteLength);
          controller.enqueue(value);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    // same status and headers (application/wasm keeps streaming compilation on)
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

async function boot() {
  const t0 = performance.now();
  const mark = {};
  progress("Fetching the game list…", 0.02);
  const info = await (await fetch(new URL("build.json", BASE))).json();
  const wheelURL = new URL(info.wheel, BASE).href;
  // Start the wheel download now so it overlaps Pyodide's own start-up.
  const wheelBytes = INSTALL === "unpack" ? fetchBytes(wheelURL) : null;
  wheelBytes?.catch(() => {}); // reported below when awaited

  const total = Object.values(info.pyodide_downloads ?? {}).reduce((a, b) => a + b, 0);
  const mb = (bytes) => (bytes / 1e6).toFixed(1);
  /** loadPyodide with our options and `extra`, counting the bytes as they arrive. */
  const startPython = async (extra) => {
    let received = 0;
    let shown = -1;
    const realFetch = globalThis.fetch;
    const watchdog = withStallTimeout(STALL_TIMEOUT_MS, "Loading Python");
    if (total > 0) {
      globalThis.fetch = countingFetch(realFetch.bind(globalThis), (bytes) => {
        watchdog.kick();
        received += bytes;
        const fraction = 0.1 + 0.7 * Math.min(1, received / total);
        if (fraction - shown >= 0.01 || received >= total) {
          shown = fraction;
          progress(received >= total ? "Starting Python…" : `Downloading Python (${mb(received)} of ${mb(total)} MB)…`, fraction);
        }
      });
    }
    try {
      return await watchdog.race(
        loadPyodide({
          indexURL: INDEX_URL,
          lockFileURL: INDEX_URL + "pyodide-lock.json",
          packageBaseUrl: INDEX_URL, // also Pyodide's fallback "CDN": never leave our origin
          stdout: (line) => console.log(line),
          stderr: (line) => console.warn(line),
          ...extra,
        }),
      );
    } finally {
      globalThis.fetch = realFetch;
    }
  };
  const unpackWheel = async (pyodide) => {
    const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
    pyodide.unpackArchive(await wheelBytes, "wheel", { extractDir: sitePackages });
    pyodide.runPython("import importlib; importlib.invalidate_caches()");
  };

  progress("Starting Python (about 14 MB, once)…", 0.1);
  const stamp = `format ${SNAPSHOT_FORMAT}; pyodide ${info.pyodide}; wheel ${info.wheel_sha256}`;
  const kept = SNAPSHOT ? await findSnapshot(stamp) : { outcome: "off" };
  mark.snapshot = kept.outcome;
  let pyodide = null;
  if (kept.response) {
    try {
      // Checked before it is restored (damaged memory could hang Python past
      // any timeout), while Pyodide fetches and parses its own script.
      const bytes = readSnapshot(kept.response, mark).then((b) => checkSnapshot(b, kept.response, mark));
      pyodide = await startPython({ _loadSnapshot: bytes });
      // The file system is not in the snapshot: unpack the wheel again, so a
      // module imported later is there, and give `random` fresh entropy.
      await unpackWheel(pyodide);
      pyodide.runPython("import random; random.seed()");
      const games = JSON.parse(pyodide.runPython("import quetgames.bridge; quetgames.bridge.call('games', '{}')"));
      if (!games.ok || !games.result.length) throw new Error("the restored engine does not list its games");
      mark.snapshot = "restored";
    } catch (err) {
      console.warn(`Python snapshot not used, starting Python the usual way: ${err?.message ?? err}`);
      mark.snapshot = `fell back (${String(err?.message ?? err).split("\n")[0]})`;
      pyodide = null;
      await forgetSnapshot();
    }
  }
  const restored = pyodide !== null;
  const makeSnapshot = SNAPSHOT && !restored && kept.outcome !== "unavailable";
  if (!restored) pyodide = await startPython(makeSnapshot ? { _makeSnapshot: true } : {});
  mark.pyodide = performance.now() - t0;

  progress("Installing the rules engine…", 0.85);
  if (restored) {
    // installed and imported before the snapshot was taken
  } else if (INSTALL === "unpack") {
    await unpackWheel(pyodide);
  } else if (INSTALL === "loadPackage") {
    // loadPackage reports a failed download through errorCallback, not by throwing
    let failure = null;
    await pyodide.loadPackage(wheelURL, { messageCallback: () => {}, errorCallback: (m) => { failure = m; } });
    if (failure) throw new Error(failure);
  } else if (INSTALL === "micropip") {
    await pyodide.loadPackage("micropip", { messageCallback: () => {} });
    const micropip = pyodide.pyimport("micropip");
    try {
      await micropip.install(wheelURL);
    } finally {
      micropip.destroy();
    }
  } else {
    throw new Error(`unknown install method ${INSTALL}`);
  }
  mark.install = performance.now() - t0;

  // An owned proxy of the one function we call (not an attribute borrowed from
  // a module proxy, which would die with it); kept for the worker's lifetime.
  let snapshot = null;
  if (makeSnapshot) {
    // Taken before any proxy is handed to JavaScript and before any request,
    // with every game module imported (the warm-up call imports them).
    pyodide.runPython("import quetgames.bridge; quetgames.bridge.call('games', '{}')");
    const before = performance.now();
    try {
      snapshot = pyodide.makeMemorySnapshot();
    } catch (err) {
      console.info(`No Python snapshot this time: ${err?.message ?? err}`);
    }
    mark.snapshot_ms = performance.now() - before;
  }
  bridgeCall = pyodide.runPython("import quetgames.bridge\nquetgames.bridge.call");
  bridgeCall("games", "{}"); // warm up: the first call imports every game module
  if (DIAGNOSTICS) diagnosticCall = pyodide.runPython(DIAGNOSTICS_PY, { globals: pyodide.toPy({}) });
  mark.ready = performance.now() - t0;
  progress("Ready", 1);
  postMessage({ ready: true, timings: { method: INSTALL, restored, ...mark } });
  if (snapshot) keepSnapshot(snapshot, stamp); // after ready: the page need not wait for the disk
}

// -- the snapshot in Cache Storage ------------------------------------------------

/** {response} for a snapshot with this stamp; else {outcome} saying why not
 * ("none", "stale" (deleted), "unavailable": no Cache Storage here). */
async function findSnapshot(stamp) {
  try {
    if (!globalThis.caches) return { outcome: "unavailable" };
    const cache = await caches.open(SNAPSHOT_CACHE);
    const response = await cache.match(SNAPSHOT_KEY);
    if (!response) return { outcome: "none" };
    if (response.headers.get("X-Snapshot-Stamp") !== stamp) {
      await cache.delete(SNAPSHOT_KEY);
      return { outcome: "stale" };
    }
    return { outcome: "found", response };
  } catch {
    return { outcome: "unavailable" }; // e.g. storage blocked: start the usual way, make none
  }
}

async function readSnapshot(response, mark) {
  const before = performance.now();
  const bytes = new Uint8Array(await response.arrayBuffer());
  mark.read_ms = performance.now() - before;
  return bytes;
}

/** `bytes`, once they match the SHA-256 stored with them. */
async function checkSnapshot(bytes, response, mark) {
  const before = performance.now();
  const digest = await sha256(bytes);
  mark.verify_ms = performance.now() - before;
  if (digest !== response.headers.get("X-Snapshot-SHA256")) throw new Error("the snapshot is damaged (its SHA-256 differs)");
  return bytes;
}

async function keepSnapshot(bytes, stamp) {
  try {
    const headers = { "Content-Type": "application/octet-stream", "X-Snapshot-Stamp": stamp, "X-Snapshot-SHA256": await sha256(bytes) };
    await (await caches.open(SNAPSHOT_CACHE)).put(SNAPSHOT_KEY, new Response(bytes, { headers }));
  } catch (err) {
    console.info(`Python snapshot not kept: ${err?.message ?? err}`); // e.g. over quota: next visit starts the usual way
  }
}

async function forgetSnapshot() {
  try {
    await (await caches.open(SNAPSHOT_CACHE)).delete(SNAPSHOT_KEY);
  } catch {
    // nothing kept, nothing to forget
  }
}

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// Python for worker.js?diagnostics: call(name, args_json) -> JSON text, like the bridge.
const DIAGNOSTICS_PY = `
import json, random, time
import quetgames

def call(name, args_json):
    args = json.loads(args_json)
    if name == "_random":
        return json.dumps({"random": [random.random() for _ in range(4)], "hash": hash("quet games")})
    if name == "_computer_move":
        state = quetgames.load(args["record"])
        seat = args.get("seat")
        seat = state.to_move[0] if seat is None else seat
        started = time.perf_counter()
        move = quetgames.computer_move(state, seat, args["level"], seed=args.get("seed", 0), budget=args.get("budget", 1.0))
        return json.dumps({"move": move, "ms": (time.perf_counter() - started) * 1000})
    raise ValueError(f"no diagnostic call {name!r}")

call
`;

function answer(id, call, args) {
  if (bridgeCall === null) {
    return { id, ok: false, error: loadError ?? { type: "NotReady", message: "the game engine is still loading" } };
  }
  let text;
  try {
    const diagnostic = diagnosticCall !== null && String(call).startsWith("_");
    text = diagnostic
      ? JSON.stringify({ ok: true, result: JSON.parse(diagnosticCall(String(call), JSON.stringify(args ?? {}))) })
      : bridgeCall(String(call), JSON.stringify(args ?? {}));
  } catch (err) {
    // bridge.call never raises; this is Pyodide itself failing (e.g. out of memory).
    return { id, ok: false, error: { type: "InternalError", message: `the game engine failed: ${err.message}` } };
  }
  const reply = JSON.parse(text);
  return reply.ok ? { id, ok: true, result: reply.result } : { id, ok: false, error: reply.error };
}

const booted = boot().catch((err) => {
  loadError = { type: "LoadError", message: `The game engine could not start: ${err?.message ?? err}` };
  postMessage({ ready: false, error: loadError });
});

self.onmessage = async (event) => {
  const { id, call, args } = event.data ?? {};
  await booted; // requests sent early wait for the engine instead of failing
  postMessage(answer(id, call, args));
};
