// The page's client for the Python worker: started once, early; one
// ready-promise; request(call, args, {retry}) -> Promise of the result.
//
// retry: a request that fails because the worker stopped (WorkerError) or was
// restarted meanwhile (Restarted) restarts it once and is sent again; requests
// carry the whole record, so re-sending re-opens the game where it was. A
// request without it fails at once (a computer's Cancel must not re-ask).

export class EngineError extends Error {
  constructor({ type, message }) {
    super(message);
    this.name = "EngineError";
    this.type = type;
  }
}

const RESTARTABLE = new Set(["WorkerError", "Restarted"]);

export class Engine {
  #worker = null;
  #pending = new Map();
  #nextId = 1;
  #progressListeners = new Set();
  #lastProgress = { text: "Starting…", fraction: 0 };
  #resolveReady;
  #rejectReady;
  #dead = null; // the error once the worker has stopped: later requests fail at once, not hang
  #restarting = null; // the restart a retried request started, until the new worker is ready
  #restartListeners = new Set();
  ready; // Promise<{timings}>, settled once per start
  timings = null;

  /** name: the worker's name (`self.name` inside it): "analysis" for the
   * extra workers of a pool (pool.js), which only read the kept snapshot. */
  constructor(workerURL = new URL("../worker.js", import.meta.url), { name = "" } = {}) {
    this.workerURL = workerURL;
    this.name = name;
    this.start();
  }

  /** Start (or restart, after a failure) the worker. */
  start() {
    this.#worker?.terminate();
    this.#dead = null;
    this.#failPending({ type: "Restarted", message: "the game engine was restarted" });
    this.ready = new Promise((resolve, reject) => {
      this.#resolveReady = resolve;
      this.#rejectReady = reject;
    });
    this.ready.catch(() => {}); // callers that care attach their own handler
    const early = takeEarlyWorker(this.workerURL, this.name);
    const worker = (this.#worker = early?.worker ?? new Worker(this.workerURL, { type: "module", name: this.name }));
    worker.onmessage = (event) => this.#receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault?.();
      this.#die(`The game engine stopped: ${event.message || "its script failed to load"}`);
    };
    worker.onmessageerror = () => this.#die("The game engine sent a message the page could not read");
    // what the early worker said before this module was here, in order
    for (const event of early?.events ?? []) worker[`on${event.type}`]?.(event);
  }

  /** Call `listener({text, fraction})` on every loading step (at once with the latest). */
  onProgress(listener) {
    this.#progressListeners.add(listener);
    listener(this.#lastProgress);
    return () => this.#progressListeners.delete(listener);
  }

  /** Call `listener(phase)` when a retried request restarts the worker:
   * "restarting", then "restarted" once the new one is ready. */
  onRestart(listener) {
    this.#restartListeners.add(listener);
    return () => this.#restartListeners.delete(listener);
  }

  /** False once the worker has stopped (until a start). */
  get alive() {
    return this.#dead === null;
  }

  async request(call, args = {}, { retry = false } = {}) {
    if (!retry) return this.#send(call, args);
    try {
      return await this.#send(call, args);
    } catch (error) {
      if (!RESTARTABLE.has(error?.type)) throw error;
      if (error.type === "WorkerError") await this.#restart();
      else await (this.#restarting ?? this.ready); // someone else restarted it: wait for the new one
      return this.#send(call, args);
    }
  }

  /** Stop the worker for good, at once: a request under way or sent later
   * fails with type "Stopped", and no answer of it ever arrives. */
  terminate() {
    this.#worker?.terminate();
    this.#worker = null;
    const error = { type: "Stopped", message: "the game engine was stopped" };
    this.#dead = error;
    this.#rejectReady(new EngineError(error));
    this.#failPending(error);
  }

  #restart() {
    if (!this.#restarting) {
      const tell = (phase) => { for (const listener of this.#restartListeners) listener(phase); };
      tell("restarting");
      this.start();
      this.#restarting = this.ready.then(() => tell("restarted")).finally(() => { this.#restarting = null; });
    }
    return this.#restarting;
  }

  #send(call, args) {
    const id = this.#nextId++;
    if (this.#dead) return Promise.reject(new EngineError(this.#dead));
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, call, sent: performance.now() });
      this.#worker.postMessage({ id, call, args });
    });
  }

  #receive(data) {
    if (data == null) return;
    if ("progress" in data) {
      this.#lastProgress = { text: data.progress, fraction: data.fraction };
      for (const listener of this.#progressListeners) listener(this.#lastProgress);
    } else if (data.ready === true) {
      this.timings = data.timings ?? null;
      this.#resolveReady(this.timings);
    } else if (data.ready === false) {
      this.#rejectReady(new EngineError(data.error));
    } else if (this.#pending.has(data.id)) {
      const { resolve, reject, call, sent } = this.#pending.get(data.id);
      this.#pending.delete(data.id);
      // the request's round trip and the worker's share of it, when the bench asks (tools/bench.py)
      if (globalThis.quetTimings) performance.measure(`engine ${call}`, { start: sent, detail: data.ms ?? null });
      if (data.ok) resolve(data.result);
      else reject(new EngineError(data.error));
    }
  }

  #die(message) {
    const error = { type: "WorkerError", message };
    this.#dead = error;
    this.#rejectReady(new EngineError(error));
    this.#failPending(error);
  }

  #failPending(error) {
    for (const { reject } of this.#pending.values()) reject(new EngineError(error));
    this.#pending.clear();
  }
}

/** The worker index.html's first script started (`self.quetEarlyWorker`:
 * {worker, url, events: what it said meanwhile}), taken once, if it is the one
 * asked for: that script runs before the page asks for its ~30 modules, so the
 * worker's script, and after it Python's downloads, are not queued behind them. */
function takeEarlyWorker(url, name) {
  const early = globalThis.quetEarlyWorker;
  if (!early || name || new URL(early.url, location.href).href !== url.href) return null;
  delete globalThis.quetEarlyWorker;
  return early;
}

/** The page's one engine, started as soon as this module is imported. */
export const engine = new Engine();
