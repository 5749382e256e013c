// After a game: how each move changed its mover's expected result (the
// engine's analysis, bridge "analyse"), as a chart, marks in the moves list,
// each seat's accuracy and, at the move shown, the best move found.
//
// The work is spread over every core (pool.js): the page's engine and
// navigator.hardwareConcurrency − 1 extra workers (1 to 8) take moves from one
// queue, a few moves a request. It runs in two passes. The first look judges
// every move with a short search (FIRST_ITERATIONS, with proofs capped to
// match, so only short endings are exact already), so the whole chart is there within seconds; then each move
// is judged again at the full budget, and its point, mark and the accuracy
// firm up as it arrives (a point still from the first look is drawn open and
// dashed, and its name says so). One progress bar covers both passes and all
// workers. The page never waits on it (the workers are other threads; the
// page's own requests, such as stepping through the game, queue behind one
// short request of its own engine at most). Cancel stops every extra worker
// at once and drops everything of that run: nothing half-done is kept, and
// the panel is back to its Analyse button (the one request the page's own
// engine may have under way finishes there and is thrown away).
//
// Finished analyses are kept on this device (localStorage), one entry per
// record and settings, at most MAX_KEPT of them (the oldest go first), only
// once every move has its full-budget result; an entry that does not read
// back as a whole analysis of that record is ignored and removed. Values,
// classes, best moves and accuracy all come from the engine; this module only
// joins the answers and draws them, and words them as comments on request
// (Add as comments: bridge "annotate_many").

import { h } from "../ui/dom.js";
import { mistakesOffer } from "./mistakes.js";

// moves a request, [page's engine, extra worker]: the page's engine takes
// little at a time, so its own requests wait behind one move at most
const SPAN = { first: [6, 10], deep: [1, 2] };
const REFRESH_MS = 250; // a running analysis is redrawn at most this often
const FIRST_ITERATIONS = 10; // the first look's search: a 60-move game in about a second a worker
const STORE_PREFIX = "quetgames.analysis.v1:";
const INDEX_KEY = "quetgames.analysis.v1.index";
const MAX_KEPT = 30;
const MAX_ENTRY_CHARS = 200_000;

// test-only: ?analysis-budget=S or ?analysis-iterations=N (else the engine's default budget)
const query = new URLSearchParams(location.search);
const SETTINGS = (() => {
  const iterations = Number.parseInt(query.get("analysis-iterations") ?? "", 10);
  if (iterations > 0) return { iterations };
  const budget = Number(query.get("analysis-budget"));
  return budget > 0 ? { budget } : {};
})();
// a first look is worth it unless the full analysis is about as short
const FIRST_PASS = !(SETTINGS.iterations <= 2 * FIRST_ITERATIONS);

const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const MARK_WORDS = { inaccuracy: "An inaccuracy", mistake: "A mistake", blunder: "A blunder" };
const SVG_NS = "http://www.w3.org/2000/svg";

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) if (value != null && value !== false) el.setAttribute(key, value);
  el.append(...children.filter((c) => c != null));
  return el;
}

const fmt = (x) => x.toFixed(2);
const seatName = (view, seat) => view.seats[seat]?.name || `Player ${seat + 1}`;

// -- keeping results on this device ---------------------------------------------------

// The engine build the analyses of this page come from (build.json's
// wheel_sha256, told by app.js and embed.js): a newer engine may judge moves
// otherwise, so what an older one found is not shown as its verdict.
let engineIdentity = "";

/** Keep and look up analyses under this engine build's identity from now on. */
export function useEngineIdentity(id) {
  engineIdentity = typeof id === "string" && /^[0-9a-f]{16,}$/.test(id) ? id.slice(0, 16) : "";
}

function settingsKey() {
  const setting = SETTINGS.iterations ? `i${SETTINGS.iterations}` : SETTINGS.budget ? `b${SETTINGS.budget}` : "default";
  return engineIdentity ? `${setting}@${engineIdentity}` : setting;
}

function storeKey(record) {
  return `${STORE_PREFIX}${settingsKey()}:${record}`;
}

/** A stored analysis of `record`, if it reads back whole; else null (and a bad one is removed). */
function loadKept(record) {
  let text;
  try {
    text = localStorage.getItem(storeKey(record));
  } catch {
    return null;
  }
  if (text == null) return null;
  try {
    const kept = JSON.parse(text);
    if (wellFormed(kept, record)) return kept;
  } catch {
    // not JSON: fall through and forget it
  }
  try { localStorage.removeItem(storeKey(record)); } catch { /* storage blocked */ }
  return null;
}

function wellFormed(kept, record) {
  if (!kept || typeof kept !== "object" || kept.record !== record || !Array.isArray(kept.moves)) return false;
  if (!Number.isInteger(kept.total) || kept.moves.length !== kept.total || !Array.isArray(kept.classes)) return false;
  return kept.moves.every((m, i) => m && typeof m === "object" && m.ply === i + 1 && Number.isInteger(m.seat)
    && [m.before, m.after, m.best_value, m.accuracy, m.loss].every((x) => typeof x === "number" && Number.isFinite(x))
    && m.before >= 0 && m.before <= 1 && m.after >= 0 && m.after <= 1
    && typeof m.move === "string" && typeof m.best_move === "string" && kept.classes.includes(m.grade)
    && typeof m.exact === "boolean" && typeof m.forced === "boolean");
}

function keep(analysis) {
  const key = storeKey(analysis.record);
  const text = JSON.stringify(analysis);
  if (text.length > MAX_ENTRY_CHARS) return;
  try {
    let index = [];
    try {
      index = JSON.parse(localStorage.getItem(INDEX_KEY) ?? "[]");
      if (!Array.isArray(index)) index = [];
    } catch {
      index = [];
    }
    index = index.filter((k) => typeof k === "string" && k !== key);
    index.push(key);
    while (index.length > MAX_KEPT) localStorage.removeItem(index.shift());
    localStorage.setItem(INDEX_KEY, JSON.stringify(index));
    localStorage.setItem(key, text);
  } catch {
    // storage full or blocked: the analysis is shown, just not kept
  }
}

/** The comment for a marked move m of an analysis, in words: its mark, what
 * was played, the best move found when it differs, and the expected result
 * before and after ("?? A blunder: Ann played c4; the best move found was d5
 * (expected result 0.81 → 0.12, estimated)."). */
export function markComment(m, view) {
  const best = m.best_move !== m.move ? `; the best move found was ${m.best_move}` : "";
  return `${MARKS[m.grade]} ${MARK_WORDS[m.grade]}: ${seatName(view, m.seat)} played ${m.move}${best} `
    + `(expected result ${fmt(m.before)} → ${fmt(m.after)}, ${m.exact ? "proved" : "estimated"}).`;
}

/** The comments the analysis adds to the game: {ply, text} for each marked
 * move whose comment does not say it yet, the text after any comment already
 * there (never instead of it), and `full`, how many had no room left under
 * the comment limit. */
export function analysisComments(result, view) {
  const notes = view.notes ?? { comments: [], comment_limit: 1000 };
  const limit = notes.comment_limit ?? 1000;
  const had = new Map(notes.comments.map(({ ply, text }) => [ply, text]));
  const comments = [];
  let full = 0;
  for (const m of result.moves) {
    if (!MARKS[m.grade]) continue;
    const said = markComment(m, view);
    const old = had.get(m.ply) ?? "";
    if (old.includes(said)) continue;
    const text = old ? `${old}\n\n${said}` : said;
    if (text.length > limit) full += 1;
    else comments.push({ ply: m.ply, text });
  }
  return { comments, full };
}

/** Each seat's accuracy: the mean of its moves' accuracy over those with a choice (the engine's own rule, docs/ANALYSIS.md). */
function accuracyOf(moves, players) {
  return Array.from({ length: players }, (_, seat) => {
    const mine = moves.filter((m) => m.seat === seat && !m.forced).map((m) => m.accuracy);
    return mine.length ? mine.reduce((a, b) => a + b, 0) / mine.length : null;
  });
}

// -- the analysis of the game on screen ------------------------------------------------

export class AnalysisPanel {
  #pool = null; // the engines that share the work (bridge/pool.js), made on the first Analyse
  #engine; // the page's engine, for practise your mistakes (mistakes.js)
  #host;
  #memory = new Map(); // record -> finished analysis (this visit)
  run = null; // while one runs: {record, total, moves, final (per move), judged, firm, version, ...}
  #live = null; // the running panel's parts updated in place (#refresh)
  #holding = false; // a press on the panel is held: its redraw waits (#hold)
  #held = false; // ... and one is due
  #due = null; // the timer of the next #update
  #lastUpdate = -Infinity;
  error = null; // {record, message}
  requests = 0; // bridge "analyse" calls made (the tests read it)

  /** host: {redraw(), goTo(ply), addComments([{ply, text}]) -> Promise} */
  constructor(engine, host) {
    this.#engine = engine;
    this.#host = host;
  }

  /** The finished analysis of `record`, from this visit or this device, or null. */
  result(record) {
    if (!record) return null;
    let found = this.#memory.get(record);
    if (!found) {
      found = loadKept(record);
      if (found) this.#memory.set(record, found);
    }
    return found ?? null;
  }

  /** What is shown of `record`: its finished analysis, or the run's once
   * every move has at least its first look ({...analysis, final: [bool]}). */
  shown(record) {
    const found = this.result(record);
    if (found || this.run?.record !== record) return found;
    const run = this.run;
    if (run.judged < run.total) return null;
    if (run.shown?.version !== run.version) {
      const moves = [...run.moves];
      run.shown = { ...run.meta, record, players: run.players, total: run.total, moves,
        accuracy: accuracyOf(moves, run.players), final: [...run.final], version: run.version };
    }
    return run.shown;
  }

  async start(record, total, players) {
    if (this.run || total === 0) return;
    const run = {
      record, total, players, moves: Array(total).fill(null), final: Array(total).fill(false),
      judged: 0, firm: 0, meta: null, version: 0, shown: null,
    };
    this.run = run;
    this.error = null;
    this.#host.redraw();
    const plies = Array.from({ length: total }, (_, ply) => ply);
    const items = [...(FIRST_PASS ? plies.map((ply) => ({ pass: "first", ply })) : []), ...plies.map((ply) => ({ pass: "deep", ply }))];
    try {
      // (fetched on the first Analyse, not with the page: no page needs it before)
      this.#pool ??= new (await import("../bridge/pool.js")).EnginePool(this.#engine);
      if (this.run !== run) return; // cancelled meanwhile
      const finished = await this.#pool.run(items, {
        span: (item, home) => SPAN[item.pass][home ? 0 : 1],
        together: (last, next) => next.pass === last.pass && next.ply === last.ply + 1,
        ask: (batch) => {
          this.requests += 1;
          const settings = batch[0].pass === "first" ? { iterations: FIRST_ITERATIONS } : SETTINGS;
          return { call: "analyse", args: { record, span: [batch[0].ply, batch.at(-1).ply + 1], ...settings } };
        },
        take: (batch, answer) => {
          if (this.run !== run) return;
          const deep = batch[0].pass === "deep";
          for (const m of answer.moves) {
            const i = m.ply - 1;
            if (run.final[i]) continue; // (a first look never replaces the full one)
            if (!run.moves[i]) run.judged += 1;
            run.moves[i] = m;
            if (deep) {
              run.final[i] = true;
              run.firm += 1;
            }
          }
          if (deep) {
            run.meta = { game: answer.game, classes: answer.classes, thresholds: answer.thresholds,
              seed: answer.seed, budget: answer.budget, iterations: answer.iterations, remark: answer.remark ?? null };
          } else {
            run.meta ??= { game: answer.game, classes: answer.classes, thresholds: answer.thresholds, remark: answer.remark ?? null };
          }
          run.version += 1;
          this.#update();
        },
      });
      if (!finished || this.run !== run) return;
      const moves = run.moves;
      const analysis = { ...run.meta, record, players, total, moves, accuracy: accuracyOf(moves, players) };
      this.#memory.set(record, analysis);
      keep(analysis);
    } catch (error) {
      if (this.run === run) this.error = { record, message: error.message };
    } finally {
      if (this.run === run) {
        this.run = null;
        this.#host.redraw();
      }
    }
  }

  cancel() {
    if (!this.run) return;
    this.run = null;
    this.#pool?.stop(); // every extra worker, at once
    this.#host.redraw();
  }

  /** #refresh and the moves list's marks (a redraw), at most every
   * REFRESH_MS: answers come several a second, and each redraw of the chart
   * is a few milliseconds of the page's thread (many more on a loaded machine). */
  #update() {
    if (this.#due) return;
    const wait = Math.max(0, this.#lastUpdate + REFRESH_MS - performance.now());
    this.#due = setTimeout(() => {
      this.#due = null;
      this.#lastUpdate = performance.now();
      this.#refresh();
      this.#host.redraw(); // the moves list's marks
    }, wait);
  }

  /** The running panel brought up to date in place: the words and bar, and
   * (unless a press is held on it) the chart, accuracy and move shown. */
  #refresh(force = false) {
    const live = this.#live;
    const run = this.run;
    if (!live || run?.record !== live.record) return;
    const { judged, firm, total } = run;
    live.text.textContent = FIRST_PASS && judged < total ? `First look: move ${Math.min(judged + 1, total)} of ${total}…`
      : `Deepening: ${firm} of ${total} moves final…`;
    // one bar for both passes and every worker: the first look counts a tenth
    live.bar.value = FIRST_PASS ? judged + 9 * firm : 10 * firm;
    if (this.#holding && !force) {
      this.#held = true;
      return;
    }
    const result = this.shown(live.record);
    if (!result || live.shownVersion === result.version) return;
    live.shownVersion = result.version;
    const focused = live.body.contains(document.activeElement) ? document.activeElement.dataset?.key : null;
    live.body.replaceChildren(this.#chart(result, live.view, live.ply), this.#accuracy(result, live.view), this.#here(result, live.view, live.ply));
    if (focused) live.body.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
  }

  #hold() {
    if (this.#holding) return;
    this.#holding = true;
    const release = () => {
      removeEventListener("pointerup", release, true);
      removeEventListener("pointercancel", release, true);
      setTimeout(() => { // after the click the release ends
        this.#holding = false;
        if (this.#held) {
          this.#held = false;
          this.#refresh();
        }
      }, 0);
    };
    addEventListener("pointerup", release, true);
    addEventListener("pointercancel", release, true);
  }

  /** What the panel is drawn from, as one string (the region's key). */
  key(record, ply, plies) {
    const run = this.run?.record === record ? this.run.total : null; // (a run's progress is drawn in place: #refresh)
    return JSON.stringify([record, ply, plies, run, !!this.run, this.error?.record === record ? this.error.message : null, !!this.result(record)]);
  }

  /** The analysis of record `from` is that of `to` too (they differ only in
   * their comments or side lines): kept under both. */
  carry(from, to) {
    const found = from !== to ? this.result(from) : null;
    if (!found || this.result(to)) return;
    const moved = { ...found, record: to };
    this.#memory.set(to, moved);
    keep(moved);
  }

  /** The best move found at the position after `ply` moves, for the board: {move} or null. */
  bestAt(record, ply) {
    const m = this.shown(record)?.moves[ply];
    return m && !m.forced ? { move: m.best_move } : null;
  }

  /** The board of `view` drawn with its targets, the best move's marked as the
   * Hint marks it (class "hinted"), for the game view to draw inert; null when
   * the board has no drawn target of that move or has controls (a number box,
   * a ring's switches): then the words alone say it. */
  boardWithBest(renderer, view, move, ui, picture) {
    let drawn;
    try {
      drawn = renderer.render(view, { ...ui, replaying: false, play: async () => false });
    } catch {
      return null;
    }
    // only a picture with the move on it: not a board whose live form adds
    // controls to the replayed one (a number to type, a ring to build), which
    // would read as if they could be used here
    const CONTROLS = "input, select, textarea, button, details";
    const targets = [...drawn.querySelectorAll(`[data-move="${CSS.escape(move)}"]`)].filter((el) => el instanceof SVGElement);
    if (!targets.length || drawn.querySelectorAll(CONTROLS).length > picture().querySelectorAll(CONTROLS).length) return null;
    for (const el of targets) el.classList.add("hinted", "best-here");
    drawn.classList?.add("showing-best");
    return drawn;
  }

  /** Mark the best move found on a board that plays (a past position's side
   * lines): its targets get the Hint's mark. */
  markBest(drawn, move) {
    const targets = drawn.querySelectorAll(`[data-move="${CSS.escape(move)}"]`);
    for (const el of targets) el.classList.add("hinted", "best-here");
    if (targets.length) drawn.classList?.add("showing-best");
  }

  /** Put the classes' marks on the moves list (after each draw; idempotent). */
  markMoves(root, record) {
    const result = this.shown(record);
    for (const button of root.querySelectorAll(".move-list button.ply")) {
      const ply = Number(button.dataset.key?.slice(4));
      const m = result?.moves[ply - 1];
      const grade = m && MARKS[m.grade] ? m.grade : null;
      const old = button.querySelector(".move-mark");
      if ((old?.dataset.grade ?? null) === grade) continue;
      old?.remove();
      if (grade) {
        button.append(h("span", { class: `move-mark grade-${grade}`, dataset: { grade }, title: grade },
          ` ${MARKS[grade]}`, h("span", { class: "visually-hidden" }, ` (${grade})`)));
      }
    }
  }

  /** The panel: the Analyse button, progress with Cancel, or the result.
   * ply: the move shown (the position after it); plies: moves in the record;
   * canComment: the marks may be written into the game as comments. */
  panel({ record, view, ply, plies, canComment = false }) {
    const head = h("h2", { id: "analysis-title" }, "Analysis");
    const section = h("section", { class: "analysis", "aria-labelledby": "analysis-title" }, head);
    const result = this.shown(record);
    if (this.run?.record === record) {
      // drawn once, then updated in place as answers come (#refresh): the
      // Cancel button and a point being clicked stay the same elements
      const live = {
        record, view, ply,
        text: h("p", { class: "analysis-progress-text", id: "analysis-progress-text" }),
        bar: h("progress", { class: "analysis-progress", max: String(10 * this.run.total), "aria-labelledby": "analysis-progress-text" }),
        body: h("div", { class: "analysis-live" }),
      };
      this.#live = live;
      this.#refresh(true);
      section.append(live.text, live.bar,
        h("button", { type: "button", class: "secondary analysis-cancel", dataset: { key: "analysis-cancel" }, onclick: () => this.cancel() }, "Cancel"),
        live.body);
      // a press on the panel holds its redraw until released, so the click lands on what was pressed
      section.addEventListener("pointerdown", () => this.#hold());
      return section;
    }
    if (!result) {
      const busy = !!this.run; // another game's run (rare: the page moved on)
      section.append(...[
        h("p", { class: "hint" }, "The computer judges every move: how much of a win it kept or gave away, and what it would have played."),
        this.error?.record === record ? h("p", { class: "analysis-error", role: "alert" }, `The analysis stopped: ${this.error.message}`) : null,
        h("button", {
          type: "button", class: "analysis-start", dataset: { key: "analysis-start" }, disabled: busy || plies === 0,
          onclick: () => this.start(record, plies, view.seats.length),
        }, "Analyse")].filter(Boolean)); // (append() would write a null as the word)
      return section;
    }
    section.append(this.#chart(result, view, ply), this.#accuracy(result, view), this.#here(result, view, ply));
    if (canComment && this.#host.addComments) section.append(this.#toComments(result, view));
    const practise = mistakesOffer(this.#engine, { record, result, view });
    if (practise) section.append(practise);
    return section;
  }

  /** One click writes the marks into the game as comments (kept beside any comment there). */
  #toComments(result, view) {
    const { comments, full } = analysisComments(result, view);
    const marked = result.moves.filter((m) => MARKS[m.grade]).length;
    const button = h("button", {
      type: "button", class: "secondary analysis-comments", dataset: { key: "analysis-comments" },
      disabled: comments.length === 0, "aria-describedby": "analysis-comments-help",
      onclick: () => this.#host.addComments(comments),
    }, "Add as comments");
    const help = marked === 0 ? "No move is marked, so there is nothing to write as a comment."
      : comments.length === 0 && full === 0 ? "Every marked move has its comment from the analysis."
      : `Writes a comment after each of the ${comments.length === 1 ? "one marked move" : `${comments.length} marked moves`} still without one: the mark, the best move found and the expected result. A comment already there is kept, with this one after it.`;
    const room = full ? ` ${full === 1 ? "One marked move has" : `${full} marked moves have`} no room left in its comment (at most ${(view.notes?.comment_limit ?? 1000).toLocaleString("en")} characters), so nothing is added there.` : "";
    return h("div", { class: "analysis-to-comments" }, button, h("p", { id: "analysis-comments-help", class: "hint" }, help + room));
  }

  #accuracy(result, view) {
    const open = Array.isArray(result.final) ? result.final.filter((f) => !f).length : 0;
    const sofar = open ? ` so far (${result.total - open} of ${result.total} moves final)` : "";
    const list = h("ul", { class: "analysis-accuracy", "aria-label": `Accuracy${sofar}` }, result.accuracy.map((acc, seat) => {
      const counts = Object.fromEntries(result.classes.map((c) => [c, 0]));
      for (const m of result.moves) if (m.seat === seat) counts[m.grade] += 1;
      const listed = result.classes.filter((c) => counts[c]).map((c) => `${counts[c]} ${c}`).join(", ");
      return h("li", { dataset: { seat } },
        h("span", { class: "seat-mark", dataset: { seat }, "aria-hidden": "true" }, String(seat + 1)), " ",
        h("strong", {}, seatName(view, seat)), ": ",
        h("span", { class: "accuracy-figure" }, acc == null ? "no choices to judge" : `accuracy ${acc.toFixed(0)}%`),
        listed ? h("span", { class: "accuracy-counts" }, ` (${listed})`) : null);
    }));
    // the engine's words on why one seat can have ? or ?? and another none (Analysis.one_sided, docs/ANALYSIS.md)
    const marked = result.accuracy.map((_, seat) => result.moves.some((m) => m?.seat === seat && ["mistake", "blunder"].includes(m.grade)));
    const chose = result.accuracy.map((acc) => acc != null);
    const remark = result.remark && marked.some(Boolean) && chose.some((c, seat) => c && !marked[seat])
      ? h("p", { class: "hint analysis-remark" }, `Why the marks are one-sided: ${result.remark}`) : null;
    return sofar || remark ? h("div", {}, list, sofar ? h("p", { class: "accuracy-sofar" }, `Accuracy${sofar}.`) : "", remark ?? "") : list;
  }

  /** The move that led to the position shown (move `ply`, as clicked in the
   * chart or the moves list), its verdict, and the best move found instead. */
  #here(result, view, ply) {
    const box = h("div", { class: "analysis-here", "aria-live": "polite" });
    const move = ply > 0 ? result.moves[ply - 1] : null;
    // the best move from the position shown, which the board marks (bestAt)
    const next = result.moves[ply];
    const onward = next && !next.forced
      ? h("p", { class: "analysis-next", dataset: { best: next.best_move } }, `Best from here: ${next.best_move}, which keeps ${fmt(next.best_value)}.`) : null;
    if (!move) {
      box.append(h("p", {}, ply === 0 ? "The start of the game: no move to judge yet. Pick a point of the chart or a move to see it judged."
        : "No verdict for this move yet."), onward ?? "");
      return box;
    }
    const exact = (move.exact ? "proved" : "estimated") + (result.final?.[ply - 1] === false ? ", first look" : "");
    const played = move.forced ? `${seatName(view, move.seat)} played ${move.move}, the only legal move.`
      : `${seatName(view, move.seat)} played ${move.move}: ${move.grade} (expected result ${fmt(move.before)} → ${fmt(move.after)}, ${exact}).`;
    box.append(h("p", { class: "analysis-played", dataset: { ply: String(move.ply) } }, h("strong", {}, `Move ${move.ply}. `), played));
    if (move.grade === "uncertain" && !move.forced) {
      // an estimated fall too small beside the estimate's own noise for a ? (docs/ANALYSIS.md)
      const spread = typeof move.spread === "number" ? ` its spread is ±${fmt(move.spread)} (one standard error), and` : "";
      box.append(h("p", { class: "analysis-uncertain" },
        `Uncertain: the estimate fell by ${fmt(move.loss)}, but${spread} a fall counts as a mistake only when it is proved or at least three times its spread. So the move gets no ? or ??, and it does not lower the accuracy.`));
    }
    if (!move.forced) {
      box.append(h("p", { class: "analysis-best", dataset: { best: move.best_move } },
        move.best_move === move.move ? `Best there: ${move.best_move}, the move played (keeps ${fmt(move.best_value)}).`
          : `Best there: ${move.best_move}, which keeps ${fmt(move.best_value)}.`));
    }
    if (onward) box.append(onward);
    return box;
  }

  /** The expected result across the game, one point per move; a point shows the game after it. */
  #chart(result, view, ply) {
    const n = result.moves.length;
    const two = result.players === 2;
    const W = 320, H = 120, L = 28, R = 8, T = 8, B = 18;
    const x = (i) => L + (n <= 1 ? (W - L - R) / 2 : ((i - 1) * (W - L - R)) / (n - 1));
    const y = (v) => T + (1 - v) * (H - T - B);
    const step = n <= 1 ? 24 : Math.min(24, (W - L - R) / (n - 1)); // each point's column answers a click
    // two seats: Player 1's side throughout (the seats' values add up to one);
    // else each point is its mover's own value after the move
    const value = (m) => (two && m.seat === 1 ? 1 - m.after : m.after);
    const whose = two ? `${seatName(view, 0)}'s expected result` : "each mover's expected result after its move";
    const svg = s("svg", {
      class: "analysis-chart", viewBox: `0 0 ${W} ${H}`, role: "group",
      "aria-label": `Expected result across the game: ${whose}, from 0 (lost) to 1 (won); ${n} moves, one point each`,
    });
    svg.append(
      s("line", { class: "axis", x1: L, x2: W - R, y1: y(0), y2: y(0) }),
      s("line", { class: "even", x1: L, x2: W - R, y1: y(1 / Math.max(1, result.players)), y2: y(1 / Math.max(1, result.players)) }),
      s("line", { class: "axis", x1: L, x2: W - R, y1: y(1), y2: y(1) }),
      s("text", { class: "tick", x: L - 4, y: y(1) + 3, "text-anchor": "end", "aria-hidden": "true" }, "1"),
      s("text", { class: "tick", x: L - 4, y: y(0) + 3, "text-anchor": "end", "aria-hidden": "true" }, "0"),
      s("text", { class: "tick", x: W - R, y: H - 4, "text-anchor": "end", "aria-hidden": "true" }, `move ${n}`));
    if (two) {
      svg.append(s("polyline", { class: "trend", points: result.moves.map((m, i) => `${x(i + 1)},${y(value(m))}`).join(" ") }));
    }
    if (ply > 0 && ply <= n) svg.append(s("line", { class: "now", x1: x(ply), x2: x(ply), y1: T, y2: y(0) }));
    const running = Array.isArray(result.final); // a run's chart: some points may be a first look still
    result.moves.forEach((m, i) => {
      const cx = x(i + 1), cy = y(value(m));
      const mark = MARKS[m.grade] ? ` ${MARKS[m.grade]}` : "";
      const final = !running || result.final[i];
      const firmness = !running ? "" : final ? " Final." : " First look, still being refined.";
      const label = `Move ${m.ply}, ${seatName(view, m.seat)} played ${m.move}${mark ? `: ${m.grade}` : ""}; ${two ? `${seatName(view, 0)}'s` : "its"} expected result ${fmt(value(m))}, ${m.exact ? "proved" : "estimated"}.${firmness} Show the game after it.`;
      const r = Math.max(2.5, Math.min(4, step / 2));
      const shape = m.exact
        ? s("rect", { class: "dot", x: cx - r, y: cy - r, width: 2 * r, height: 2 * r })
        : s("circle", { class: "dot", cx, cy, r });
      const point = s("g", {
        class: `point ${m.exact ? "exact" : "estimate"} ${final ? "final" : "provisional"} grade-${m.grade}`, role: "button", tabindex: "0",
        "aria-label": label, "data-ply": String(m.ply), "data-seat": String(m.seat),
        "data-key": `chart-${m.ply}`, // keeps its focus while the chart firms up (gameview.js)
        "aria-current": m.ply === ply ? "step" : null,
      }, s("title", {}, label), s("rect", { class: "hit", x: cx - step / 2, y: T, width: step, height: H - T - B }), shape);
      point.addEventListener("click", () => this.#host.goTo(m.ply));
      point.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          this.#host.goTo(m.ply);
        }
      });
      svg.append(point);
    });
    const legend = h("p", { class: "analysis-legend" },
      h("span", { class: "legend-exact", "aria-hidden": "true" }, "■"), " proved  ",
      h("span", { class: "legend-estimate", "aria-hidden": "true" }, "●"), " estimated",
      running && result.final.includes(false) ? h("span", { class: "legend-provisional" }, " · open dashed: first look, being refined") : null,
      two ? ` · up is good for ${seatName(view, 0)}` : "");
    return h("figure", { class: "analysis-figure" }, svg, legend);
  }
}
