// Practise your mistakes (docs/ANALYSIS.md): after Analyse, a finished game's
// moves marked ? or ?? with proved values become exercises. The engine (bridge
// call "mistakes") proves the position before each one and keeps only the
// moves that gave away a proved result; each exercise shows that position on
// the game's own board, takes every move that keeps the result, and says in
// the engine's words what the move played gave away and what a move tried
// does. Nothing is searched here, nothing is fetched, nothing is kept beyond
// this visit (the exercises of a record are remembered while the page lives).
//
// The trainer is a modal dialog over the game, so the game's own board and
// its analysis stay as they were. Screen readers: the task and each answer
// are one live region (#mistake-answer), as on the puzzle page.

import { h, playsDataMoves } from "../ui/dom.js";
import { askInDialog } from "../ui/dialog.js";
import { boardFor } from "../boards/index.js";

const MARKED = ["mistake", "blunder"]; // the analysis's ? and ??
const found = new Map(); // record -> Promise of the engine's {exercises} (this visit only)

/** The plies the analysis marks ? or ?? with proved values: the moves the
 * engine may turn into exercises. */
export function provedMistakes(result) {
  return (result?.moves ?? []).filter((m) => m && MARKED.includes(m.grade) && m.exact === true);
}

/** The offer under a finished game's analysis, or null when it has no
 * proved mistake. engine: {request(call, args)}; record: the whole game's
 * record; result: the finished analysis; view: the game's view (its end). */
export function mistakesOffer(engine, { record, result, view }) {
  const marked = provedMistakes(result);
  if (!view?.is_over || marked.length === 0 || Array.isArray(result.final)) return null;
  const help = h("p", { class: "hint", id: "analysis-mistakes-help" },
    marked.length === 1 ? "One move is marked ? or ?? where the result is proved: try it again."
      : `${marked.length} moves are marked ? or ?? where the result is proved: try them again.`);
  const button = h("button", {
    type: "button", class: "secondary analysis-mistakes", dataset: { key: "analysis-mistakes" },
    "aria-describedby": "analysis-mistakes-help",
  }, "Practise your mistakes");
  button.addEventListener("click", async () => {
    button.disabled = true;
    help.textContent = "Proving the positions before those moves…";
    try {
      const answer = await exercisesOf(engine, record, result);
      if (!answer.exercises.length) {
        help.textContent = "None of the marked moves gave away a proved result (each kept the result its position already had), so there is nothing to practise.";
        return;
      }
      help.textContent = answer.exercises.length === 1 ? "One proved mistake to practise."
        : `${answer.exercises.length} proved mistakes to practise.`;
      await practise(engine, record, answer);
    } catch (error) {
      help.textContent = `The mistakes could not be found: ${error.message}`;
    } finally {
      if (button.isConnected) button.disabled = false;
    }
  });
  return h("div", { class: "analysis-to-mistakes" }, button, help);
}

function exercisesOf(engine, record, result) {
  if (!found.has(record)) {
    // (only what the engine reads of the analysis: each move's ply, grade and proof)
    const analysis = { moves: result.moves.map((m) => ({ ply: m.ply, grade: m.grade, exact: m.exact === true })) };
    const asked = engine.request("mistakes", { record, analysis });
    asked.catch(() => found.delete(record)); // (a failure is asked again next time)
    found.set(record, asked);
  }
  return found.get(record);
}

/** The trainer: one exercise at a time in a modal dialog; resolves once it is closed. */
async function practise(engine, record, { game, exercises }) {
  const renderer = await boardFor(game);
  const title = h("h2", { id: "mistakes-title", tabindex: "-1" }, "Practise your mistakes");
  const close = h("button", { type: "button", class: "secondary", "aria-label": "Close practise your mistakes" }, "Close");
  const step = h("p", { class: "mistake-step" });
  const played = h("p", { class: "mistake-played" });
  const said = h("p", { class: "puzzle-answer mistake-answer", id: "mistake-answer", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  const board = h("div", { class: "board mistake-board" }); // (.board: the boards' own styles apply, as in a game)
  const retry = h("button", { type: "button", class: "secondary", hidden: true }, "Try again");
  const show = h("button", { type: "button", class: "secondary" }, "Show the moves that keep it");
  const previous = h("button", { type: "button", class: "secondary" }, "Previous mistake");
  const next = h("button", { type: "button" }, "Next mistake");
  const keeping = h("p", { class: "mistake-solutions", hidden: true });
  const dialog = h("dialog", { class: "mistakes-dialog", "aria-labelledby": "mistakes-title" },
    h("div", { class: "sheet" },
      h("div", { class: "dialog-head" }, title, close),
      step, played, said, board,
      h("div", { class: "puzzle-buttons mistake-buttons" }, retry, show, previous, next),
      keeping));
  close.addEventListener("click", () => dialog.close());

  let at = 0; // the exercise shown
  let shown = null; // its position: the bridge's {record, view}
  let locked = false;
  let busy = false;

  const say = (text, answer = null) => {
    said.textContent = text;
    if (answer) said.dataset.answer = answer;
    else delete said.dataset.answer;
  };

  const draw = () => {
    const ex = exercises[at];
    board.replaceChildren(renderer.render(shown.view, {
      seat: ex.seat,
      replaying: locked,
      play: (move) => tryMove(move),
      hints: false, // nothing on the board names the move to find
      explain: (text) => say(text),
      preview: (move) => engine.request("preview", { record: shown.record, move: String(move), seat: ex.seat }),
      confirm: async () => true, // no warnings: the answer says what a move does
    }));
  };

  async function tryMove(move) {
    if (locked || busy) return;
    busy = true;
    try {
      const ex = exercises[at];
      const answer = await engine.request("mistakes", { record, ply: ex.ply, move: String(move) });
      say(answer.words, answer.right ? "right" : "wrong");
      locked = true;
      retry.hidden = false;
      draw();
    } catch (error) {
      say(error.message);
    } finally {
      busy = false;
    }
  }

  async function open(i) {
    at = i;
    const ex = exercises[at];
    locked = true; // (the board shown is the last exercise's until this one's position comes)
    retry.hidden = true;
    keeping.hidden = true;
    step.textContent = `Mistake ${at + 1} of ${exercises.length}: move ${ex.ply}, ${ex.seat_name}.`;
    played.textContent = `In the game: ${ex.words}`;
    say(ex.task);
    previous.disabled = at === 0;
    next.disabled = at === exercises.length - 1;
    shown = await engine.request("open", { record: ex.record, seat: ex.seat });
    if (at !== i) return; // (another exercise was asked for meanwhile)
    locked = false;
    draw();
  }

  retry.addEventListener("click", () => {
    locked = false;
    retry.hidden = true;
    say(exercises[at].task);
    draw();
    board.querySelector("[data-move], input, button")?.focus();
  });
  show.addEventListener("click", () => {
    const { solutions, result, joint, complete } = exercises[at];
    const listed = solutions.slice(0, 12).join(", ");
    const more = solutions.length > 12 ? ` and ${solutions.length - 12} more` : "";
    const kept = result === 1 ? "the win" : "the shared win";
    // (a pick of a round both seats choose in secret secures its result, whatever the other picks)
    const [one, many, verb] = joint ? ["pick", "picks", "secure"] : ["move", "moves", "keep"];
    keeping.textContent = complete === false
      // (the engine proved the result before and after the move played, and its own move, but not every move in its time)
      ? `A ${one} that ${verb}s ${kept}: ${listed}. There was not time here to prove every ${one}, so others may ${verb} it too: any ${one} you try is proved.`
      : `${solutions.length === 1 ? `The one ${one} that ${verb}s` : `The ${solutions.length} ${many} that ${verb}`} ${kept}: ${listed}${more}.`;
    keeping.hidden = false;
  });
  previous.addEventListener("click", () => open(at - 1).then(() => previous.disabled ? next.focus() : previous.focus()));
  next.addEventListener("click", () => open(at + 1).then(() => next.disabled ? previous.focus() : next.focus()));

  // the moves no board target plays itself (a ring's Play button, a pick), as in the game view
  playsDataMoves(board, tryMove);

  await open(0);
  return askInDialog(dialog, () => null, title);
}
