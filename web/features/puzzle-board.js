// One puzzle on screen, for the site's puzzle page (puzzles.js) and the puzzle
// embed (embed.js, mode=puzzle) alike: the task in words, the game's own
// board, Try again and Show the solution. Both take the puzzle from the
// shipped puzzles.json and every word about a move from the engine (bridge
// call "puzzle"), which judges it against the stored proof: nothing is
// searched and no rule lives here. What the page adds (the score on this
// device, the next puzzle, sharing) it passes in.
//
// Screen readers: the task and each answer are one live region
// (#puzzle-answer, role=status, aria-live=polite); the task is written into it
// once the region is on the page, so it is read out, not only shown.

import { h, playsDataMoves } from "../ui/dom.js";

let list = null; // Promise of the puzzles (puzzles.json's "puzzles")

/** Every puzzle of the site, fetched once (a failure is asked again next time). */
export function puzzleList() {
  list ??= fetch("puzzles.json.gz").then(async (response) => {
    if (!response.ok) throw new Error(`the puzzles could not be read (${response.status})`);
    return JSON.parse(await expanded(new Uint8Array(await response.arrayBuffer())));
  }).then((data) => {
    if (!Array.isArray(data?.puzzles)) throw new Error("the puzzle file holds no puzzles");
    return data.puzzles;
  }).catch((error) => {
    list = null;
    throw error;
  });
  return list;
}

/** The text of a gzipped file: the build gzips it, and a host that sends it
 * with Content-Encoding: gzip has the browser expand it already (the first
 * two bytes tell which). */
async function expanded(bytes) {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return new TextDecoder().decode(bytes);
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
}

/** What a puzzle asks, from its stored entry alone (before the engine is
 * up): the words of quetgames.puzzles.task, which the engine's own task
 * on the page says too. */
export function puzzleTask(puzzle) {
  const n = puzzle.solutions.length;
  const move = puzzle.joint ? "pick" : "move";
  return `find a ${move} that keeps the win (${n} of ${puzzle.rating.legal} ${move}s ${n === 1 ? "does" : "do"})`;
}

/** The words for a puzzle id that is not in the list (the id is shortened: it came from an address). */
export function noSuchPuzzle(id) {
  return `There is no puzzle “${String(id).slice(0, 40)}” here.`;
}

/**
 * Draw `puzzle` (an entry of puzzles.json) and let the reader play it.
 * ask(call, args): the engine, once it is up. boardFor(gameId): the board module.
 * onAnswer(said): after each answer ({right, words, …}, the bridge's).
 * onSolution(): when the solution is shown. afterDraw(): after each board drawing.
 * Returns {shown (the bridge's position answer), task, board, buttons (with a wrong move's
 * line, stepped through on the board after "Show why"), solution, start()}:
 * the caller places the four elements, then calls start() to draw the board
 * and say the task.
 */
export async function puzzlePlay(puzzle, { ask, boardFor, onAnswer = () => {}, onSolution = () => {}, afterDraw = () => {} }) {
  const shown = await ask("puzzle", { puzzle });
  const renderer = await boardFor(shown.game);

  // (the question in it from the start, for the eye: written again into the
  // live region once on the page, it is read out, and nothing below moves)
  const task = h("p", { class: "puzzle-answer", id: "puzzle-answer", role: "status", "aria-live": "polite", "aria-atomic": "true" }, shown.question);
  const board = h("div", { class: "board puzzle-board", id: "board" }); // (.board: the boards' own styles apply, as in a game)
  const retry = h("button", { type: "button", class: "secondary", hidden: true }, "Try again");
  const showSolution = h("button", { type: "button", class: "secondary" }, "Show the solution");
  const solution = h("div", { class: "puzzle-solution" });
  // a wrong answer's why: the engine's line after it (the reply and what follows), step by step on the board
  const showWhy = h("button", { type: "button", class: "secondary", hidden: true }, "Show why");
  const why = h("div", { class: "puzzle-why", hidden: true });
  let wrongMove = null;
  let locked = false; // answered: the board waits for Try again
  let busy = false;

  const say = (text, answer = null) => {
    task.textContent = text;
    if (answer) task.dataset.answer = answer;
    else delete task.dataset.answer;
  };

  const draw = (view, still) => {
    board.replaceChildren(renderer.render(view, {
      seat: shown.seat,
      replaying: still,
      play: (move) => tryMove(move),
      // nothing on the board says which move scores: finding it is the puzzle
      // (a board's list of the moves that would score would name the answer)
      hints: false,
      start: shown.start, // (a move being built starts from a wrong one: the first look is never the answer)
      explain: (text) => { task.textContent = text; },
      preview: (move) => ask("preview", { record: shown.record, move: String(move) }),
      confirm: async () => true, // no warnings in a puzzle: the answer says what a move does
    }));
    afterDraw();
  };

  async function tryMove(move) {
    if (locked || busy) return;
    busy = true;
    try {
      const said = await ask("puzzle", { puzzle, move: String(move) });
      say(said.words, said.right ? "right" : "wrong");
      locked = true;
      // the position after the move and the engine's reply, as the words say
      draw(said.view ?? shown.view, true);
      retry.hidden = said.right;
      wrongMove = said.right ? null : String(move);
      showWhy.hidden = said.right;
      onAnswer({ move: String(move), ...said });
    } catch (error) {
      task.textContent = error.message;
    } finally {
      busy = false;
    }
  }

  // the moves no board target plays itself (a ring's Play button, a pick), as in the game view
  playsDataMoves(board, tryMove);

  retry.addEventListener("click", () => {
    locked = false;
    retry.hidden = true;
    showWhy.hidden = true;
    why.hidden = true;
    why.replaceChildren();
    say(shown.question);
    draw(shown.view, false);
    board.querySelector("[data-move]")?.focus();
  });
  showSolution.addEventListener("click", async () => {
    let solved;
    try {
      solved = await ask("puzzle", { puzzle, solution: true });
    } catch (error) {
      task.textContent = error.message;
      return;
    }
    onSolution();
    solution.replaceChildren(
      h("h2", { tabindex: "-1" }, "Solution"),
      h("ol", { class: "puzzle-line" }, solved.line.map((step) => h("li", {}, step))),
      solved.end ? h("p", {}, solved.end) : null);
    solution.querySelector("h2").focus();
  });

  showWhy.addEventListener("click", async () => {
    let line;
    try {
      line = await ask("puzzle", { puzzle, move: wrongMove, why: true });
    } catch (error) {
      task.textContent = error.message;
      return;
    }
    showWhy.hidden = true;
    stepThrough(line);
  });

  /** The line of a wrong move on the board, one step at a time (Back, Next step). */
  function stepThrough({ steps, end }) {
    const said = h("p", { class: "puzzle-why-step", "aria-live": "polite" });
    const back = h("button", { type: "button", class: "secondary" }, "Back");
    const forward = h("button", { type: "button" }, "Next step");
    const items = steps.map((step) => h("li", {}, step.words));
    const show = (at) => {
      draw(steps[at].view, true);
      said.textContent = `Step ${at + 1} of ${steps.length}: ${steps[at].words}.${at === steps.length - 1 && end ? ` ${end}` : ""}`;
      items.forEach((item, i) => (i === at ? item.setAttribute("aria-current", "step") : item.removeAttribute("aria-current")));
      back.disabled = at === 0;
      forward.disabled = at === steps.length - 1;
      why.dataset.step = String(at + 1);
    };
    let at = 0;
    back.addEventListener("click", () => show(at = Math.max(0, at - 1)));
    forward.addEventListener("click", () => show(at = Math.min(steps.length - 1, at + 1)));
    // (the step and its buttons just under the board, so that a phone shows both; the whole line folded)
    why.replaceChildren(h("h2", {}, "Why not"), said, h("div", { class: "puzzle-why-buttons" }, back, forward),
      h("details", {}, h("summary", {}, `The whole line (${steps.length} moves)`), h("ol", { class: "puzzle-line" }, items)));
    why.hidden = false;
    show(0);
    forward.focus({ preventScroll: true });
  }

  return {
    shown, task, board, solution,
    buttons: h("div", { class: "puzzle-buttons" }, why, retry, showWhy, showSolution),
    start() {
      draw(shown.view, false);
      // written once the live region is on the page, so that it is read out
      requestAnimationFrame(() => say(shown.question));
    },
  };
}
