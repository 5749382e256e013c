// The part of Python's standard library the site ships. build.py runs this in
// Node on the untrimmed Pyodide: it starts Python as web/worker.js does in the
// browser (wheel unpacked into site-packages, engine imported, memory snapshot
// taken), walks every bridge call with tools/bridge_tour.py and turns one Python
// error into a JavaScript one (as a failing call would). Every standard-library
// module loaded by then goes into <out.zip>, stored uncompressed (the build
// gzips the whole file, which packs far better than zip's file-by-file
// deflate), each re-written by Python 3.14's own ast without comments and
// docstrings, the way `python -OO` drops them. It prints JSON:
//   {"files": [paths inside the zip], "modules": N, "bytes": B, "problems": [...]}
//
//   node tools/stdlib_closure.mjs <pyodide folder> <engine wheel> <bridge_tour.py> <out.zip>

import { readFile, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [folder, wheelPath, tourPath, outPath] = process.argv.slice(2);
if (!outPath) {
  console.error("usage: node stdlib_closure.mjs <pyodide folder> <engine wheel> <bridge_tour.py> <out.zip>");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(path.join(folder, "pyodide.mjs")).href);
const pyodide = await loadPyodide({
  indexURL: path.resolve(folder) + path.sep,
  _makeSnapshot: true,
  stdout: (line) => console.error(line),
  stderr: (line) => console.error(line),
});

const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
pyodide.unpackArchive(new Uint8Array(await readFile(wheelPath)), "wheel", { extractDir: sitePackages });
pyodide.runPython("import importlib; importlib.invalidate_caches()");
pyodide.runPython("import quetgames.bridge; quetgames.bridge.call('games', '{}')");
pyodide.makeMemorySnapshot();

try {
  pyodide.runPython("raise ValueError('an error on its way to JavaScript')");
} catch {
  // expected: what matters is what formatting it imported
}
const tourSource = await readFile(tourPath, "utf8");
const answer = pyodide.runPython(`
${tourSource}

import json, sys, quetgames.bridge
found = tour(quetgames.bridge.call, list(quetgames.bridge._CALLS))
stdlib = "/lib/python%d%d.zip" % sys.version_info[:2]
files = set()
for module in list(sys.modules.values()):
    origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
    if origin.startswith(stdlib + "/"):
        files.add(origin[len(stdlib) + 1:])

import ast, io, zipfile

def without_docstrings(source):
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                node.body = node.body[1:] or [ast.Pass()]
    return ast.unparse(tree) + "\\n"

trimmed = io.BytesIO()
with zipfile.ZipFile(stdlib) as full, zipfile.ZipFile(trimmed, "w", zipfile.ZIP_STORED) as out:
    for name in sorted(files):
        entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        out.writestr(entry, without_docstrings(full.read(name)).encode())
zip_bytes = trimmed.getvalue()
json.dumps({"files": sorted(files), "modules": len(sys.modules), "bytes": len(zip_bytes), "problems": found["problems"]})
`);
await writeFile(outPath, pyodide.globals.get("zip_bytes").toJs());
process.stdout.write(answer + "\n");
