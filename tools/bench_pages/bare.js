// Bare Pyodide, as Pyodide's docs have a page do it: import loadPyodide from the
// npm package's pyodide.mjs and call loadPyodide({indexURL}) on the main
// thread, timed from the call and from navigation start. The files are the
// package's own (tools/bench.py serves them at ./pyodide-npm/), not the site's
// copy, so the build's way of shipping Pyodide never changes this baseline.
import { loadPyodide } from "./pyodide-npm/pyodide.mjs";

const indexURL = new URL("./pyodide-npm/", import.meta.url).href;
const started = performance.now();
try {
  await loadPyodide({ indexURL });
  const ended = performance.now();
  window.__bench = { load_ms: ended - started, ready_ms: ended };
  document.documentElement.dataset.state = "ready";
} catch (error) {
  window.__bench = { error: String(error) };
  document.documentElement.dataset.state = "error";
}
document.getElementById("state").textContent = document.documentElement.dataset.state;
