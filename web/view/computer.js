// Computer seats on the game page: when the seat to move is a computer the page
// asks the worker for its move (bridge "computer") and plays it through the
// shell's ordinary play path, so the fragment, saves and history follow. Also
// the Hint button, the watch controls of a game between computers, and the
// best possible score of a game played alone, where the engine knows one
// (bridge "solitaire_best").
//
// Decisions (docs in the report of issue 6):
//  - Cancel: Python cannot be interrupted in place, so Cancel terminates the
//    worker and starts a new one (engine.start()); the game lives in the record
//    and is re-opened. The computer then stays stopped at that position until
//    the player presses "Let the computer move" or makes its move themself.
//  - Simultaneous picks (a joint move, view.choosing): every computer to move decides first,
//    from the public record, and its pick is held here in memory (never in the
//    record, the fragment or the page), then played together with the human's
//    pick, so the computer cannot see the human's pick and the human cannot
//    read the computer's before the reveal.
//  - Undo with a computer seat goes back to before the human's last move (the
//    computer's reply goes too); between computers only, one move and pause.
//  - Replaying never moves a computer: a move that arrives while replaying is
//    dropped and asked again (same seed) once the game is shown as it stands.
//
// <html data-computer="thinking|stopped|paused|idle"> says what the computer
// seats are doing (tests wait on it; data-engine stays "ready" while a computer
// thinks, because the page stays usable and Cancel works).

import { h, seatName } from "../ui/dom.js";
import { pendingSecret } from "./handover.js";

const root = document.documentElement;
const query = new URLSearchParams(location.search);
// test-only: ?computer-budget=S gives every computer move and hint S seconds
const BUDGET_OVERRIDE = Number(query.get("computer-budget")) || null;

export const PACES = [
  ["slow", "Slow", 1500],
  ["normal", "Normal", 600],
  ["fast", "Fast", 0],
];
const LEVEL_WORDS = { random: "easy", greedy: "medium", strong: "hard" };

export function isComputer(view, seat) {
  const kind = view.seats?.[seat]?.kind;
  return kind != null && kind !== "human";
}

export function hasComputer(view) {
  return (view.seats ?? []).some((_, seat) => isComputer(view, seat));
}

/** Every seat a computer: the game is watched, at the chosen pace. */
export function watching(view) {
  return (view.seats ?? []).length > 0 && view.seats.every((_, seat) => isComputer(view, seat));
}

export function levelOf(view, seat) {
  return view.seats?.[seat]?.kind ?? "human";
}

function budgetFor(level) {
  if (BUDGET_OVERRIDE) return Math.min(10, Math.max(0.01, BUDGET_OVERRIDE));
  return level === "strong" ? 1.0 : 0.2; // random and greedy answer at once
}

function spinner() {
  return h("span", { class: "spinner", "aria-hidden": "true" });
}

/**
 * The computer seats of the open game. `host` is the shell:
 *  game() -> {record, view} of the game as it stands, or null (no game, or replaying);
 *  busy() -> true while the shell is in the middle of an engine step;
 *  play(move, seat) -> Promise<boolean>: play through the shell's play path;
 *  picksReady() -> Promise: held picks are in, show the human's pick screen;
 *  humanSeat() -> the seat the board acts for now (hints), or null;
 *  reopen() -> Promise: the worker was restarted; open the game in it again;
 *  redraw() -> Promise: draw the page again (keeping focus);
 *  explain(text, kind).
 */
export class ComputerPlayers {
  pace = "normal";
  paused = false; // watching: Pause pressed
  stoppedAt = null; // record where Cancel stopped the computer
  thinking = null; // {record, seat, token, asked} while a computer decides
  restarting = false;
  hint = null; // {record, move}, or {record, asking: true}
  #held = { record: null, picks: new Map() };
  #best = new Map(); // solitaire options -> {score, exact} | "asking" | "failed"
  #timer = 0;
  #bar = null;
  #view = null;

  constructor(engine, host) {
    this.engine = engine;
    this.host = host;
  }

  /** A new game page: forget everything about the last one (the pace stays). */
  reset() {
    clearTimeout(this.#timer);
    this.thinking = null; // an answer still on its way is dropped
    this.paused = false;
    this.stoppedAt = null;
    this.hint = null;
    this.#held = { record: null, picks: new Map() };
    this.#view = null;
    root.dataset.computer = "idle";
  }

  /** Picks held for `record` (simultaneous rounds), as [seat, move] pairs. */
  heldPicks(record) {
    return this.#held.record === record ? [...this.#held.picks] : [];
  }

  /** Computer seats to move at `record` whose move is not yet decided. */
  waiting(view, record) {
    if (view.is_over) return [];
    const held = this.#held.record === record ? this.#held.picks : new Map();
    return view.to_move.filter((seat) => isComputer(view, seat) && !held.has(seat));
  }

  /** Whether a person may not move now (a computer decides, or is about to). */
  blocksHuman(view, record) {
    if (view.is_over) return false;
    if (this.thinking || this.restarting) return true;
    const waiting = this.waiting(view, record);
    if (!waiting.length) return false;
    // stopped by Cancel: the player may make the computer's (turn) move themself
    return !(this.stoppedAt === record && view.to_move.length === 1);
  }

  /** Why a person's click does nothing now, in words. */
  whyBlocked(view, record) {
    const seat = this.thinking?.seat ?? this.waiting(view, record)[0];
    return seat == null ? "Wait a moment: the game engine is restarting."
      : `It is ${seatName(view, seat)}'s move: the computer is choosing it.`;
  }

  /** Look for a computer move to make (after every draw). */
  schedule(delay = 0) {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#tick(), delay);
  }

  async #tick() {
    if (this.thinking || this.restarting) return;
    const game = this.host.game();
    if (!game) return;
    const { record, view } = game;
    const waiting = this.waiting(view, record);
    if (!waiting.length) return;
    if (this.host.busy()) {
      this.schedule(40); // the shell's step ends in a draw soon
      return;
    }
    if (this.paused || this.stoppedAt === record) {
      this.update();
      return;
    }
    const seat = waiting[0];
    const level = levelOf(view, seat);
    const token = {};
    const budget = budgetFor(level);
    this.thinking = { record, seat, token, asked: false, level, budget };
    this.update();
    if (watching(view) && this.heldPicks(record).length === 0) {
      const ms = PACES.find(([id]) => id === this.pace)?.[2] ?? 0;
      if (ms > 0) {
        await new Promise((resolve) => { this.#timer = setTimeout(resolve, ms); });
        if (this.thinking?.token !== token) return;
      }
    }
    this.thinking.asked = true;
    this.update();
    let move, words;
    try {
      ({ move, words } = await this.#ask({ record, seat, level, budget }));
    } catch (error) {
      if (this.thinking?.token !== token) return; // cancelled: the error is the restart
      this.thinking = null;
      this.stoppedAt = record;
      this.host.explain(`${seatName(view, seat)} could not choose a move: ${error.message}`, "error");
      this.update();
      return;
    }
    if (this.thinking?.token !== token) return;
    this.thinking = null;
    const now = this.host.game();
    if (!now || now.record !== record) {
      // the game moved on, or is being replayed: ask again when it is shown as it stands
      this.update();
      this.schedule();
      return;
    }
    const others = view.to_move.filter((s) => s !== seat && !this.heldPicks(record).some(([held]) => held === s));
    if (others.length) {
      // a simultaneous round: keep the pick until everyone has chosen
      if (this.#held.record !== record) this.#held = { record, picks: new Map() };
      this.#held.picks.set(seat, move);
      this.update();
      if (this.waiting(view, record).length) this.schedule();
      else await this.host.picksReady();
      return;
    }
    const heldBefore = this.heldPicks(record).length;
    const played = await this.host.play(move, seat);
    if (played && !heldBefore) this.host.explain(`${seatName(view, seat)} (${level}) played ${words ?? move}.`, "info");
    if (!played) {
      this.stoppedAt = record;
      this.update();
    }
  }

  /** The computer's move; asked without retry, so a Cancel (which restarts
   * the worker) does not send the same question again. A worker that crashed
   * while this computer still thinks is restarted and asked again. */
  async #ask(args) {
    try {
      return await this.engine.request("computer", args);
    } catch (error) {
      if (!this.thinking || this.thinking.record !== args.record) throw error;
      if (error?.type === "WorkerError" || error?.type === "Restarted") return this.engine.request("computer", args, { retry: true });
      throw error;
    }
  }

  /** Cancel: stop the thinking computer (restart the worker if it is asked). */
  async cancel() {
    const thinking = this.thinking;
    if (!thinking) return;
    clearTimeout(this.#timer);
    this.thinking = null;
    if (watching(this.#view ?? { seats: [] })) this.paused = true;
    else this.stoppedAt = thinking.record;
    if (!thinking.asked) {
      this.update();
      return;
    }
    this.restarting = true;
    this.update();
    let said = [`${seatName(this.#view, thinking.seat)} was stopped. The game is as it was.`, "info"];
    try {
      this.engine.start();
      await this.engine.ready;
      await this.host.reopen();
    } catch (error) {
      said = [`The game engine did not start again: ${error.message}`, "error"];
    } finally {
      this.restarting = false;
    }
    await this.host.redraw();
    this.host.explain(...said);
  }

  /** "Let the computer move" after a Cancel, or Resume when watching. */
  resume() {
    this.stoppedAt = null;
    this.paused = false;
    this.update();
    this.schedule();
  }

  pause() {
    this.paused = true;
    if (this.thinking && !this.thinking.asked) {
      clearTimeout(this.#timer);
      this.thinking = null;
    }
    this.update();
  }

  // -- hint ------------------------------------------------------------------------

  canHint(view, record) {
    return !view.is_over && !this.blocksHuman(view, record) && this.host.humanSeat() != null && !this.hint?.asking;
  }

  async askHint() {
    const game = this.host.game();
    if (!game) return;
    const { record, view } = game;
    const seat = this.host.humanSeat();
    if (!this.canHint(view, record) || seat == null) return;
    this.hint = { record, asking: true };
    this.update();
    try {
      // the bridge decides from what this seat may know (another's pending pick is gone)
      const { move, words } = await this.engine.request("computer", { record, seat, level: "strong", budget: budgetFor("strong") }, { retry: true });
      if (this.host.game()?.record !== record) return;
      // (the words go in the bar, beside the Hint button, over the board: where the eye is on any screen)
      this.hint = { record, move, words: words ?? move };
      this.update();
      this.showHint();
      this.host.explain(`Hint: ${words ?? move}`, "echo");
    } catch (error) {
      this.hint = null;
      this.update();
      this.host.explain(`No hint: ${error.message}`, "error");
    }
  }

  /** Mark the board's target of the hint (after every draw of the board). */
  showHint() {
    const game = this.host.game();
    const board = document.getElementById("board");
    if (!board || !game || this.hint?.record !== game.record || !this.hint.move) return;
    for (const el of board.querySelectorAll(`[data-move="${CSS.escape(this.hint.move)}"]`)) el.classList.add("hinted");
  }

  // -- a game played alone: the best possible final score ---------------------------

  /** {score, exact} for a game played alone once the engine has said it
   * (asked once per game and options; a game with none answers with an error,
   * kept as "failed"), else null. */
  solitaireBest(view, record) {
    if (view.seats.length !== 1) return null;
    const key = JSON.stringify([view.game, view.options]);
    const known = this.#best.get(key);
    if (typeof known === "object") return known;
    if (known == null) {
      this.#best.set(key, "asking");
      this.engine.request("solitaire_best", { record }, { retry: true }).then((best) => {
        this.#best.set(key, best);
        if (this.host.game()) this.host.redraw();
      }, () => this.#best.set(key, "failed"));
    }
    return null;
  }

  // -- the bar over the board -------------------------------------------------------

  /** The bar over the board: thinking (with Cancel), stopped, watch controls, Hint.
   * Always present on a live game so nothing jumps when a computer starts. */
  bar(view, record, { replaying = false } = {}) {
    this.#bar = replaying || view.is_over ? null
      : h("div", { id: "computer-bar", class: "computer-bar", role: "group", "aria-label": "Computer players" },
        h("div", { class: "computer-main" }),
        // the same watch controls from draw to draw: a pace list being chosen from is never rebuilt
        watching(view) ? this.#watchControls() : null);
    this.follow(view, record);
    return this.#bar;
  }

  /** The game moved on and the bar stays where it is (bar: false, there is none): say so in it. */
  follow(view, record, { bar = true } = {}) {
    if (!bar) this.#bar = null;
    this.#view = view;
    this.#barRecord = record;
    this.update();
  }

  #barRecord = null;
  #said = null; // what the hint line last said, as a key, and in which bar (update)
  #saidIn = null;

  /** Redraw the bar in place (no redraw of the board). */
  update() {
    const view = this.#view;
    const bar = this.#bar;
    const record = this.#barRecord;
    if (!view) return;
    const waiting = this.waiting(view, record);
    const state = this.restarting || this.thinking ? "thinking"
      : !waiting.length ? "idle"
      : this.paused && watching(view) ? "paused"
      : this.stoppedAt === record ? "stopped" : "thinking"; // (about to think)
    root.dataset.computer = state;
    if (!bar) return;
    const parts = [];
    let said = null;
    if (this.restarting) {
      parts.push(h("p", { class: "computer-state", role: "status" }, spinner(),
        "Stopping the computer: restarting the game engine (the game is safe)…"));
    } else if (state === "thinking") {
      const { seat, level, asked, budget } = this.thinking ?? { seat: waiting[0], level: levelOf(view, waiting[0]), asked: false, budget: 0 };
      const progress = h("span", { class: `think-progress${asked ? " running" : ""}`, "aria-hidden": "true" }, h("span"));
      progress.firstChild.style.animationDuration = `${level === "strong" ? budget : 0.3}s`;
      parts.push(
        h("p", { class: "computer-state", role: "status" }, spinner(),
          h("span", {}, `${seatName(view, seat)} (${level}) is thinking…`), progress),
        h("button", { type: "button", class: "secondary cancel-computer", dataset: { key: "cancel-computer" }, onclick: () => this.cancel() }, "Cancel"));
    } else if (state === "stopped") {
      const seat = this.waiting(view, record)[0];
      parts.push(
        h("p", { class: "computer-state stopped" }, `${seatName(view, seat)} (${levelOf(view, seat)}) is stopped. `,
          view.to_move.length === 1 ? h("span", { class: "hint" }, "Let it move, or make its move yourself on the board.") : null),
        h("button", { type: "button", class: "let-computer", dataset: { key: "let-computer" }, onclick: () => this.resume() }, "Let the computer move"));
    } else if (!view.is_over && !watching(view)) {
      const asking = this.hint?.record === record && this.hint.asking;
      const given = this.hint?.record === record && this.hint.move ? this.hint.words : null;
      const canHint = this.canHint(view, record);
      // (the same words and button as the last move's: left as they are, the focus on Hint too)
      said = JSON.stringify([asking, given, canHint]);
      if (said === this.#said && bar === this.#saidIn) return;
      this.#said = said;
      this.#saidIn = bar;
      parts.push(
        h("p", { class: "computer-state" }, asking ? [spinner(), "Looking for a good move…"]
          : given ? h("span", { class: "hint-words", id: "hint-words" }, h("strong", {}, "Hint: "), given)
          : h("span", { class: "hint" }, "Stuck? The computer can suggest a move.")),
        h("button", {
          type: "button", class: "secondary hint-button", dataset: { key: "hint" },
          disabled: !canHint, onclick: () => this.askHint(),
          "aria-label": "Hint: suggest a move (it is not played)",
        }, "Hint"));
    } else {
      parts.push(h("p", { class: "computer-state" }));
    }
    if (!said) this.#said = null;
    bar.firstChild.replaceChildren(...parts);
    if (this.#watch) {
      const pause = this.#watch.querySelector("button.pause");
      pause.textContent = state === "paused" ? "Resume" : "Pause";
      pause.setAttribute("aria-pressed", state === "paused" ? "true" : "false");
    }
  }

  #watch = null; // the watch controls, made once

  #watchControls() {
    if (this.#watch) return this.#watch;
    const select = h("select", { id: "pace", name: "pace", dataset: { key: "pace" } },
      PACES.map(([id, words, ms]) => h("option", { value: id, selected: id === this.pace }, `${words}${ms ? ` (${ms / 1000} s)` : ""}`)));
    select.addEventListener("change", () => { this.pace = select.value; });
    const pause = h("button", { type: "button", class: "secondary pause", dataset: { key: "pause" }, "aria-pressed": "false" }, "Pause");
    pause.addEventListener("click", () => (this.paused ? this.resume() : this.pause()));
    this.#watch = h("div", { class: "watch-controls" }, h("label", { for: "pace" }, "Pace"), select, pause);
    return this.#watch;
  }

  // -- undo --------------------------------------------------------------------------

  /** The ply undo goes back to: before the human's last move (so the computer's
   * reply goes too, and the computer does not simply move again); between
   * computers, one move (and the watch pauses). null: nothing of a person's to take back. */
  async undoPly(record, view, plies) {
    if (!hasComputer(view)) return plies - 1;
    if (watching(view)) {
      this.paused = true;
      return plies - 1;
    }
    for (let ply = plies - 1; ply >= 0; ply--) {
      const at = await this.engine.request("at", { record, ply }, { retry: true });
      if (!pendingSecret(at.view) && at.view.to_move.some((seat) => !isComputer(at.view, seat))) return ply;
    }
    return null;
  }
}

/** "computer, hard" for the seat list, as nodes (the level word may hide on a phone), or null. */
export function kindWords(view, seat) {
  const level = levelOf(view, seat);
  return level === "human" ? null : ["computer", h("span", { class: "seat-level" }, `, ${LEVEL_WORDS[level] ?? level}`)];
}

/** The line over the human's pick when a computer also picks this round. */
export function computerPickBanner(view, seat, computerSeats) {
  const names = computerSeats.map((s) => seatName(view, s)).join(" and ");
  return h("div", { class: "secret-banner computer-pick", dataset: { seat } },
    h("p", {}, h("strong", {}, `${seatName(view, seat)}, choose your number.`),
      // (a short frame keeps the first sentence only: embed.css)
      h("span", { class: "banner-more" }, ` ${names} ${computerSeats.length === 1 ? "has" : "have"} chosen in secret; the picks are shown together.`)));
}
