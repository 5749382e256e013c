// A pool of engines for long work spread over the cores (the analysis,
// analysis.js): the page's own engine and up to MAX_EXTRA extra workers,
// each its own Python, started for one run and stopped at its end or at
// Cancel. Nothing here knows what the work is: a run is a queue of items,
// and each engine takes the next few (its `span`) as one request.
//
// Extra workers: navigator.hardwareConcurrency − 1 of them, at least 1 and
// at most 8. They start from the Python memory snapshot the page's worker
// keeps (worker.js), read-only (the worker's name "analysis" says so), and
// take work as soon as each is ready; until then the page's engine works
// alone. The page's engine takes part too, a small span at a time, so a
// page request (stepping to a move) waits behind one short request at most.
//
// stop() terminates every extra worker at once: their requests under way
// fail with type "Stopped" and never answer, so after it nothing of the run
// arrives but the page's own engine's one request under way, which the run
// then throws away; and the page is back to its one worker.

import { Engine } from "./engine.js";

export const MAX_EXTRA = 8;

/** Extra workers for `cores` logical processors: cores − 1, from 1 to MAX_EXTRA. */
export function extraWorkers(cores = globalThis.navigator?.hardwareConcurrency) {
  const n = Number.isInteger(cores) && cores > 0 ? cores : 2;
  return Math.max(1, Math.min(MAX_EXTRA, n - 1));
}

// errors that stop one extra worker, not the run: its items go back to the
// queue (an InternalError, Pyodide itself failing, say out of memory, too: if
// it is no such accident, the page's engine meets it again and reports it)
const LOST_WORKER = new Set(["WorkerError", "Restarted", "LoadError", "Stopped", "NotReady", "InternalError"]);

export class EnginePool {
  #home;
  #run = null; // the run under way: {stopped, extras (its extra engines)}

  /** home: the page's engine (engine.js); size: extra workers for a run. */
  constructor(home, { size = extraWorkers(), workerURL = new URL("../worker.js", import.meta.url) } = {}) {
    this.#home = home;
    this.size = size;
    this.workerURL = workerURL;
  }

  /** Run `items` (any values, in order of priority) on every engine: each
   * request is `ask(batch)` -> {call, args} for up to `span(batch[0], home)`
   * items taken from the front of the queue (a batch holds items that
   * `together(last, next)` allows in one request); `take(batch, result)` gets each
   * answer. Resolves once every item is answered; rejects with the first
   * error that is not a worker stopping (a worker that stops gives its items
   * back, and the page's engine restarts once, engine.js). stop() ends it:
   * the promise then resolves with false (true when it finished). */
  async run(items, { ask, take, span = () => 1, together = () => true }) {
    if (this.#run) throw new Error("the pool is already running");
    const run = { stopped: false, extras: new Set() };
    this.#run = run;
    const queue = [...items];
    const next = (home) => {
      if (!queue.length) return null;
      const batch = [queue.shift()];
      const most = Math.max(1, span(batch[0], home));
      while (batch.length < most && queue.length && together(batch.at(-1), queue[0])) batch.push(queue.shift());
      return batch;
    };
    const work = async (engine, home) => {
      if (!home) {
        try {
          await engine.ready;
        } catch {
          return; // it could not start: the others carry on
        }
      }
      for (let batch = next(home); batch && !run.stopped; batch = next(home)) {
        const { call, args } = ask(batch);
        let result;
        try {
          result = await engine.request(call, args, { retry: home });
        } catch (error) {
          if (run.stopped) return;
          if (!home && LOST_WORKER.has(error?.type)) {
            queue.unshift(...batch); // another engine does them
            engine.terminate();
            run.extras.delete(engine);
            return;
          }
          throw error;
        }
        if (run.stopped) return;
        take(batch, result);
      }
    };
    const extras = [];
    for (let i = 0; i < this.size && queue.length > 1; i += 1) extras.push(this.#startExtra(run));
    try {
      await Promise.all([work(this.#home, true), ...extras.map((engine) => work(engine, false))]);
      // items a stopped extra worker gave back after the others were done
      while (queue.length && !run.stopped) await work(this.#home, true);
      return !run.stopped;
    } catch (error) {
      if (run.stopped) return false;
      throw error;
    } finally {
      this.#end(run);
    }
  }

  /** End the run under way at once: every extra worker is terminated. */
  stop() {
    if (this.#run) this.#end(this.#run);
  }

  #startExtra(run) {
    const engine = new Engine(this.workerURL, { name: "analysis" });
    run.extras.add(engine);
    return engine;
  }

  #end(run) {
    run.stopped = true;
    for (const engine of run.extras) engine.terminate();
    run.extras.clear();
    if (this.#run === run) this.#run = null;
  }
}
