// The worker of bare-worker.html: loadPyodide({indexURL}) on the npm package's
// own files, then one message with the call's duration.
import { loadPyodide } from "./pyodide-npm/pyodide.mjs";

const started = performance.now();
try {
  await loadPyodide({ indexURL: new URL("./pyodide-npm/", import.meta.url).href });
  postMessage({ load_ms: performance.now() - started });
} catch (error) {
  postMessage({ error: String(error) });
}
