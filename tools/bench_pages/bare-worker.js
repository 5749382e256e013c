// Bare Pyodide in a module worker (bare-worker-thread.js): timed on the page's
// clock from navigation start to the worker's word that loadPyodide() resolved.
const worker = new Worker(new URL("./bare-worker-thread.js", import.meta.url), { type: "module" });
worker.onmessage = ({ data }) => {
  const ended = performance.now();
  if (data.error) {
    window.__bench = { error: data.error };
    document.documentElement.dataset.state = "error";
  } else {
    window.__bench = { load_ms: data.load_ms, ready_ms: ended };
    document.documentElement.dataset.state = "ready";
  }
  document.getElementById("state").textContent = document.documentElement.dataset.state;
};
