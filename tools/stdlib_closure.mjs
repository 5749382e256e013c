// The Python the site ships: its standard library cut down, and the engine
// compiled. build.py runs this in Node on the untrimmed Pyodide.
//
// First the engine: every module of the wheel compiled by this very Python (so
// the bytecode fits the interpreter the site ships) the way `python -OO` does
// (no docstrings, no asserts; py/quetgames reads no __doc__ and its asserts
// only narrow types), its line table cut to line numbers without columns (a
// traceback still names every line; the columns were a third of the bytes), as
// sourceless .pyc files in a zip that Python imports from directly (zipimport):
// the browser unpacks nothing and compiles nothing. Importing the engine
// from .py sources took 852 ms in this Python, 152 ms from .pyc.
//
// Then, in a second Python started as web/worker.js starts it in the browser
// (that zip written to /lib and put on sys.path, engine imported, memory
// snapshot taken), it walks every bridge call with tools/bridge_tour.py and
// turns one Python error into a JavaScript one (as a failing call would). Every
// standard-library module loaded by then goes into <out.zip>, compiled the
// same way but with one line number per function, as sourceless .pyc files,
// stored uncompressed (the build gzips the whole zip, which packs far better
// than zip's file-by-file deflate); every engine module loaded by then goes
// into <engine.zip> (the command line and the balance runs, which the browser
// never imports, stay out). Compiling in the browser was most of Python's
// start-up: 1.2 s of a 2.3 s first start here. It prints JSON:
//   {"files": [module files found], "engine": [engine files], "modules": N,
//    "bytes": B, "engine_bytes": E, "problems": [...]}
//
//   node tools/stdlib_closure.mjs <pyodide folder> <engine wheel> <bridge_tour.py> <out.zip> <engine.zip>

import { readFile, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [folder, wheelPath, tourPath, outPath, enginePath] = process.argv.slice(2);
if (!enginePath) {
  console.error("usage: node stdlib_closure.mjs <pyodide folder> <engine wheel> <bridge_tour.py> <out.zip> <engine.zip>");
  process.exit(2);
}
// Where web/worker.js puts the engine's zip, and where on sys.path (right after the standard library's).
const ENGINE_ZIP = "/lib/quetgames.zip";
const { loadPyodide } = await import(pathToFileURL(path.join(folder, "pyodide.mjs")).href);
const start = (extra) => loadPyodide({
  indexURL: path.resolve(folder) + path.sep,
  stdout: (line) => console.error(line),
  stderr: (line) => console.error(line),
  ...extra,
});

// The Python that compiles (its own imports must not count in the closure below).
const compiler = await start({});
compiler.FS.writeFile("/tmp/engine.whl", new Uint8Array(await readFile(wheelPath)));
compiler.runPython(`
import importlib.util, io, marshal, types, zipfile

def svarint(value):
    unsigned = (-value) << 1 | 1 if value < 0 else value << 1
    out = bytearray()
    while unsigned >= 64:
        out.append(0x40 | unsigned & 63)
        unsigned >>= 6
    out.append(unsigned)
    return out

def lines_only(code):
    # The location table (Objects/locations.md) rewritten with "no column"
    # entries: each run of up to 8 code units on one line is two bytes or so.
    consts = tuple(lines_only(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    lines = [position[0] for position in code.co_positions()]
    table, previous, at = bytearray(), code.co_firstlineno, 0
    while at < len(lines):
        end = at
        while end < len(lines) and end - at < 8 and lines[end] == lines[at]:
            end += 1
        if lines[at] is None:
            table.append(0x80 | 15 << 3 | (end - at - 1))  # no location
        else:
            table.append(0x80 | 13 << 3 | (end - at - 1))  # line only
            table += svarint(lines[at] - previous)
            previous = lines[at]
        at = end
    slim = code.replace(co_linetable=bytes(table), co_consts=consts)
    if [position[0] for position in slim.co_positions()] != lines:
        raise ValueError(f"the line table of {code.co_qualname} did not survive")
    return slim

engine = {}
with zipfile.ZipFile("/tmp/engine.whl") as wheel:
    for name in sorted(wheel.namelist()):
        if name.startswith("quetgames/") and name.endswith(".py"):
            code = compile(wheel.read(name), "${ENGINE_ZIP}/" + name, "exec", dont_inherit=True, optimize=2)
            # a sourceless .pyc: magic, flags 0, then a timestamp and size nothing checks
            engine[name[:-len(".py")] + ".pyc"] = importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(lines_only(code))

def stored_zip(entries):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        for name in sorted(entries):
            archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), entries[name])
    return out.getvalue()

whole_engine = stored_zip(engine)
`);
const wholeEngine = compiler.globals.get("whole_engine").toJs();

// The Python the browser runs, started as web/worker.js starts it.
const pyodide = await start({ _makeSnapshot: true });
pyodide.FS.writeFile(ENGINE_ZIP, wholeEngine);
pyodide.runPython(`import sys; sys.path.insert(1, "${ENGINE_ZIP}")`);
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
files, engine_files = set(), set()
for module in list(sys.modules.values()):
    origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
    if origin.startswith(stdlib + "/") and origin.endswith(".py"):
        files.add(origin[len(stdlib) + 1:])
    elif origin.startswith("${ENGINE_ZIP}/") and origin.endswith(".pyc"):
        engine_files.add(origin[len("${ENGINE_ZIP}/"):])

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
engine_zip = io.BytesIO()
with zipfile.ZipFile("${ENGINE_ZIP}") as whole, zipfile.ZipFile(engine_zip, "w", zipfile.ZIP_STORED) as out:
    for name in sorted(engine_files):
        out.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), whole.read(name))
engine_bytes = engine_zip.getvalue()
json.dumps({"files": sorted(files), "engine": sorted(engine_files), "modules": len(sys.modules),
            "bytes": len(zip_bytes), "engine_bytes": len(engine_bytes), "problems": found["problems"]})
`);
await writeFile(outPath, pyodide.globals.get("zip_bytes").toJs());
await writeFile(enginePath, pyodide.globals.get("engine_bytes").toJs());
process.stdout.write(answer + "\n");
