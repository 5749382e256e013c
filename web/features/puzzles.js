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
// Kept in localStorage under STORE: {rating, streak, best, seen: {id: "solved" | "missed"},
// answers: {id: {move, words, right}}, passed: [id, …], game: id | null}: the first answer
// given (shown again on a later visit), the puzzles opened here (Next passes over them while
// unanswered) and the game chosen for Next (null: any game).
// "#puzzle=today" and "#puzzle=next" become the puzzle's own id in the address
// once chosen, so a reload shows the same puzzle; the day's puzzle says so.
// Only a puzzle's first answer counts: solved first time, the rating goes up
// and the streak grows; a wrong first move (or asking for the solution)
// lowers the rating and ends the streak. The rating is Elo's, K = 32, against
// the puzzle's own rating (how often quick computer players miss it).

import { h } from "../ui/dom.js";
import { shareControls } from "../share/share.js";

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

/** The score once `puzzle` is answered for the first time (later answers change
 * nothing); `answer`: {move, words} of that first answer, kept to show again. */
function scored(puzzle, solved, answer = null) {
  const score = puzzleScore();
  if (score.seen[puzzle.id]) return score;
  score.seen[puzzle.id] = solved ? "solved" : "missed";
  const answers = score.answers && typeof score.answers === "object" ? score.answers : {};
  answers[puzzle.id] = { move: answer?.move ?? null, words: String(answer?.words ?? "You asked for the solution.").slice(0, 500), right: solved };
  score.answers = answers;
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

const NEAR = 200; // "at your level": within this of the player's rating

/**
 * The puzzle to open next (docs/PUZZLES.md, "Which puzzle opens") for a
 * player rated `rating` who has answered the puzzles in `seen` and opened
 * those in `passed`, in the game `game` (a game id; null: any game), the
 * puzzle `current` on screen:
 * 1. the candidates: the game's puzzles (all of them for any game) other
 *    than the one on screen, neither answered nor opened on this device;
 *    none left: those not answered; none left: all of them;
 * 2. any game: the games take turns, in the order of puzzles.json: the first
 *    game after the current puzzle's with a candidate within NEAR of the
 *    rating gives it (none within NEAR: every game's candidates);
 * 3. the candidate rated nearest the player; a tie goes to the earlier in
 *    puzzles.json. Nothing random: the same score gives the same puzzle.
 */
export function nearestPuzzle(puzzles, { rating, seen, passed = [] }, current = null, game = null) {
  const here = puzzles.find((p) => p.id === current);
  const opened = new Set(passed);
  const others = puzzles.filter((p) => p !== here && (!game || p.game === game));
  const unanswered = others.filter((p) => !seen[p.id]);
  const fresh = unanswered.filter((p) => !opened.has(p.id));
  let pool = fresh.length ? fresh : unanswered.length ? unanswered : others.length ? others : puzzles;
  if (!game) {
    const order = [...new Set(puzzles.map((p) => p.game))];
    const from = here ? order.indexOf(here.game) + 1 : 0;
    const turn = [...order.slice(from), ...order.slice(0, from)]
      .find((g) => pool.some((p) => p.game === g && Math.abs(p.rating.elo - rating) <= NEAR));
    if (turn) pool = pool.filter((p) => p.game === turn);
  }
  let best = null;
  pool.forEach((p) => {
    if (!best || Math.abs(p.rating.elo - rating) < Math.abs(best.rating.elo - rating)) best = p;
  });
  return best;
}

/** The puzzle `id` opened on this device: Next passes over it while it is unanswered. */
function opened(id) {
  const score = puzzleScore();
  const passed = Array.isArray(score.passed) ? score.passed.filter((p) => p !== id) : [];
  score.passed = [...passed, id].slice(-1000);
  keepScore(score);
}

/** The game the player chose for Next (a game id), or null: any game. */
function chosenGame(puzzles) {
  const game = puzzleScore().game;
  return puzzles.some((p) => p.game === game) ? game : null;
}

/** "Next puzzle from: Any game / each game": the choice is kept on this
 * device, and changing it opens the chosen game's puzzle at once. */
function gameChoice(puzzles, games, chosen, onChoose) {
  const ids = [...new Set(puzzles.map((p) => p.game))];
  const name = (id) => games.find((g) => g.id === id)?.name ?? id;
  const select = h("select", { id: "puzzle-game" },
    h("option", { value: "" }, "Any game"),
    ids.map((id) => h("option", { value: id, selected: id === chosen }, name(id))));
  select.addEventListener("change", () => {
    const score = puzzleScore();
    score.game = select.value || null;
    keepScore(score);
    onChoose(score.game);
  });
  return h("label", { class: "puzzle-game" }, "Puzzles of ", select);
}

/** The home page's entry. */
export function puzzlesPanel() {
  const score = puzzleScore();
  return h("section", { class: "puzzles-entry", "aria-labelledby": "puzzles-title" },
    h("h2", { id: "puzzles-title" }, "Puzzles"),
    h("p", {}, "Positions from real games where a win can be forced: find a move that keeps the win. Every answer is proved."),
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
  // (the board and the list, fetched when a puzzle is asked for: the home page needs neither)
  let board;
  try {
    board = await import("./puzzle-board.js");
  } catch {
    say("The puzzles could not be loaded. Check the connection and reload the page.");
    return;
  }
  const { noSuchPuzzle, puzzleList, puzzlePlay } = board;
  try {
    puzzles = await puzzleList();
  } catch (error) {
    say(error.message);
    return;
  }
  const daily = await ask("puzzle_of_the_day", { ids: puzzles.map((p) => p.id), date: today() });
  let id = which;
  if (which === "today") id = daily;
  if (which === "next") id = nearestPuzzle(puzzles, puzzleScore(), null, chosenGame(puzzles))?.id;
  const puzzle = puzzles.find((p) => p.id === id);
  if (!puzzle) {
    say(noSuchPuzzle(which));
    return;
  }
  boardFor(puzzle.game).catch(() => {}); // (its board's module and styles beside the position's answer; met again below)
  // the address names this puzzle, so a reload (or the link copied from it) shows it again
  if (which !== puzzle.id) history.replaceState(null, "", `#puzzle=${encodeURIComponent(puzzle.id)}`);
  const ofTheDay = puzzle.id === daily;
  opened(puzzle.id);
  const before = puzzleScore();
  const answered = before.seen[puzzle.id] ? before.answers?.[puzzle.id] ?? { right: before.seen[puzzle.id] === "solved", words: null, move: null } : null;
  const scoreEl = h("p", { class: "puzzle-score" }, scoreWords(puzzleScore()));
  // "Next puzzle": the one at the player's level now, so it follows each answer
  const nextLink = h("a", { class: "button", id: "puzzle-next" }, "Next puzzle");
  const nextOf = (game) => nearestPuzzle(puzzles, puzzleScore(), puzzle.id, game).id;
  const aimNext = () => { nextLink.href = `#puzzle=${nextOf(chosenGame(puzzles))}`; };
  aimNext();
  const played = await puzzlePlay(puzzle, {
    ask, boardFor,
    onAnswer: (said) => {
      scoreEl.textContent = scoreWords(scored(puzzle, said.right, said));
      aimNext();
    },
    onSolution: () => {
      scoreEl.textContent = scoreWords(scored(puzzle, false));
      aimNext();
    },
  });
  const { shown } = played;
  const game = games.find((g) => g.id === shown.game);
  played.buttons.append(nextLink, gameChoice(puzzles, games, chosenGame(puzzles), (game) => {
    aimNext();
    // (a puzzle of the chosen game now, unless this one already is)
    if (game && game !== puzzle.game) location.hash = `puzzle=${nextOf(game)}`;
  }));
  const embed = h("button", { type: "button", class: "secondary", id: "puzzle-embed" }, "Embed this puzzle");
  embed.addEventListener("click", () => import("../share/embed-snippet.js")
    .then((m) => m.openPuzzleEmbedDialog({ id: puzzle.id, name: shown.game_name, view: shown.view })));

  document.title = `${ofTheDay ? "Puzzle of the day" : "Puzzle"} · ${shown.game_name} · Quet Games`;
  // (what the page is for first: the task and the board; who invented the game and the rest after them)
  const earlier = answered ? h("p", { class: "puzzle-earlier", dataset: { answered: answered.right ? "right" : "wrong" } },
    answered.right ? "You solved this puzzle before" : "You answered this puzzle before",
    answered.move ? ` with ${answered.move}` : "", answered.words ? `: ${answered.words}` : ".",
    " Try it again: it no longer changes your rating.") : null;
  viewEl.replaceChildren(h("section", { class: "puzzle", dataset: { puzzle: puzzle.id, day: ofTheDay ? "today" : null } },
    h("h1", {}, ofTheDay ? `Puzzle of the day: ${shown.game_name}` : `Puzzle: ${shown.game_name}`),
    played.task,
    played.board,
    played.buttons,
    earlier,
    played.solution,
    scoreEl,
    h("p", { class: "inventor" }, `${shown.game_name} was invented by ${shown.inventor}. `,
      `This position comes from a game of the computer levels; puzzle rating ${shown.rating}.`,
      ofTheDay ? ` It is today's puzzle (${today()}), the same for everyone on this day.` : ""),
    game ? h("p", { class: "summary" }, game.summary ?? "") : null,
    h("section", { class: "puzzle-share", "aria-labelledby": "puzzle-share-title" },
      h("h2", { id: "puzzle-share-title" }, "Share this puzzle"),
      shareControls(puzzleAddress(puzzle.id), { title: `A puzzle of ${shown.game_name}`, id: "puzzle-link", label: "Link to this puzzle" }),
      embed),
    h("p", {}, h("a", { href: "#" }, "Back to the games"))));
  played.start();
  drawn();
  window.scrollTo({ top: 0 }); // (the task and the board, wherever the page was before)
}
