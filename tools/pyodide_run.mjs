// Run one of the repo's Python tools inside the pinned Pyodide, in Node: the
// same interpreter the site's worker runs, for timing the engine as the
// browser runs it (not throttled: docs/BENCH.md says how 4x CPU is measured).
//
//   node tools/pyodide_run.mjs <pyodide folder> <tool.py> [args...]
//
// The repo is mounted at /repo (NODEFS), so the tool imports py/quetgames
// from the working tree as it does in CPython.

import path from "node:path";
import url from "node:url";

const [folderArg, tool, ...args] = process.argv.slice(2);
if (!tool) {
  console.error("usage: node tools/pyodide_run.mjs <pyodide folder> <tool.py> [args...]");
  process.exit(2);
}
const { loadPyodide } = await import(url.pathToFileURL(path.join(path.resolve(folderArg), "pyodide.mjs")).href);
const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");
const pyodide = await loadPyodide({ indexURL: path.resolve(folderArg) + "/" });
pyodide.FS.mkdirTree("/repo");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root }, "/repo");
const script = "/repo/" + path.relative(root, path.resolve(tool));
pyodide.globals.set("tool_args", pyodide.toPy([script, ...args]));
pyodide.runPython(`
import sys, runpy
sys.argv = list(tool_args)
runpy.run_path(sys.argv[0], run_name="__main__")
`);
