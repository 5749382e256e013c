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
  progress("Starting Python (about 14 MB, once)…", 0.1);
  const pyodide = await watchdog.race(
    loadPyodide({
      indexURL: INDEX_URL,
      lockFileURL: INDEX_URL + "pyodide-lock.json",
      packageBaseUrl: INDEX_URL, // also Pyodide's fallback "CDN": never leave our origin
      stdout: (line) => console.log(line),
      stderr: (line) => console.warn(line),
    }),
  ).finally(() => {
    globalThis.fetch = realFetch;
  });
  mark.pyodide = performance.now() - t0;

  progress("Installing the rules engine…", 0.85);
  if (INSTALL === "unpack") {
    const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
    pyodide.unpackArchive(await wheelBytes, "wheel", { extractDir: sitePackages });
    pyodide.runPython("import importlib; importlib.invalidate_caches()");
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
  bridgeCall = pyodide.runPython("import quetgames.bridge\nquetgames.bridge.call");
  bridgeCall("games", "{}"); // warm up: the first call imports every game module
  if (DIAGNOSTICS) diagnosticCall = pyodide.runPython(DIAGNOSTICS_PY, { globals: pyodide.toPy({}) });
  mark.ready = performance.now() - t0;
  progress("Ready", 1);
  postMessage({ ready: true, timings: { method: INSTALL, ...mark } });
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
