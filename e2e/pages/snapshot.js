// Talks to the site's worker (dist/worker.js?diagnostics) with its own protocol.
const worker = new Worker(new URL("/worker.js?diagnostics", location.href), { type: "module" });
const pending = new Map();
let nextId = 1;
worker.onmessage = ({ data }) => {
  if (data?.ready !== undefined) {
    window.__timings = data.timings ?? null;
    window.__error = data.error ?? null;
    document.documentElement.dataset.state = data.ready ? "ready" : "error";
  } else if (pending.has(data?.id)) {
    const { resolve, reject } = pending.get(data.id);
    pending.delete(data.id);
    data.ok ? resolve(data.result) : reject(new Error(data.error.message));
  }
};
window.__call = (call, args = {}) => new Promise((resolve, reject) => {
  const id = nextId++;
  pending.set(id, { resolve, reject });
  worker.postMessage({ id, call, args });
});
