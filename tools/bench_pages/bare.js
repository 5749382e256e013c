// Bare Pyodide: loadPyodide() with the same options the site's worker uses,
// on the main thread, timed from the call and from navigation start.
import { loadPyodide } from "../pyodide/pyodide.mjs";

const indexURL = new URL("../pyodide/", import.meta.url).href;
const started = performance.now();
try {
  await loadPyodide({ indexURL, lockFileURL: indexURL + "pyodide-lock.json", packageBaseUrl: indexURL });
  const ended = performance.now();
  window.__bench = { load_ms: ended - started, ready_ms: ended };
  document.documentElement.dataset.state = "ready";
} catch (error) {
  window.__bench = { error: String(error) };
  document.documentElement.dataset.state = "error";
}
document.getElementById("state").textContent = document.documentElement.dataset.state;
