// Answers known before the engine.
//
// A lesson's page and a puzzle's page first ask the engine things that depend
// on the build alone: the lesson (its steps and their positions), a puzzle's
// position, the puzzle of a given day. The build asks them once and writes
// the engine's answers into known/ (build.py write_known, py/quetgames/known.py),
// so while Python is still on its way the page draws its first screen from
// them. Each is the engine's own answer to the very request the page makes:
// no rule is read here. Anything else (a move, a preview, the answer to a
// puzzle) waits for the engine.
//
// A file that is missing or not what was asked for (offline before the
// engine, another build's) answers null: the page asks the engine.

const PUZZLE_ID = /^[a-z]{2}-[0-9a-f]{8}$/;
const GAME_ID = /^[a-z][a-z-]{0,39}$/;

let days = null; // Promise of known/days.json

async function read(name) {
  try {
    const response = await fetch(`known/${name}`);
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

/** The puzzle list's index for `date` (YYYY-MM-DD) from known/days.json, or
 * null; `ids`, the list the page holds, must be the one the days index.
 * (index.html's first script may have read the file already, for the day's
 * board: quetKnownDays.) */
async function dayIndex(date, ids) {
  days ??= Promise.resolve(self.quetKnownDays).then((early) => early ?? read("days.json"));
  const known = await days;
  const from = Date.parse(known?.first ?? "");
  const at = Date.parse(date);
  const count = ids.length;
  if (!Number.isFinite(from) || !Number.isFinite(at) || known.count !== count || !Array.isArray(known.days)) return null;
  if (Array.isArray(known.ids) && (known.ids.length !== count || known.ids.some((id, i) => id !== ids[i]))) return null;
  const index = known.days[Math.round((at - from) / 86400000)];
  return Number.isInteger(index) && index >= 0 && index < count ? index : null;
}

/** The build's answer to the engine call `call` with `args`, or null if it has none. */
export async function knownAnswer(call, args) {
  const more = Object.keys(args ?? {});
  if (call === "lesson" && more.length === 1 && GAME_ID.test(args.game ?? "")) {
    const lesson = await read(`lesson-${args.game}.json`);
    return lesson?.game === args.game && Array.isArray(lesson.steps) ? lesson : null;
  }
  if (call === "puzzle" && more.length === 1 && PUZZLE_ID.test(args.puzzle?.id ?? "")) {
    const shown = await read(`puzzle-${args.puzzle.id}.json`);
    return shown?.id === args.puzzle.id && shown.view ? shown : null;
  }
  if (call === "puzzle_of_the_day" && Array.isArray(args.ids) && typeof args.date === "string") {
    const index = await dayIndex(args.date, args.ids);
    return index == null ? null : args.ids[index];
  }
  return null;
}
