// The part of Python's standard library the site ships. build.py runs this in
// Node on the untrimmed Pyodide: it starts Python as web/worker.js does in the
// browser (wheel unpacked into site-packages, engine imported, memory snapshot
// taken), walks every bridge call with tools/bridge_tour.py and turns one Python
// error into a JavaScript one (as a failing call would). Every standard-library
// module loaded by then goes into <out.zip>, compiled by this very Python (so
// the bytecode fits the interpreter the site ships) the way `python -OO`
// compiles (no docstrings, no asserts) and with one line number per function, as
// sourceless .pyc files, stored uncompressed (the build gzips the whole zip,
// which packs far better than zip's file-by-file deflate). Compiling in the
// browser was most of Python's start-up: 1.2 s of a 2.3 s first start here.
// It prints JSON:
//   {"files": [module files found], "modules": N, "bytes": B, "problems": [...]}
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
    if origin.startswith(stdlib + "/") and origin.endswith(".py"):
        files.add(origin[len(stdlib) + 1:])

import importlib.util, io, marshal, types, zipfile

def without_line_numbers(code):
    # Line tables are 40% of the compressed bytecode. Each is replaced by the
    # smallest valid one, putting every instruction on the line of its def (an
    # empty table would break traceback), so a traceback through the standard
    # library names each function and the line it starts on.
    consts = tuple(without_line_numbers(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    units, table = len(code.co_code) // 2, bytearray()
    while units:
        length = min(units, 8)
        table += bytes((0x80 | 13 << 3 | (length - 1), 0))  # "no columns" entry, line delta 0
        units -= length
    return code.replace(co_linetable=bytes(table), co_consts=consts)

def pyc(name, source):
    code = compile(source, f"{stdlib}/{name}", "exec", dont_inherit=True, optimize=2)
    # a sourceless .pyc: magic, flags 0, then a timestamp and size nothing checks
    return importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(without_line_numbers(code))

trimmed = io.BytesIO()
with zipfile.ZipFile(stdlib) as full, zipfile.ZipFile(trimmed, "w", zipfile.ZIP_STORED) as out:
    for name in sorted(files):
        entry = zipfile.ZipInfo(name[:-len(".py")] + ".pyc", date_time=(1980, 1, 1, 0, 0, 0))
        out.writestr(entry, pyc(name, full.read(name)))
zip_bytes = trimmed.getvalue()
json.dumps({"files": sorted(files), "modules": len(sys.modules), "bytes": len(zip_bytes), "problems": found["problems"]})
`);
await writeFile(outPath, pyodide.globals.get("zip_bytes").toJs());
process.stdout.write(answer + "\n");
