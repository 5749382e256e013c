// Puzzles (docs/PUZZLES.md): a position from a real game where one move (or a
// few) keeps a win the engine has proved. The puzzles and their proofs come
// from puzzles.json, made and re-proved by the engine at build time; every
// word said about a move comes from the engine (bridge "puzzle"), judged
// against that proof. Nothing is searched and no rule lives here.
//
// Kept in localStorage under STORE: {rating, streak, best, seen: {id: "solved" | "missed"}}.
// Only a puzzle's first answer counts: solved first time, the rating goes up
// and the streak grows; a wrong first move (or asking for the solution)
// lowers the rating and ends the streak. The rating is Elo's, K = 32, against
// the puzzle's own rating (how often quick computer players miss it).

import { h } from "./dom.js";

const STORE = "quetgames.puzzles";
const START_RATING = 1200;
const K = 32;

let list = null; // Promise of the puzzles (puzzles.json's "puzzles")

/** Every puzzle of the site, fetched once. */
export function puzzleList() {
  list ??= fetch("puzzles.json").then((response) => {
    if (!response.ok) throw new Error(`the puzzles could not be read (${response.status})`);
    return response.json();
  }).then((data) => data.puzzles).catch((error) => {
    list = null; // asked again next time
    throw error;
  });
  return list;
}

/** The player's puzzle score on this device. */
export function puzzleScore() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE) ?? "null");
    if (kept && typeof kept.rating === "number" && typeof kept.streak === "number" && typeof kept.seen === "object") {
      return { best: 0, ...kept };
    }
  } catch {
    // unreadable: start again
  }
  return { rating: START_RATING, streak: 0, best: 0, seen: {} };
}

function keepScore(score) {
  try {
    localStorage.setItem(STORE, JSON.stringify(score));
  } catch {
    // storage refused: the score lasts this visit
  }
}

/** Elo after one game against a puzzle rated `against`: won 1, lost 0. */
export function eloAfter(rating, against, won) {
  const expected = 1 / (1 + 10 ** ((against - rating) / 400));
  return Math.round(rating + K * ((won ? 1 : 0) - expected));
}

/** The score once `puzzle` is answered for the first time (later answers change nothing). */
function scored(puzzle, solved) {
  const score = puzzleScore();
  if (score.seen[puzzle.id]) return score;
  score.seen[puzzle.id] = solved ? "solved" : "missed";
  score.rating = eloAfter(score.rating, puzzle.rating.elo, solved);
  score.streak = solved ? score.streak + 1 : 0;
  score.best = Math.max(score.best, score.streak);
  keepScore(score);
  return score;
}

function scoreWords(score) {
  return `Your puzzle rating: ${score.rating}. Streak: ${score.streak} (best ${score.best}).`;
}

/** Today's date on this device, YYYY-MM-DD: the puzzle of the day depends on it alone. */
function today() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** The home page's entry. */
export function puzzlesPanel() {
  const score = puzzleScore();
  return h("section", { class: "puzzles-entry", "aria-labelledby": "puzzles-title" },
    h("h2", { id: "puzzles-title" }, "Puzzles"),
    h("p", {}, "Positions from real games where one move wins and the others do not. Every answer is proved."),
    h("p", { class: "puzzle-links" },
      h("a", { class: "button", href: "#puzzle=today" }, "Puzzle of the day"), " ",
      h("a", { class: "button secondary", href: "#puzzle=next" }, "Next unsolved puzzle")),
    Object.keys(score.seen).length ? h("p", { class: "puzzle-score" }, scoreWords(score)) : null);
}

/** The puzzle page for `which` (an id, "today" or "next"). `ask(call, args)`
 * asks the engine once it is up; `boardFor(gameId)` gives the board module. */
export async function showPuzzle(viewEl, which, { ask, boardFor, games, drawn }) {
  const say = (text) => {
    viewEl.replaceChildren(h("section", { class: "puzzle" }, h("h1", {}, "Puzzle"), h("p", { role: "status" }, text),
      h("p", {}, h("a", { href: "#" }, "Back to the games"))));
    drawn();
  };
  let puzzles;
  try {
    puzzles = await puzzleList();
  } catch (error) {
    say(error.message);
    return;
  }
  let id = which;
  if (which === "today") id = await ask("puzzle_of_the_day", { ids: puzzles.map((p) => p.id), date: today() });
  if (which === "next") {
    const seen = puzzleScore().seen;
    id = (puzzles.find((p) => !seen[p.id]) ?? puzzles[0]).id;
  }
  const index = puzzles.findIndex((p) => p.id === id);
  if (index < 0) {
    say(`There is no puzzle “${String(which).slice(0, 40)}” here.`);
    return;
  }
  const puzzle = puzzles[index];
  const next = puzzles[(index + 1) % puzzles.length];
  const shown = await ask("puzzle", { puzzle });
  const renderer = await boardFor(shown.game);
  const game = games.find((g) => g.id === shown.game);

  const answerEl = h("p", { class: "puzzle-answer", id: "puzzle-answer", role: "status" }, shown.question);
  const scoreEl = h("p", { class: "puzzle-score" }, scoreWords(puzzleScore()));
  const solutionEl = h("div", { class: "puzzle-solution" });
  const boardEl = h("div", { class: "puzzle-board", id: "board" });
  const retry = h("button", { type: "button", class: "secondary", hidden: true }, "Try again");
  const showSolution = h("button", { type: "button", class: "secondary" }, "Show the solution");
  const nextLink = h("a", { class: "button", href: `#puzzle=${next.id}` }, "Next puzzle");
  let locked = false; // answered: the board waits for Try again
  let busy = false;

  const drawBoard = (view, still) => {
    boardEl.replaceChildren(renderer.render(view, {
      seat: shown.seat,
      replaying: still,
      play: (move) => tryMove(move),
      explain: (text) => { answerEl.textContent = text; },
      preview: (move) => ask("preview", { record: shown.record, move: String(move) }),
      confirm: async () => true, // no warnings in a puzzle: the answer says what a move does
    }));
  };

  async function tryMove(move) {
    if (locked || busy) return;
    busy = true;
    try {
      const said = await ask("puzzle", { puzzle, move: String(move) });
      const score = scored(puzzle, said.right);
      answerEl.textContent = said.words;
      answerEl.dataset.answer = said.right ? "right" : "wrong";
      scoreEl.textContent = scoreWords(score);
      locked = true;
      // the position after the move and the engine's reply, as the words say
      drawBoard(said.view ?? shown.view, true);
      retry.hidden = said.right;
    } catch (error) {
      answerEl.textContent = error.message;
    } finally {
      busy = false;
    }
  }

  retry.addEventListener("click", () => {
    locked = false;
    retry.hidden = true;
    answerEl.textContent = shown.question;
    delete answerEl.dataset.answer;
    drawBoard(shown.view, false);
    boardEl.querySelector("[data-move]")?.focus();
  });
  showSolution.addEventListener("click", async () => {
    const solved = await ask("puzzle", { puzzle, solution: true });
    scoreEl.textContent = scoreWords(scored(puzzle, false));
    solutionEl.replaceChildren(
      h("h2", {}, "Solution"),
      h("ol", { class: "puzzle-line" }, solved.line.map((step) => h("li", {}, step))),
      solved.end ? h("p", {}, solved.end) : null);
    solutionEl.querySelector("h2").setAttribute("tabindex", "-1");
    solutionEl.querySelector("h2").focus();
  });

  document.title = `Puzzle · ${shown.game_name} · Quet Games`;
  viewEl.replaceChildren(h("section", { class: "puzzle", dataset: { puzzle: puzzle.id } },
    h("h1", {}, `Puzzle: ${shown.game_name}`),
    h("p", { class: "inventor" }, `${shown.game_name} was invented by ${shown.inventor}. `,
      `This position comes from a game of the computer levels; puzzle rating ${shown.rating}.`),
    game ? h("p", { class: "summary" }, game.summary ?? "") : null,
    answerEl,
    boardEl,
    h("div", { class: "puzzle-buttons" }, retry, showSolution, nextLink),
    solutionEl,
    scoreEl,
    h("p", {}, h("a", { href: "#" }, "Back to the games"))));
  drawBoard(shown.view, false);
  drawn();
}
