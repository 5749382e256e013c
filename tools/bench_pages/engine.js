// The site's own worker (worker.js?diagnostics), spoken to with its protocol:
// window.__call(name, args) -> Promise of the result.
const worker = new Worker(new URL("../worker.js?diagnostics", import.meta.url), { type: "module" });
const pending = new Map();
let nextId = 1;
worker.onmessage = ({ data }) => {
  if (data?.ready === true) document.documentElement.dataset.state = "ready";
  else if (data?.ready === false) document.documentElement.dataset.state = "error";
  else if (pending.has(data?.id)) {
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
