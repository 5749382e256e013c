// Puzzles (docs/PUZZLES.md): a position from a real game where one move (or a
// few) keeps a win the engine has proved. The puzzles and their proofs come
// from puzzles.json, made and re-proved by the engine at build time; every
// word said about a move comes from the engine (bridge "puzzle"), judged
// against that proof. Nothing is searched and no rule lives here.
//
// Drawing a puzzle and answering its moves is puzzle-board.js, shared with the
// puzzle embed (embed.js); this module adds the home page's entry, which
// puzzle to open, the score on this device, and sharing.
//
// Kept in localStorage under STORE: {rating, streak, best, seen: {id: "solved" | "missed"}}.
// Only a puzzle's first answer counts: solved first time, the rating goes up
// and the streak grows; a wrong first move (or asking for the solution)
// lowers the rating and ends the streak. The rating is Elo's, K = 32, against
// the puzzle's own rating (how often quick computer players miss it).

import { h } from "./dom.js";
import { noSuchPuzzle, puzzleList, puzzlePlay } from "./puzzle-board.js";
import { shareControls } from "./share.js";

const STORE = "quetgames.puzzles";
const START_RATING = 1200;
const K = 32;

/** The player's puzzle score on this device. */
export function puzzleScore() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE) ?? "null");
    // (read from storage, so checked: a rating or a list of answers that is not one starts again)
    if (kept && Number.isFinite(kept.rating) && Number.isFinite(kept.streak) && kept.seen && typeof kept.seen === "object") {
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

/**
 * The puzzle to open next for a player rated `rating` who has answered the
 * puzzles in `seen` (docs/PUZZLES.md, "Which puzzle opens"): among the
 * puzzles not yet answered on this device (all of them once every one has
 * been), other than the one on screen (`current`), the one whose rating is
 * nearest the player's; a tie goes to another game than the current
 * puzzle's, then to the earlier one in puzzles.json. Nothing random: the same
 * score gives the same puzzle.
 */
export function nearestPuzzle(puzzles, { rating, seen }, current = null) {
  const here = puzzles.find((p) => p.id === current);
  const others = puzzles.filter((p) => p !== here);
  const fresh = others.filter((p) => !seen[p.id]);
  const pool = fresh.length ? fresh : others.length ? others : puzzles;
  let best = null;
  let bestKey = null;
  pool.forEach((p) => {
    const key = [Math.abs(p.rating.elo - rating), here && p.game === here.game ? 1 : 0];
    if (!best || key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
      best = p;
      bestKey = key;
    }
  });
  return best;
}

/** The home page's entry. */
export function puzzlesPanel() {
  const score = puzzleScore();
  return h("section", { class: "puzzles-entry", "aria-labelledby": "puzzles-title" },
    h("h2", { id: "puzzles-title" }, "Puzzles"),
    h("p", {}, "Positions from real games where one move wins and the others do not. Every answer is proved."),
    h("p", { class: "puzzle-links" },
      h("a", { class: "button", href: "#puzzle=next" }, "A puzzle at your level"), " ",
      h("a", { class: "button secondary", href: "#puzzle=today" }, "Puzzle of the day")),
    h("p", { class: "puzzle-score" }, Object.keys(score.seen).length ? scoreWords(score)
      : `You start with a puzzle rating of ${score.rating}; each answer moves it.`));
}

function puzzleAddress(id) {
  const url = new URL(location.href);
  url.hash = `puzzle=${id}`;
  return url.href;
}

/** The puzzle page for `which` (an id, "today", or "next": the puzzle at the
 * player's level, nearestPuzzle). `ask(call, args)` asks the engine once it
 * is up; `boardFor(gameId)` gives the board module. */
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
  if (which === "next") id = nearestPuzzle(puzzles, puzzleScore())?.id;
  const puzzle = puzzles.find((p) => p.id === id);
  if (!puzzle) {
    say(noSuchPuzzle(which));
    return;
  }
  const scoreEl = h("p", { class: "puzzle-score" }, scoreWords(puzzleScore()));
  // "Next puzzle": the one at the player's level now, so it follows each answer
  const nextLink = h("a", { class: "button", id: "puzzle-next" }, "Next puzzle");
  const aimNext = () => { nextLink.href = `#puzzle=${nearestPuzzle(puzzles, puzzleScore(), puzzle.id).id}`; };
  aimNext();
  const played = await puzzlePlay(puzzle, {
    ask, boardFor,
    onAnswer: (said) => {
      scoreEl.textContent = scoreWords(scored(puzzle, said.right));
      aimNext();
    },
    onSolution: () => {
      scoreEl.textContent = scoreWords(scored(puzzle, false));
      aimNext();
    },
  });
  const { shown } = played;
  const game = games.find((g) => g.id === shown.game);
  played.buttons.append(nextLink);
  const embed = h("button", { type: "button", class: "secondary", id: "puzzle-embed" }, "Embed this puzzle");
  embed.addEventListener("click", () => import("./embed-snippet.js")
    .then((m) => m.openPuzzleEmbedDialog({ id: puzzle.id, name: shown.game_name, view: shown.view })));

  document.title = `Puzzle · ${shown.game_name} · Quet Games`;
  viewEl.replaceChildren(h("section", { class: "puzzle", dataset: { puzzle: puzzle.id } },
    h("h1", {}, `Puzzle: ${shown.game_name}`),
    h("p", { class: "inventor" }, `${shown.game_name} was invented by ${shown.inventor}. `,
      `This position comes from a game of the computer levels; puzzle rating ${shown.rating}.`),
    game ? h("p", { class: "summary" }, game.summary ?? "") : null,
    played.task,
    played.board,
    played.buttons,
    played.solution,
    scoreEl,
    h("section", { class: "puzzle-share", "aria-labelledby": "puzzle-share-title" },
      h("h2", { id: "puzzle-share-title" }, "Share this puzzle"),
      shareControls(puzzleAddress(puzzle.id), { title: `A puzzle of ${shown.game_name}`, id: "puzzle-link", label: "Link to this puzzle" }),
      embed),
    h("p", {}, h("a", { href: "#" }, "Back to the games"))));
  played.start();
  drawn();
}
