// The Python side of the page: a module worker that loads Pyodide from our own
// copy, puts the compiled quetgames engine on Python's path and answers requests.
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
//
// Downloads. The build ships Pyodide's three big files xz-compressed (about a
// quarter of their size, whether or not the host compresses), and the engine
// compiled: a zip of sourceless .pyc files, made by this same Python in the
// build (tools/stdlib_closure.mjs), also xz-compressed. It writes into BUILD
// below their names, sizes and SHA-256, the xz decoder's (web/bridge/xz.js), and
// Pyodide's lock file. So Pyodide's downloads start the moment this script
// runs, before its own loader has even arrived (the engine's once the wasm is
// in: see startDownloads), and each file is expanded as it streams in: the
// wasm compiles while it downloads. A file that is not the one listed, or does
// not expand, stops the start with a plain message. What was expanded is kept
// (see "Expanded copies" below), so a later start does not expand it again.
//
// A module worker (started with type: "module"), whose own modules in bridge/
// are all imported dynamically, once it runs: a static import would hold back
// its first line, and every download with it, by a round trip. So nothing
// here says "module" but this empty export (tests/test_minify.py tells the
// modules from the classic scripts by it).
export {};

// Written in by build.py (write_worker_facts); null in web/ before a build.
const BUILD = /* build */ null /* end build */;

// loadPyodide never settles if, say, the wasm is served with the wrong type. A
// fixed deadline would also kill honest loads on slow links, so the limit is on
// silence: this long with no bytes arriving and no step finished.
const STALL_TIMEOUT_MS = 30_000;
const BASE = new URL("./", import.meta.url);
const INDEX_URL = new URL("pyodide/", BASE).href;
// Where the engine's zip goes, on sys.path right after the standard library:
// Python imports the compiled modules from it directly (zipimport), so nothing
// is unpacked or compiled here. The same path as in tools/stdlib_closure.mjs,
// which found the standard library the engine needs with it there.
const ENGINE_ZIP = "/lib/quetgames.zip";

// Expanded copies. xz takes CPU to expand (the wasm: about 0.35 s on the test
// machine, against 0.09 s for gzip), which a repeat visit, whose bytes come
// from the service worker's cache at once, would pay on every start. So once
// the worker is ready it keeps what it expanded in Cache Storage, each copy
// with the SHA-256 the build lists for the expanded file, and a later start
// reads that copy (checked again) instead of the download. A copy that is
// missing, stale or damaged is dropped, and the download is used.
const EXPANDED_CACHE = "quetgames python files";
const expandedKey = (name) => new URL(`expanded/${name}`, BASE).href; // a cache key only: never on the server

// worker.js?diagnostics also answers a few calls named "_…" that reach past the
// bridge (bridge/diagnostics.js, loaded only then): the benchmark
// (tools/bench.py) and the tests use them; the site never does.
const DIAGNOSTICS = new URL(import.meta.url).searchParams.has("diagnostics");

// Memory snapshot: the first visit snapshots Python's memory once quetgames is
// imported and keeps it in Cache Storage (bridge/snapshot.js), and later
// visits restore it; a stale, damaged or failing one is deleted and Python
// starts the usual way (and snapshots again). worker.js?snapshot=off turns
// this off, and the expanded copies too (for measuring).
// Python's hash seed is fixed per device by the snapshot; the random module is
// reseeded from the browser's crypto after every restore.
const SNAPSHOT_FORMAT = 1; // bump when what the snapshot holds changes
const SNAPSHOT = new URL(import.meta.url).searchParams.get("snapshot") !== "off";
// An analysis pool's extra workers (pool.js, named "analysis") start together,
// beside the page's own: they only read the kept snapshot, never make, replace
// or delete it, so they cannot race each other or the page's worker over it
// (one with no usable snapshot starts the usual way and keeps nothing).
const SNAPSHOT_READ_ONLY = globalThis.name === "analysis";
// Expanded copies are read where they can be checked, and kept by all but those workers.
const READ_COPIES = SNAPSHOT && Boolean(globalThis.caches) && Boolean(globalThis.crypto?.subtle);
const KEEP_EXPANDED = READ_COPIES && !SNAPSHOT_READ_ONLY;
const toKeep = new Map(); // name -> the chunks expanded, kept once the worker is ready
const fromCopies = new Set(); // the downloads this start took from kept copies (in its timings)

let bridgeCall = null; // PyProxy of quetgames.bridge.call, fetched once
let diagnosticCall = null; // PyProxy of the diagnostics function, with ?diagnostics only
let loadError = null;

function progress(text, fraction) {
  postMessage(fraction === undefined ? { progress: text } : { progress: text, fraction });
}

// -- downloads ------------------------------------------------------------------

/** When each download's last byte arrived (ms since the worker started), for the timings. */
const arrived = {};

/** Bytes received so far of all downloads, for the progress bar and the stall watch. */
const received = { bytes: 0, listeners: new Set() };
function count(bytes) {
  received.bytes += bytes;
  for (const listener of received.listeners) listener();
}

class DamagedDownload extends Error {
  constructor(file, why) {
    super(`${file} arrived damaged (${why}). Reload the page to download it again.`);
  }
}

/** Take the kept expanded copy of one of the xz-compressed files, or else
 * start fetching it (once `after` settles). `response` resolves to a Response of the
 * expanded bytes, which stream as they arrive; `failed` rejects, in words, if
 * the file cannot be fetched, is not the one the build listed, or does not
 * expand (Pyodide itself would only log that and wait for ever); `done`
 * resolves once its last byte is in, or it failed. */
function expanding(name, type, after = null) {
  const file = BUILD.files[name];
  let fail, finish;
  const done = new Promise((resolve) => { finish = resolve; });
  const failed = new Promise((_, reject) => {
    fail = (error) => {
      finish();
      reject(error);
    };
  });
  failed.catch(() => {}); // raced against the start, which reports it
  const response = (async () => {
    const kept = await keptCopy(name, type);
    if (kept) {
      count(file.size);
      fromCopies.add(name);
      arrived[name] = Math.round(performance.now());
      finish();
      return kept;
    }
    await after;
    const fetched = await fetch(new URL(file.url, BASE));
    if (!fetched.ok || !fetched.body) throw new Error(`could not fetch ${file.url} (HTTP ${fetched.status})`);
    const input = fetched.body.getReader();
    const chunks = [];
    const checked = new ReadableStream({
      async pull(controller) {
        const { done, value } = await input.read();
        if (!done) {
          chunks.push(value);
          count(value.byteLength);
          controller.enqueue(value);
          return;
        }
        // Only with WebCrypto, which browsers give secure origins alone; on a plain
        // http address worker.js itself arrives unchecked, so a hash would guard
        // nothing, and xz's own CRC32 still catches damage.
        if (globalThis.crypto?.subtle && (await sha256(concat(chunks))) !== file.sha256) {
          const error = new DamagedDownload(file.url, "it is not the file this version of the site lists");
          fail(error);
          controller.error(error);
          return;
        }
        arrived[name] = Math.round(performance.now());
        finish();
        controller.close();
      },
      cancel: (reason) => input.cancel(reason),
    }, { highWaterMark: Infinity }); // read the network eagerly, even before the decoder or Pyodide is there
    const [{ xzExpander }, decoder] = await Promise.all([xzModule, xzDecoder()]);
    const output = checked.pipeThrough(xzExpander(decoder)).getReader();
    const expanded = KEEP_EXPANDED ? [] : null;
    const guarded = new ReadableStream({
      async pull(controller) {
        try {
          const { done, value } = await output.read();
          if (!done) {
            expanded?.push(value);
            controller.enqueue(value);
            return;
          }
          if (expanded) toKeep.set(name, expanded);
          controller.close();
        } catch (err) {
          const error = err instanceof DamagedDownload ? err : new DamagedDownload(file.url, `it does not expand: ${err?.message ?? err}`);
          fail(error);
          controller.error(error);
        }
      },
      cancel: (reason) => output.cancel(reason),
    });
    return new Response(guarded, { headers: { "Content-Type": type } });
  })();
  response.catch(fail);
  return { response, failed, done };
}

// The decoder, imported and fetched at once (a dynamic import: a static one
// would hold back this script, and with it every download, by a round trip).
const xzModule = import("./bridge/xz.js");
xzModule.catch(() => {}); // reported when awaited
let xzDecoderModule = null;
/** The xz decoder's compiled wasm, fetched and checked once (again after a failure). */
function xzDecoder() {
  xzDecoderModule ??= (async () => {
    const file = BUILD.decoder;
    const fetched = await fetch(new URL(file.url, BASE));
    if (!fetched.ok) throw new Error(`could not fetch ${file.url} (HTTP ${fetched.status})`);
    const bytes = await fetched.arrayBuffer();
    if (globalThis.crypto?.subtle && (await sha256(bytes)) !== file.sha256) {
      throw new DamagedDownload(file.url, "it is not the file this version of the site lists");
    }
    return WebAssembly.compile(bytes);
  })();
  xzDecoderModule.catch(() => { xzDecoderModule = null; });
  return xzDecoderModule;
}

/** Everything Python needs from the network, requested at once, but for the
 * engine: it is needed only once Python has started, which takes the last of
 * the wasm and some time after it, so it is asked for when the wasm is in and
 * does not share the link with it (on 10 Mbit/s its 0.14 MB would hold the
 * wasm back by 0.11 s). */
function startDownloads() {
  const wasm = expanding("pyodide.asm.wasm", "application/wasm");
  const downloads = {
    wasm,
    script: expanding("pyodide.asm.mjs", "text/javascript"),
    stdlib: expanding("python_stdlib.zip", "application/zip"),
    engine: expanding("quetgames.zip", "application/zip", wasm.done),
  };
  downloads.failed = Promise.race([downloads.wasm.failed, downloads.script.failed, downloads.stdlib.failed, downloads.engine.failed]);
  return downloads;
}

function concat(parts) {
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.byteLength;
  }
  return whole;
}

/** Pyodide's emscripten module, imported from the expanded script. It has to
 * run as a module of its own, so it goes through a blob: URL (a host that sends
 * worker.js a Content-Security-Policy must allow blob: in script-src). */
async function importPyodideScript(response) {
  const blob = await (await response).blob();
  const url = URL.createObjectURL(new Blob([blob], { type: "text/javascript" }));
  try {
    return (await import(url)).default;
  } finally {
    URL.revokeObjectURL(url);
  }
}

// Started as soon as the worker runs: Pyodide's loader and every download at
// once, and the modules of this worker needed once the loader is in (dynamic
// imports, as xz.js's above). An unloadable snapshot module means none is used.
let downloads = BUILD ? startDownloads() : null;
const loader = import("./pyodide/pyodide.mjs");
loader.catch(() => {}); // reported when awaited
const snapshots = SNAPSHOT
  ? import("./bridge/snapshot.js").then(({ KeptSnapshot }) => new KeptSnapshot({ base: BASE, sha256, readOnly: SNAPSHOT_READ_ONLY }), () => null)
  : Promise.resolve(null);
const diagnostics = DIAGNOSTICS ? import("./bridge/diagnostics.js") : null;
diagnostics?.catch(() => {}); // reported when awaited

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

async function boot() {
  const t0 = performance.now();
  const mark = { origin: performance.timeOrigin + t0 }; // (epoch ms: the bench lines the steps up with the page's)
  if (!BUILD) throw new Error("this copy of the site was not built (run python build.py)");
  const total = Object.values(BUILD.files).reduce((sum, file) => sum + file.size, 0);
  const mb = (bytes) => (bytes / 1e6).toFixed(1);
  let shown = -1;
  const showBytes = () => {
    const fraction = 0.05 + 0.8 * Math.min(1, received.bytes / total);
    if (fraction - shown >= 0.01 || received.bytes >= total) {
      shown = fraction;
      progress(received.bytes >= total ? "Starting Python…" : `Downloading Python (${mb(received.bytes)} of ${mb(total)} MB)…`, fraction);
    }
  };
  received.listeners.add(showBytes);
  showBytes();
  const { loadPyodide } = await loader;

  /** loadPyodide with our options and `extra`, fed by the downloads under way. */
  const startPython = async (extra) => {
    const watchdog = withStallTimeout(STALL_TIMEOUT_MS, "Loading Python");
    received.listeners.add(watchdog.kick);
    const realFetch = globalThis.fetch;
    const ours = { [INDEX_URL + "pyodide.asm.wasm"]: downloads.wasm.response, [INDEX_URL + "python_stdlib.zip"]: downloads.stdlib.response };
    globalThis.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      return ours[url] ?? realFetch.call(globalThis, input, init);
    };
    try {
      const createPyodideModule = await watchdog.race(Promise.race([importPyodideScript(downloads.script.response), downloads.failed]));
      mark.script = Math.round(performance.now() - t0);
      return await watchdog.race(Promise.race([
        loadPyodide({
          indexURL: INDEX_URL,
          createPyodideModule,
          lockFileContents: BUILD.lock,
          packageBaseUrl: INDEX_URL, // also Pyodide's fallback "CDN": never leave our origin
          stdout: (line) => console.log(line),
          stderr: (line) => console.warn(line),
          ...extra,
        }),
        downloads.failed,
      ]));
    } finally {
      globalThis.fetch = realFetch;
      received.listeners.delete(watchdog.kick);
    }
  };
  const installEngine = async (pyodide) => {
    // (raced: reading a body that fails says only "Failed to fetch"; the download says why)
    const { response, failed } = downloads.engine;
    const bytes = await Promise.race([response.then((r) => r.arrayBuffer()), failed]);
    pyodide.FS.writeFile(ENGINE_ZIP, new Uint8Array(bytes));
    pyodide.runPython(`import sys\nif ${JSON.stringify(ENGINE_ZIP)} not in sys.path: sys.path.insert(1, ${JSON.stringify(ENGINE_ZIP)})`);
  };

  // the standard library too: a module imported after a restore must be the one the snapshot expects
  const stamp = `format ${SNAPSHOT_FORMAT}; pyodide ${BUILD.pyodide}; stdlib ${BUILD.files["python_stdlib.zip"].raw_sha256}; engine ${BUILD.files["quetgames.zip"].raw_sha256}`;
  const store = await snapshots;
  const kept = store ? await store.find(stamp) : { outcome: SNAPSHOT ? "unavailable" : "off" };
  mark.snapshot = kept.outcome;
  let pyodide = null;
  if (kept.response) {
    try {
      // Checked before it is restored (damaged memory could hang Python past
      // any timeout), while Pyodide fetches and parses its own script.
      const bytes = store.read(kept.response, mark);
      bytes.catch(() => {}); // loadPyodide meets the failure, but only once Pyodide's script is in
      pyodide = await startPython({ _loadSnapshot: bytes });
      // The file system is not in the snapshot: write the engine's zip again, so
      // a module imported later is there, and give `random` fresh entropy.
      await installEngine(pyodide);
      pyodide.runPython("import random; random.seed()");
      const games = JSON.parse(pyodide.runPython("import quetgames.bridge; quetgames.bridge.call('games', '{}')"));
      if (!games.ok || !games.result.length) throw new Error("the restored engine does not list its games");
      mark.snapshot = "restored";
    } catch (err) {
      if (err instanceof DamagedDownload) throw err;
      console.warn(`Python snapshot not used, starting Python the usual way: ${err?.message ?? err}`);
      mark.snapshot = `fell back (${String(err?.message ?? err).split("\n")[0]})`;
      pyodide = null;
      if (!SNAPSHOT_READ_ONLY) await store.forget();
      downloads = startDownloads(); // the first ones were read by the attempt
    }
  }
  const restored = pyodide !== null;
  const makeSnapshot = SNAPSHOT && !SNAPSHOT_READ_ONLY && !restored && kept.outcome !== "unavailable";
  if (!restored) pyodide = await startPython(makeSnapshot ? { _makeSnapshot: true } : {});
  mark.pyodide = performance.now() - t0;

  progress("Installing the rules engine…", 0.9);
  if (!restored) await installEngine(pyodide); // else installed and imported before the snapshot was taken
  mark.install = performance.now() - t0;
  received.listeners.delete(showBytes);

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
  // warm up: the first call imports every game module (done already for a snapshot, made or restored)
  if (!restored && !makeSnapshot) bridgeCall("games", "{}");
  if (DIAGNOSTICS) diagnosticCall = pyodide.runPython((await diagnostics).DIAGNOSTICS_PY, { globals: pyodide.toPy({}) });
  mark.ready = performance.now() - t0;
  mark.bytes = received.bytes;
  mark.wasm_memory = pyodide._module?.HEAPU8?.byteLength ?? null; // Python's linear memory at the start, bytes (e2e/test_analysis.py reports it)
  mark.arrived = arrived;
  mark.copies = [...fromCopies].sort();
  progress("Ready", 1);
  postMessage({ ready: true, timings: { restored, ...mark } });
  // Not awaited, and only once the player pauses: hashing and storing some 30 MB
  // right after ready slowed the first clicks of a first visit (a game's moves
  // clicked at once: median 28 ms against 15 ms with the keeping held back).
  lastRequest = performance.now();
  keepWhenQuiet(store, snapshot, stamp);
}

// -- Cache Storage: the expanded copies, and when to keep what this start made --

// When the worker was last busy (ready, or the last request arrived;
// performance.now()), for keepWhenQuiet.
let lastRequest = 0;
const KEEP_AFTER_QUIET_MS = 1000;

/** Resolves once no request has arrived for `ms` (at once if none has for that long). */
async function quiet(ms) {
  for (let wait = lastRequest + ms - performance.now(); wait > 0; wait = lastRequest + ms - performance.now()) {
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** Keep the snapshot (if one was made) in `store` and then each expanded
 * download, one at a time, each after a pause in the requests. */
async function keepWhenQuiet(store, snapshot, stamp) {
  if (snapshot) {
    await quiet(KEEP_AFTER_QUIET_MS);
    await store.keep(snapshot, stamp);
  }
  await keepExpanded(() => quiet(KEEP_AFTER_QUIET_MS));
}

/** The kept expanded copy of download `name`, checked, as a Response; or null. */
async function keptCopy(name, type) {
  if (!READ_COPIES) return null;
  const want = BUILD.files[name].raw_sha256;
  try {
    const cache = await caches.open(EXPANDED_CACHE);
    const response = await cache.match(expandedKey(name));
    if (!response) return null;
    const bytes = response.headers.get("X-Raw-SHA256") === want ? await response.arrayBuffer() : null;
    if (bytes && (await sha256(bytes)) === want) return new Response(bytes, { headers: { "Content-Type": type } });
    if (!SNAPSHOT_READ_ONLY) await cache.delete(expandedKey(name)); // stale (an older build) or damaged
  } catch (err) {
    console.info(`Kept copy of ${name} not used: ${err?.message ?? err}`);
  }
  return null;
}

/** Keep what this start expanded (see "Expanded copies"). Only a download that
 * passed its checks (the build's SHA-256 where WebCrypto exists, xz's CRC32)
 * got this far, so it is stored under the expanded file's SHA-256 as it is;
 * a later start checks the copy again before using it. */
async function keepExpanded(before) {
  const kept = [...toKeep];
  toKeep.clear();
  const done = [];
  for (const [name, chunks] of kept) {
    await before();
    try {
      const headers = { "Content-Type": "application/octet-stream", "X-Raw-SHA256": BUILD.files[name].raw_sha256 };
      await (await caches.open(EXPANDED_CACHE)).put(expandedKey(name), new Response(new Blob(chunks), { headers }));
      done.push(name);
    } catch (err) {
      console.info(`Expanded ${name} not kept: ${err?.message ?? err}`); // e.g. over quota: expanded again next time
    }
  }
  if (done.length) console.info(`quetgames kept expanded copies: ${done.sort().join(" ")}`);
}

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

function answer(id, call, args) {
  if (bridgeCall === null) {
    return { id, ok: false, error: loadError ?? { type: "NotReady", message: "the game engine is still loading" } };
  }
  let text;
  const started = performance.now();
  try {
    const diagnostic = diagnosticCall !== null && String(call).startsWith("_");
    text = diagnostic
      ? JSON.stringify({ ok: true, result: JSON.parse(diagnosticCall(String(call), JSON.stringify(args ?? {}))) })
      : bridgeCall(String(call), JSON.stringify(args ?? {}));
  } catch (err) {
    // bridge.call never raises; this is Pyodide itself failing (e.g. out of memory).
    return { id, ok: false, error: { type: "InternalError", message: `the game engine failed: ${err.message}` } };
  }
  const python = performance.now() - started;
  const reply = JSON.parse(text);
  // (ms: where the worker's time went, for the bench's split of a move's latency)
  const ms = { python, parse: performance.now() - started - python, chars: text.length };
  return reply.ok ? { id, ok: true, result: reply.result, ms } : { id, ok: false, error: reply.error, ms };
}

const booted = boot().catch((err) => {
  loadError = { type: "LoadError", message: `The game engine could not start: ${err?.message ?? err}` };
  postMessage({ ready: false, error: loadError });
});

self.onmessage = async (event) => {
  const { id, call, args } = event.data ?? {};
  lastRequest = performance.now();
  const arrived = performance.timeOrigin + lastRequest;
  await booted; // requests sent early wait for the engine instead of failing
  const reply = answer(id, call, args);
  // (when the request arrived and its answer left, on the clock pages share, for the bench's split)
  if (reply.ms) Object.assign(reply.ms, { arrived, replied: performance.timeOrigin + performance.now() });
  postMessage(reply);
};
