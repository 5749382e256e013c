// Test page, mounted by the e2e fixture at /_e2e/ beside dist/ (never shipped):
// a bare Pyodide on the main thread (the whole one: the site's own standard
// library is cut down to what the engine needs, and micropip needs more),
// micropip from the site's rewritten lock file (integrity checks on), then
// micropip.install(<our wheel URL>).
import { loadPyodide } from "./pyodide-full/pyodide.mjs";

const out = document.getElementById("result");
const params = new URLSearchParams(location.search);

async function main() {
  const site = new URL("../", location.href);
  const info = await (await fetch(new URL("build.json", site))).json();
  const packages = new URL("pyodide/", site).href;
  const pyodide = await loadPyodide({
    indexURL: new URL("pyodide-full/", location.href).href,
    lockFileURL: packages + "pyodide-lock.json",
    packageBaseUrl: packages,
  });
  await pyodide.loadPackage("micropip", { checkIntegrity: true });
  const micropip = pyodide.pyimport("micropip");
  await micropip.install(new URL(info.wheel, site).href);
  micropip.destroy();
  const game = params.get("game") ?? "multiplications";
  const text = pyodide.runPython(`
import json, quetgames, importlib.metadata as md
state = quetgames.new_game(${JSON.stringify(game)})
move = state.legal_moves()[0] if state.legal_moves() else None
after = state.play(move) if move is not None else state
json.dumps({"version": md.version("quetgames"), "start": state.record, "move": move, "record": after.record,
            "installed": sorted(p.name for p in md.distributions() if p.name in ("quetgames", "micropip", "packaging"))})
`);
  return JSON.parse(text);
}

main().then(
  (result) => { out.textContent = JSON.stringify(result); document.documentElement.dataset.done = "ok"; },
  (error) => { out.textContent = String(error?.stack ?? error); document.documentElement.dataset.done = "error"; },
);
