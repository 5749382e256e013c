// Python's memory snapshot, kept in Cache Storage for the worker (worker.js).
// Most of a repeat visit used to be Python starting up and importing the
// engine; the wasm itself comes from the browser's caches. So the first visit
// snapshots Python's memory once quetgames is imported
// (pyodide.makeMemorySnapshot) and keeps it here, on this device only
// (nothing extra crosses the network), and later visits restore it.
//
// A snapshot only fits the exact Pyodide build and engine it was made with:
// it is stored with a stamp naming them (the worker writes it) and the
// SHA-256 of its bytes, and one with another stamp is deleted on sight; the
// worker deletes a damaged or failing one too and starts Python the usual way.
// A read-only store leaves a stale one where it is: an analysis pool's extra
// workers start together, beside the page's own, and only read (the worker
// asks none of them to keep or forget), so they never race over it.
//
// The worker imports this module at its start, beside Pyodide's loader, and
// not statically: a static import would hold back the worker's first line,
// and with it every download, by a round trip. So the hash comes from the
// worker (one copy, which its downloads need before this module has arrived),
// and so does the key: URLs here are the worker's, not this module's.

const SNAPSHOT_CACHE = "quetgames python snapshot"; // not the service worker's "quet-games …" caches

export class KeptSnapshot {
  /** base: the worker's folder URL; sha256(bytes) -> hex; readOnly: find and read only. */
  constructor({ base, sha256, readOnly = false }) {
    this.key = new URL("python-snapshot.bin", base).href; // a cache key only: never on the server
    this.sha256 = sha256;
    this.readOnly = readOnly;
  }

  /** {response} for a snapshot with this stamp; else {outcome} saying why not
   * ("none", "stale" (deleted), "unavailable": no Cache Storage here). */
  async find(stamp) {
    try {
      if (!globalThis.caches) return { outcome: "unavailable" };
      const cache = await caches.open(SNAPSHOT_CACHE);
      const response = await cache.match(this.key);
      if (!response) return { outcome: "none" };
      if (response.headers.get("X-Snapshot-Stamp") !== stamp) {
        if (!this.readOnly) await cache.delete(this.key);
        return { outcome: "stale" };
      }
      return { outcome: "found", response };
    } catch {
      return { outcome: "unavailable" }; // e.g. storage blocked: start the usual way, make none
    }
  }

  /** The bytes of a snapshot find() found, once they match the SHA-256 stored
   * with them (read_ms and verify_ms go into `mark`, the worker's timings). */
  async read(response, mark) {
    let before = performance.now();
    const bytes = new Uint8Array(await response.arrayBuffer());
    mark.read_ms = performance.now() - before;
    before = performance.now();
    const digest = await this.sha256(bytes);
    mark.verify_ms = performance.now() - before;
    if (digest !== response.headers.get("X-Snapshot-SHA256")) throw new Error("the snapshot is damaged (its SHA-256 differs)");
    return bytes;
  }

  async keep(bytes, stamp) {
    try {
      const headers = { "Content-Type": "application/octet-stream", "X-Snapshot-Stamp": stamp, "X-Snapshot-SHA256": await this.sha256(bytes) };
      await (await caches.open(SNAPSHOT_CACHE)).put(this.key, new Response(bytes, { headers }));
      console.info("quetgames kept the Python snapshot");
    } catch (err) {
      console.info(`Python snapshot not kept: ${err?.message ?? err}`); // e.g. over quota: next visit starts the usual way
    }
  }

  async forget() {
    try {
      await (await caches.open(SNAPSHOT_CACHE)).delete(this.key);
    } catch {
      // nothing kept, nothing to forget
    }
  }
}
