// The game view, shared by the site's game page (app.js) and the embed
// (embed.js): one game drawn from the engine's view() with the game's board
// module, moves sent back as notations. No rule lives here: legal moves,
// status and scores all come from the engine.
//
// It shows one of: the game as it stands (the board acts for the seat to
// move); a past position (replay: the record stays; on the page the board
// plays side lines there, see "side lines" below); or, when
// several people choose in secret at one screen, a hand-over screen instead
// of the board until the right person says they hold the device. Computer
// seats move through the same play path as a person (computer.js).
//
// Drawing is by region (status, seats, board, moves, controls, …): each
// region is rebuilt only when its part of the view changed (its key, a JSON
// slice, differs from the last one drawn), all in one animation frame. The
// element with focus survives when its region is not rebuilt; when it is,
// focus goes to the element with the same data-move, data-try, data-key or id.
// After a move, the regions that change on every move are brought up to date
// in place rather than made anew (chessground's way): the board of the game
// as it stands (a board module's update(), which changes only the squares
// that changed), the moves list (the new move appended: history.js) and the
// share panel (the new link: share.js).
//
// Layouts: "page" (head, seat list, summary, board column and moves panel,
// share panel) and "embed" (status, seats, board and a step bar, in a frame).
//
// Three jobs live beside it, each in its own module: turns and hand-over at
// one screen (phases.js), the sealed-link driver (sealing.js), and side lines
// played from the board of a past position (sidelines.js).

import { h, seatName, showMessage, statusLine } from "../ui/dom.js";
import { confirmDialog } from "../ui/dialog.js";
import { showRules } from "../features/help.js";
import { hotSeatFor, pendingSecret, revealText } from "./handover.js";
import { commentDialog, followCurrentMove, moveInWords, movesPanel, replayBanner, summaryPanel, updateMovesPanel } from "./history.js";
import { saveGame, saveIdFor } from "../share/saved.js";
import { addressOf, followNewLink, sharePanel } from "../share/share.js";
import { keepHotSeat, openSeal } from "./commit.js";
import { ComputerPlayers, hasComputer, isComputer, kindWords } from "./computer.js";
import { SealedLinks } from "./sealing.js";
import { TurnPhases } from "./phases.js";
import { SideLines } from "./sidelines.js";
import { AnalysisPanel } from "../features/analysis.js";
import { LookAhead } from "../bridge/ahead.js";

const RETRY = { retry: true }; // a worker that stopped is restarted and the call sent again (engine.js)

// Which regions a draw brings up to date (#draw's `want`): every one; after a
// move on the page, all but the panels beside the board first (the click's
// task), then those panels once that frame is painted (drawSoon's panels "later").
const PANELS_LATER = new Set(["seats", "moves", "share", "analysis"]);
const EVERY_REGION = () => true;
const BOARD_FIRST = (name) => !PANELS_LATER.has(name);
const PANELS = (name) => PANELS_LATER.has(name);

/** Call `fn` in the first task after the current frame's rendering (call it
 * from an animation-frame callback): a message to ourselves, which unlike
 * setTimeout(0) is never held back by timer clamping. */
function afterRendering(fn) {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => { channel.port1.close(); fn(); };
  channel.port2.postMessage(null);
}

/** Call `fn` once the next frame is painted, or after 100 ms where no frame
 * comes (a hidden tab): it may be called twice, so it does its work once. */
function onceFramePainted(fn) {
  requestAnimationFrame(() => afterRendering(fn));
  setTimeout(fn, 100);
}

// -- regions ---------------------------------------------------------------------------

/** Named places in the page, each an element or (while empty) a comment; a
 * region is rebuilt only when its key changed. */
class Regions {
  #slots = new Map(); // name -> {node, key}

  /** The placeholder of a new region, to put into the skeleton. */
  slot(name) {
    const node = document.createComment(name);
    this.#slots.set(name, { node, key: undefined });
    return node;
  }

  /** Rebuild region `name` with build() if `key` differs from the last; true if it did. */
  update(name, key, build) {
    const slot = this.#slots.get(name);
    if (slot.key === key) return false;
    const started = globalThis.quetTimings ? performance.now() : 0;
    const node = build() ?? document.createComment(name);
    // (a region drawn again in place, as a kept board is, stays where it is)
    if (node !== slot.node) slot.node.replaceWith(node);
    if (started) performance.measure(`region ${name}`, { start: started }); // (tools/bench.py: where the drawing goes)
    slot.node = node;
    slot.key = key;
    return true;
  }

  node(name) {
    return this.#slots.get(name)?.node ?? null;
  }
}

/** What picks out an element again after its region is rebuilt. */
function identity(el) {
  if (!el || el === document.body) return null;
  const { move, try: tryMove, key } = el.dataset ?? {};
  if (move != null) return `[data-move="${CSS.escape(move)}"]`;
  if (tryMove != null) return `[data-try="${CSS.escape(tryMove)}"]`;
  if (key != null) return `[data-key="${CSS.escape(key)}"]`;
  if (el.id) return `#${CSS.escape(el.id)}`;
  return null;
}

/** The board drawn as a picture: nothing in it plays. */
function inert(drawn, area, reason) {
  for (const el of drawn.querySelectorAll("[data-move], [data-try]")) {
    el.removeAttribute("data-move");
    el.removeAttribute("data-try");
  }
  area.inert = true;
  area.classList.add(reason);
  area.append(drawn);
}

// -- the game view ---------------------------------------------------------------------

export class GameView {
  // {record (public: for links), private_record (to play on from), view (public), secret, plies, seal, linkSeat, saveId}, or null
  current = null;
  replay = null; // {ply, plies, view, move} while showing a past position
  hotseat = null; // {phase: "ask" | "handover" | "pick" | "link", seat, seatView, …} (handover.js, commit.js)
  reveal = ""; // the round just revealed, in words, shown once
  busy = false; // an engine step is under way: no other move meanwhile
  renderer = null;

  #regions = null;
  #root = null; // the skeleton's root node, in this.el
  #marked = null; // the record whose analysis marks the moves list had at the last draw (analysis.js markMoves)
  #liveBoard = null; // {area, board, renderer}: the board region of the game as it stands, drawn in place next time
  #frame = 0;
  #focus = null; // a focus asked of the next draw: "board", "undo", "exit-replay"
  #fresh = false; // the next draw clears the message and shows the note anew
  #waiters = [];

  /**
   * el: where the game is drawn; options:
   *   engine                 the worker client (engine.js)
   *   layout                 "page" or "embed"
   *   boardFor(gameId)       -> Promise<board module>
   *   gameInfo(gameId)       -> {name, rules} (the page's catalog); default: the view's name
   *   setEngineState(state)  <html data-engine> ("busy", "ready")
   *   readOnly               nothing plays (the embed's replay mode)
   *   fragment               the address's fragment follows the record
   *   byLink, saves          play by link (commit.js) and saved games (saved.js): the page
   *   onFollow(fragment)     after the record changed (the embed's "Open in Quet Games")
   *   onPlayAgain()          the summary's Play again
   *   afterDraw()            after a draw that changed something (the embed fits its board)
   *   takeNotices()          -> [[text, kind]] to show once the game is drawn
   *   beforeMove(current)    -> false: a person's move is not played (the page catches up with another tab)
   *   problems()             -> a node under the seats (the embed's query problems), or null
   *   stepBarExtra()         -> a node at the end of the embed's step bar (its Play through), or null
   */
  constructor(el, options) {
    this.el = el;
    this.options = { layout: "page", gameInfo: null, readOnly: false, fragment: true, byLink: false, saves: false, ...options };
    this.engine = options.engine;
    this.links = new SealedLinks(this); // play by link: sealed picks (sealing.js)
    this.phases = new TurnPhases(this, this.links); // turns and hand-over at one screen (phases.js)
    this.sideLines = new SideLines(this); // the board of a past position plays side lines (sidelines.js)
    this.ahead = new LookAhead((args) => this.engine.request("play", args)); // answers before the click (ahead.js)
    this.computers = new ComputerPlayers(this.engine, {
      // (the computers play on from the game as this device holds it)
      game: () => (this.current && !this.replay && !this.options.readOnly ? { record: this.current.private_record, view: this.current.view } : null),
      busy: () => this.busy,
      play: (move, seat) => this.play(move, seat),
      picksReady: async () => {
        while (this.busy) await new Promise((resolve) => setTimeout(resolve, 40));
        await this.step(async () => {
          this.hotseat = await this.phases.withComputers();
          await this.drawSoon("board");
        });
      },
      humanSeat: () => {
        const { current, hotseat } = this;
        if (!current || this.replay || (hotseat && hotseat.phase !== "pick")) return null;
        const seat = this.actingSeat() ?? (current.view.to_move.length === 1 ? current.view.to_move[0] : null);
        return seat != null && !isComputer(current.view, seat) ? seat : null;
      },
      reopen: async () => { if (this.current) await this.engine.request("open", { record: this.current.private_record }, RETRY); },
      redraw: () => (this.current ? this.drawSoon(null, { fresh: false }) : Promise.resolve()),
      explain: (text, kind) => this.explain(text, kind),
    });
    this.analysis = new AnalysisPanel(this.engine, {
      redraw: () => (this.current ? this.drawSoon(null, { fresh: false }) : Promise.resolve()),
      goTo: (ply) => this.replayTo(ply),
      addComments: (comments) => this.sideLines.commentsFromAnalysis(comments),
    });
    addEventListener("pagehide", () => this.#writeAddress()); // (the address history keeps)
    // One delegated handler: any element with data-move is a one-click move
    // (board modules built on svg.js handle their own targets and stop the event).
    el.addEventListener("click", (event) => {
      const target = event.target.closest?.("[data-move]");
      if (target && el.contains(target) && !target.closest("[disabled], [inert]")) {
        event.preventDefault();
        this.play(target.dataset.move);
      }
    });
    el.addEventListener("keydown", (event) => {
      const target = event.target.closest?.("[data-move]");
      if (target && (event.key === "Enter" || event.key === " ") && target.tagName !== "BUTTON") {
        event.preventDefault();
        this.play(target.dataset.move);
      }
    });
  }

  get page() {
    return this.options.layout === "page";
  }

  /** A bridge call, answered by the engine (restarted and sent again if its worker stopped). */
  ask(call, args) {
    // (a stopped worker is restarted by the click, as by any request, not hidden behind answers from before)
    const early = call === "play" && this.engine.alive ? this.ahead.take(args) : null;
    if (early) return early.catch(() => this.engine.request(call, args, RETRY));
    return this.engine.request(call, args, RETRY);
  }

  /** Say in <html data-engine> what the engine is doing ("busy", "ready"). */
  setEngineState(state) {
    this.options.setEngineState?.(state);
  }

  /** No game: forget the last one (its regions are rebuilt for the next). */
  leave() {
    this.#forgetAddress(); // (a frame old at most, and the address may already be the next page's)
    this.computers.reset();
    this.analysis.cancel();
    this.ahead.stop();
    cancelAnimationFrame(this.#frame);
    this.#scheduled = false;
    this.#panelsNow = false;
    this.#panelsDue = null;
    this.#focusPlan = null;
    this.#settle();
    this.current = null;
    this.replay = null;
    this.hotseat = null;
    this.reveal = "";
    this.#root = null;
    this.#liveBoard = null;
    this.#marked = null;
    this.#listed = null;
    this.#stuck?.disconnect();
    this.#stuck = null;
  }

  explain(text, kind = "info") {
    showMessage(text, kind);
    this.options.afterDraw?.();
  }

  actingSeat() {
    return this.hotseat?.phase === "pick" ? this.hotseat.seat : null;
  }

  // -- showing a game ----------------------------------------------------------------

  /** Show `opened` (the bridge's answer: record, the public record; private_record,
   * the game as this device holds it; view, the public view) on the next animation
   * frame; resolves once drawn. secret: a move in the record is hidden from the view. */
  async show(opened, {
    secret = false, revealed = "", focus = null,
    // play by link (commit.js): the seat this device plays by link (null: everyone at this screen)
    linkSeat = this.current?.linkSeat ?? null,
    // the saved-games entry (saved.js); save: keep the game now (after a move)
    saveId = this.current?.saveId ?? null, save = false,
    // the record this tab showed before (after a move: the stored copy must still be it)
    base = null,
    // show the position after this many moves first (the embed's ?ply= in replay mode)
    ply = null,
    // or the position after move line.n of side line line.index
    line = null,
    // "later": the panels beside the board are brought up to date just after it (a move played: see drawSoon)
    panels = "now",
  } = {}) {
    this.renderer = await this.options.boardFor(opened.view.game);
    // a sealed pick waiting in the record (commit.js): the record is public
    // (the seal, and the second pick, made in the open)
    const seal = openSeal(opened.view);
    const current = { ...opened, private_record: opened.private_record ?? opened.record, secret: !seal && (secret || pendingSecret(opened.view)), plies: null, seal, linkSeat, saveId };
    this.current = current;
    this.replay = null;
    this.reveal = revealed;
    const { readOnly, byLink } = this.options;
    this.hotseat = readOnly ? null : hotSeatFor(current.view, current.secret);
    if (seal && byLink) this.hotseat = await this.links.sealedScreen();
    else if (byLink && linkSeat != null && this.hotseat?.phase === "ask" && current.view.to_move.includes(linkSeat)) this.hotseat = await this.links.pickScreen(linkSeat, "seal");
    else if (!readOnly && hasComputer(current.view)) this.hotseat = await this.phases.withComputers();
    if (line) await this.#showLine(line.index, line.n);
    else if (ply != null) await this.showPly(ply);
    await this.drawSoon(focus, { panels });
    // kept after the draw: a move is on screen first (the same task still keeps it)
    if (this.options.saves && (save || saveId) && this.current === current) {
      // (under the game's own id: a game opened in two tabs is one saved game)
      current.saveId = saveId ?? saveIdFor(current.view);
      // the saved link (the Resume link) is public; a pick made in secret at
      // this screen is kept beside it, on this device only (commit.js)
      const hidden = current.private_record !== current.record;
      saveGame({ id: current.saveId, link: current.record, view: current.view, linkSeat, hidden, base });
      keepHotSeat(current.saveId, hidden ? current.private_record : null);
    }
    for (const [text, kind] of this.options.takeNotices?.() ?? []) this.explain(text, kind);
  }

  /** The address follows the game: `fragment` is what it shows. After a move
   * (`afterPaint`), it is written once the frame that shows the new board is
   * painted: writing it is a same-document navigation, which took 41% of a
   * click on a phone's CPU, and the board comes first. Until then the page
   * says so (<html data-address="due">). An address written meanwhile takes
   * its place, leaving the game drops it, and leaving the page writes it. */
  follow(fragment, { afterPaint = false } = {}) {
    if (afterPaint && this.options.fragment) {
      if (this.#addressDue == null) {
        onceFramePainted(() => this.#writeAddress());
        document.documentElement.dataset.address = "due";
        this.#addressWas = location.href;
      }
      this.#addressDue = fragment;
      return;
    }
    this.#forgetAddress();
    if (this.options.fragment) history.replaceState(null, "", `#${fragment}`);
    this.options.onFollow?.(fragment);
  }

  #addressDue = null; // the fragment a move left for after the paint (follow)
  #addressWas = null; // the address when it was left for later

  /** Write the address a move left for after the paint, if the game shown is
   * still that one (another tab's save may have opened another meanwhile) and
   * nobody went to another address meanwhile (a link, Back: that one stays). */
  #writeAddress() {
    const due = this.#addressDue;
    if (due == null) return;
    if (this.current?.record === due && location.href === this.#addressWas) this.follow(due);
    else this.#forgetAddress();
  }

  #forgetAddress() {
    this.#addressDue = null;
    delete document.documentElement.dataset.address;
  }

  /** Open a game from a link: a sealed pick of this device's is revealed first (sealing.js). */
  openLink(opened, keep = {}) {
    return this.links.openLink(opened, keep);
  }

  // -- moves ---------------------------------------------------------------------------

  /** Play a move for the acting seat; resolves true once the new position is
   * drawn, false (with the engine's reason shown, nothing changed) if refused. */
  async play(notation, computerSeat = null) {
    const { current } = this;
    // a person's move on the board of a past position: a side line, or the game cut there
    if (computerSeat == null && this.replay && !this.options.readOnly) return this.sideLines.playFromReplay(notation);
    if (this.busy || !current || this.replay || this.options.readOnly) return false;
    if (computerSeat == null && this.computers.blocksHuman(current.view, current.private_record)) {
      this.explain(this.computers.whyBlocked(current.view, current.private_record), "warning");
      return false;
    }
    if (computerSeat == null && this.options.beforeMove?.(current) === false) return false; // (app.js: another tab moved on)
    const seat = computerSeat ?? this.actingSeat();
    const before = current.view;
    const byLink = this.hotseat?.byLink ?? null;
    this.busy = true;
    this.setEngineState("busy");
    try {
      // a computer's pick of this round, held until the last pick (computer.js), goes in first
      let record = current.private_record;
      for (const [heldSeat, move] of this.computers.heldPicks(record)) {
        if (heldSeat !== seat) record = (await this.ask("play", { record, move, seat: heldSeat })).private_record;
      }
      // by link, a first pick is sealed: the record gets its commitment, never the pick
      if (byLink === "seal") {
        const played = await this.links.sealPick(record, seat, String(notation));
        this.follow(played.record);
        await this.show(played, { focus: "board", linkSeat: seat, save: true });
        return true;
      }
      // A seat's own view may hold its secret pick: the page keeps only the
      // public one, which the engine answers with (public: one call, not a
      // play and then an open).
      const played = await this.ask("play", { record, move: String(notation), ...(seat != null ? { seat, public: true } : {}) });
      // A pick made at this screen and still secret stays out of the address
      // (anyone can read that): the address gets the public record; the saved
      // game on this device keeps the private one.
      this.follow(played.record, { afterPaint: true });
      const hidden = !played.view.is_over && played.view.history.length === before.history.length;
      await this.show(played, {
        secret: hidden, revealed: revealText(before, played.view), focus: "board", panels: "later",
        linkSeat: byLink ? seat : current.linkSeat, save: true, base: current.record,
      });
      return true;
    } catch (error) {
      // Nothing changes: the same view stays, with the engine's explanation.
      this.explain(error.message, "error");
      this.setEngineState("ready");
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** Run one engine call as the busy step (no other move meanwhile). */
  async step(work) {
    if (this.busy || !this.current) return;
    this.busy = true;
    this.setEngineState("busy");
    try {
      await work();
    } catch (error) {
      this.explain(error.message, "error");
    } finally {
      this.setEngineState("ready");
      this.busy = false;
    }
  }

  async #plyCount() {
    const { current } = this;
    if (current.plies == null) current.plies = (await this.ask("at", { record: current.private_record, ply: 0 })).plies;
    return current.plies;
  }

  /** The moves in the record, for drawing (a secret pick counts). */
  plies() {
    return this.current.plies ?? this.current.view.history.length + (this.current.secret ? 1 : 0);
  }

  /** Show the position after `ply` moves (the game as it stands at the end). */
  async showPly(ply) {
    const plies = await this.#plyCount();
    const wanted = Math.max(0, Math.min(ply, plies));
    if (wanted >= plies) {
      this.replay = null;
    } else {
      const args = { record: this.current.private_record, ply: wanted };
      const at = await this.ask("at", args);
      const replay = { ply: wanted, plies: at.plies, view: at.view, comment: at.comment ?? null, move: wanted > 0 ? moveInWords(this.current.view, wanted - 1) : null, record: at.private_record };
      this.replay = await this.sideLines.withReplaySeat(replay, args, this.current.view.moves?.[wanted]?.seat);
    }
  }

  /** Show the position after `ply` moves; focus: a data-key to give the focus to once drawn. */
  replayTo(ply, focus = null) {
    return this.#stepTo({ ply }, async () => {
      await this.showPly(ply);
      await this.drawSoon(focus);
    });
  }

  // Steps through the record (the moves list, the step buttons, the arrow
  // keys, the chart) are taken in turn, never dropped while another is under
  // way, and a step by key goes from the position last asked for (aimed()),
  // so keys pressed faster than the screen is drawn still land where they
  // would have, one after the other.
  #aim = null; // {ply} or {line, n}: the position the latest step asked for, until it is shown
  #steps = Promise.resolve();

  #stepTo(target, work) {
    this.#aim = target;
    const run = async () => {
      if (this.#aim !== target) return; // a later step goes on from here: this one need not be drawn
      while (this.busy) await new Promise((resolve) => setTimeout(resolve, 20));
      try {
        await this.step(work);
      } finally {
        if (this.#aim === target) this.#aim = null;
      }
    };
    this.#steps = this.#steps.then(run, run);
    return this.#steps;
  }

  /** The position the latest step asked for, else the one shown: {ply} or {line, n}. */
  aimed() {
    if (this.#aim) return this.#aim;
    const { replay } = this;
    return replay?.line ? { line: replay.line.index, n: replay.line.n } : { ply: replay ? replay.ply : this.current ? this.plies() : 0 };
  }

  /** A step along the line of the position aimed at: by -1 or +1, or to its
   * "first" or "last" move; `focusMove`: the focus goes to the move shown in
   * the moves list (a step by key there). */
  stepBy(delta, { focusMove = false } = {}) {
    if (!this.current) return Promise.resolve();
    const aim = this.aimed();
    const key = (k) => (focusMove ? k : null);
    if (aim.line != null) {
      const line = this.current.view.notes?.lines?.[aim.line];
      if (!line) return Promise.resolve();
      const n = delta === "first" ? 1 : delta === "last" ? line.moves.length : aim.n + delta;
      if (n < 1) return this.replayTo(line.ply, key(`ply-${line.ply}`)); // back from its first move: where it branches off
      if (n > line.moves.length || n === aim.n) return Promise.resolve();
      return this.lineTo(aim.line, n, key(`line-${aim.line}-${n}`));
    }
    const plies = this.plies();
    const ply = delta === "first" ? (focusMove ? 1 : 0) : delta === "last" ? plies : aim.ply + delta;
    if (ply < 0 || ply > plies || ply === aim.ply) return Promise.resolve();
    return this.replayTo(ply, key(`ply-${ply}`));
  }

  exitReplay() {
    return this.#stepTo({ ply: this.current ? this.plies() : 0 }, async () => {
      this.replay = null;
      await this.drawSoon("exit-replay");
    });
  }

  /** Show the position after move `n` of side line `index` (docs/RECORD.md); focus as replayTo's. */
  lineTo(index, n, focus = null) {
    return this.#stepTo({ line: index, n }, async () => {
      if (await this.#showLine(index, n)) await this.drawSoon(focus);
    });
  }

  /** Set the replay to the position after move `n` of side line `index`; false if there is no such line. */
  async #showLine(index, n) {
    const line = this.current.view.notes?.lines?.[index];
    if (!line) return false;
    const args = { record: this.current.private_record, ply: n, line: index };
    const at = await this.ask("at", args);
    const move = line.moves[n - 1];
    const replay = {
      ply: line.ply + n, plies: this.plies(), view: at.view, comment: at.comment ?? null,
      move: move ? `${seatName(this.current.view, move.seat)}: ${move.words}` : null,
      line: { index, n, from: line.ply, length: line.moves.length }, record: at.private_record,
    };
    this.replay = await this.sideLines.withReplaySeat(replay, args, line.moves[n]?.seat);
    return true;
  }

  /** Write (or change, or remove) the comment of the position shown. */
  annotate() {
    return this.step(async () => {
      const { current, replay } = this;
      const line = replay?.line ?? null;
      const ply = line ? line.n : replay ? replay.ply : this.plies();
      const notes = current.view.notes;
      const old = line ? notes?.lines?.[line.index]?.comments.find((c) => c.n === ply)?.text
        : notes?.comments.find((c) => c.ply === ply)?.text;
      const where = line ? `after move ${line.n} of the side line instead of move ${line.from + 1}`
        : ply === 0 ? "before the first move" : `after move ${ply}`;
      const text = await commentDialog({ where, text: old ?? "", limit: notes?.comment_limit ?? 1000 });
      if (text == null || text === (old ?? "")) return;
      const annotated = await this.ask("annotate", { record: current.private_record, ply, text, ...(line ? { line: line.index } : {}) });
      this.analysis.carry(current.record, annotated.record);
      this.follow(annotated.record);
      // (still at the position that was commented)
      await this.show(annotated, { save: true, ply: replay && !line ? replay.ply : null });
      if (line) {
        const at = await this.ask("at", { record: annotated.private_record, ply: line.n, line: line.index });
        this.replay = { ...replay, view: at.view, comment: at.comment ?? null };
        await this.drawSoon();
      }
      this.explain(text ? "The comment was saved with the game." : "The comment was removed.", "info");
    });
  }

  undo() {
    return this.step(async () => {
      const { current } = this;
      if (this.replay) return;
      const plies = await this.#plyCount();
      if (plies === 0) return;
      // with a computer seat: back to before the person's last move (computer.js)
      const ply = await this.computers.undoPly(current.private_record, current.view, plies);
      if (ply == null) {
        this.explain("There is no move of yours to take back.", "info");
        return;
      }
      // A finished game is never undone in place: it stays saved as it ended,
      // and the game played on from the move before is a new game (a new id).
      const finished = current.view.is_over;
      if (finished && !(await confirmDialog(
        "This game is over. Take back its last move and play on from there? The finished game stays in your games as it ended; playing on starts a new game from that position.",
        { yes: "Play on as a new game", no: "Keep the finished game" }))) return;
      let at = await this.ask("at", { record: current.private_record, ply });
      if (finished) at = await this.ask("new_id", { record: at.private_record });
      this.follow(at.record);
      await this.show({ record: at.record, private_record: at.private_record, view: at.view },
        { secret: at.view.history.length < ply, focus: "undo", ...(finished ? { saveId: null, save: true } : {}) });
      this.explain(finished ? "The last move was taken back in a new game; the finished one is kept as it ended."
        : plies - ply > 1 ? "Your last move and the computer's reply were taken back." : "The last move was taken back.", "info");
    });
  }

  /** What a board module is given to act with (replaying: it plays nothing). */
  makeUi(replaying) {
    const seat = this.actingSeat();
    return {
      seat,
      replaying,
      play: (notation) => this.play(notation),
      explain: (text, kind = "info") => this.explain(text, kind),
      preview: (move) => {
        if (!this.current) return Promise.reject(new Error("no game is open"));
        return this.ask("preview", { record: this.current.private_record, move: String(move), ...(seat != null ? { seat } : {}) });
      },
      confirm: (text) => confirmDialog(text),
    };
  }

  // -- drawing -------------------------------------------------------------------------

  /** Redraw soon; resolves once drawn. At most one draw per animation frame:
   * the first request of a frame draws at once (after the current task's own
   * changes, as a microtask), so a move is on screen in the frame its answer
   * arrives in; requests after it in the same frame are drawn together on the
   * next one. focus: "board" (after a move), "undo", "exit-replay", or null
   * (focus stays where it is); fresh: the message goes and the note shows the
   * reveal anew (not for a refresh); panels: "later" (after a move on the
   * page) draws the board and what says the position (status, banner,
   * summary, the live region) at once, and the panels beside it (PANELS_LATER:
   * seats, moves list, share link, analysis) once the next frame, which
   * shows the board, is painted (#panelsSoon); "now" (any request of the
   * draw) draws everything at once. */
  drawSoon(focus = null, { fresh = true, panels = "now" } = {}) {
    if (focus) this.#focus = focus;
    if (fresh) this.#fresh = true;
    if (panels !== "later") this.#panelsNow = true;
    return new Promise((resolve) => {
      this.#waiters.push(resolve);
      if (this.#scheduled) return; // the draw already asked for takes this one too
      this.#scheduled = true;
      if (this.#drewThisFrame) this.#frame = requestAnimationFrame(() => this.#drawNow());
      else queueMicrotask(() => this.#drawNow());
    });
  }

  #scheduled = false;
  #panelsNow = false; // a request of the next draw wants the panels drawn with the board
  #panelsDue = null; // the panels' pass asked of the next frame (a token: leave() and a full draw drop it)
  #drewThisFrame = false;
  #focusPlan = null; // {el, preventScroll, ifLost, inBoard}: where focus goes on the next frame

  #drawNow() {
    if (!this.#scheduled) return; // given up (leave)
    this.#scheduled = false;
    this.#drewThisFrame = true;
    requestAnimationFrame(() => { this.#drewThisFrame = false; });
    const started = performance.now();
    const later = this.page && !this.#panelsNow && this.current != null;
    this.#panelsNow = false;
    this.#panelsDue = null;
    if (this.current) this.#draw(later ? BOARD_FIRST : EVERY_REGION);
    if (globalThis.quetTimings) performance.measure("draw", { start: started }); // (tools/bench.py asks for it)
    if (later) this.#panelsSoon();
    else this.#lookAhead();
    this.setEngineState("ready");
    this.#applyFocus();
    if (this.current) {
      this.computers.showHint();
      this.computers.schedule();
    }
    this.#settle();
  }

  /** The panels beside the board, drawn once the next frame, the one that
   * shows the board, is painted (the first task after that frame's
   * rendering), or after 100 ms where no frame comes (a hidden tab): the board
   * is on screen a frame sooner where the panels would have made that frame
   * late, and the panels follow a frame later. The answers before the next
   * click are asked for then too. */
  #panelsSoon() {
    const due = (this.#panelsDue = {});
    const run = () => {
      if (this.#panelsDue !== due) return; // done, dropped (leave), or drawn by a full draw since
      this.#panelsDue = null;
      const started = performance.now();
      // (the skeleton the board was drawn in, still on the page)
      if (this.current && this.#root?.parentNode === this.el) this.#draw(PANELS);
      if (globalThis.quetTimings) performance.measure("draw panels", { start: started });
      this.#lookAhead();
      this.#applyFocus(); // (a focused button of a panel drawn anew: its namesake, see #draw)
    };
    onceFramePainted(run);
  }

  /** Have the engine answer each move target on the board before it is
   * clicked (ahead.js), where a click plays it as it stands: a person to move,
   * nothing secret, sealed or computed first. */
  #lookAhead() {
    const { current } = this;
    const open = current && !this.replay && !this.hotseat && !this.options.readOnly && !current.view.is_over &&
      !hasComputer(current.view) && !current.view.sealing;
    if (!open) {
      this.ahead.stop();
    } else if (this.ahead.record !== current.private_record) {
      const targets = this.#regions?.node("board")?.querySelectorAll?.("[data-move]") ?? [];
      this.ahead.start(current.private_record, [...new Set([...targets].map((el) => el.dataset.move))]);
    }
  }

  #settle() {
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  /** The skeleton the regions live in, made when the game is first drawn here. */
  #skeleton() {
    const r = (this.#regions = new Regions());
    const message = h("p", { id: "message", class: "message", role: "alert" });
    const note = h("p", { id: "note", class: "note", role: "status" });
    // the one polite live region: after every move, the engine's words for it
    // and whose turn it is (view.announcement); it stays in place, so a screen
    // reader hears each change of its text
    const said = (this.#said = h("p", { id: "announce", class: "visually-hidden", "aria-live": "polite", "aria-atomic": "true" }));
    if (this.page) {
      // (the status line sticks to the top while the board is used; stuck, it is one line: see #watchStuck)
      const above = h("div", { class: "status-mark", "aria-hidden": "true" });
      this.#root = h("section", { class: "game" },
        r.slot("head"), above, r.slot("status"), r.slot("seats"), r.slot("summary"),
        h("div", { class: "game-body" },
          h("div", { class: "board-col" }, r.slot("banner"), r.slot("computers"), r.slot("board"), r.slot("comment"), message, note, r.slot("controls")),
          h("aside", { class: "side" }, r.slot("moves"), r.slot("analysis"))),
        r.slot("share"), said);
      this.#watchStuck(above);
    } else {
      // (display: contents: the frame's column lays out the regions themselves)
      this.#root = h("div", { class: "embed-game" },
        r.slot("status"), r.slot("seats"), this.options.problems?.() ?? null, r.slot("computers"), r.slot("board"), r.slot("comment"), message, note, r.slot("controls"), r.slot("moves"), r.slot("analysis"), said);
    }
    this.el.replaceChildren(this.#root);
  }

  #stuck = null; // the IntersectionObserver of the status line's place
  #said = null; // the live region (#announce) of the skeleton

  /** While the status line is stuck to the top (its place, `mark`, scrolled
   * above the screen), the game root has the class "stuck" and the line is
   * one line (style.css): what stays on top is never more than one line. */
  #watchStuck(mark) {
    this.#stuck?.disconnect();
    if (typeof IntersectionObserver !== "function") return;
    const root = this.#root;
    this.#stuck = new IntersectionObserver(([entry]) => {
      root.classList.toggle("stuck", !entry.isIntersecting && entry.boundingClientRect.top < 0);
    });
    this.#stuck.observe(mark);
  }

  /** Bring the regions `want(name)` picks up to date with the position (the
   * rest of the page with the board's pass: title, the root's names, the
   * message, the live region). */
  #draw(want = EVERY_REGION) {
    const { current, replay, hotseat } = this;
    const { view, record, private_record: privateRecord, secret } = current;
    const page = this.page;
    if (!this.#root || this.#root.parentNode !== this.el) this.#skeleton();
    const r = this.#regions;
    // the board's pass (every draw's but the panels' own after a move)
    const first = want("board");
    // (a focus asked for goes with the board's pass: the panels' own leaves it to the next draw)
    const focus = first ? this.#focus : null;
    if (first) this.#focus = null;
    const active = this.el.contains(document.activeElement) ? document.activeElement : null;
    const activeId = identity(active);
    const focusInBoard = !!active && !!r.node("board")?.contains?.(active);

    const game = this.options.gameInfo?.(view.game) ?? { id: view.game, name: view.name };
    const shown = replay ? replay.view : view;
    if (first) {
      const title = `${game.name} · Quet Games`;
      if (document.title !== title) document.title = title;
      if (page) {
        // while a secret pick waits the record holds it: it stays out of the page
        this.#root.dataset.game = view.game;
        if (secret) delete this.#root.dataset.record;
        else this.#root.dataset.record = record;
      }
      // the position shown, named on the root: a ply of the game, or of a side line
      this.#root.dataset.ply = String(replay ? replay.ply : this.plies());
      if (replay?.line) this.#root.dataset.line = `${replay.line.index}:${replay.line.n}`;
      else delete this.#root.dataset.line;
    }
    const readOnly = this.options.readOnly;
    const blocked = !readOnly && this.computers.blocksHuman(view, privateRecord);
    const plies = this.plies();
    let changed = false;
    const region = (name, key, build) => { if (r.update(name, key, build)) changed = true; };

    if (page && first) {
      region("head", JSON.stringify([game.name, !!game.rules, secret]), () => h("div", { class: "game-head" },
        h("h1", {}, game.name),
        h("nav", { class: "head-links" },
          game.rules ? h("button", { type: "button", class: "secondary rules-button", dataset: { key: "rules" }, onclick: () => showRules(game) }, "How to play") : null,
          // an embed carries the record, so not while it holds a secret pick
          secret ? null : h("button", {
            type: "button", class: "secondary embed-button", dataset: { key: "embed" },
            onclick: () => import("../share/embed-snippet.js").then((m) => m.openEmbedDialog({ record: this.current.record, name: game.name, game: this.current.view.game, plies: this.plies(), notes: this.#hasNotes(), over: this.current.view.is_over })),
          }, "Embed"),
          h("a", { href: "#", class: "back" }, "All games"))));
    }

    // while a person picks after the computers (computerPickBanner), the line says what
    // the engine says of the round with their held picks in, as the banner does
    // The line says what the engine says of the position shown (a past one, or
    // a side line's, while stepping through), never of the game as it stands.
    const status = replay ? shown.status
      : hotseat?.phase === "pick" && hotseat.computers && hotseat.status ? hotseat.status : view.status;
    const over = shown.is_over;
    // the embed has no end screen: its line says why the game ended, as the page's summary does
    const reason = over && !page ? shown.end_reason : null;
    if (first) region("status", JSON.stringify([status, over, reason]), () => statusLine(status, { over, reason }, r.node("status")));

    if (want("seats")) {
      // (the seats as the person picking after the computers sees them: theirs have chosen)
      const seated = !replay && hotseat?.phase === "pick" && hotseat.computers ? hotseat.seatView : shown;
      const best = this.computers.solitaireBest(shown, privateRecord);
      region("seats", JSON.stringify([seated.seats, seated.to_move, seated.winners, seated.scores, seated.standing, seated.is_over, best]), () => this.#seatList(seated, best));
    }

    if (page && first) {
      const summary = view.is_over && !replay;
      region("summary", JSON.stringify(summary ? [view.seats, view.scores, view.winners, view.end_reason, view.standing] : null), () =>
        summary ? summaryPanel(view, { onPlayAgain: () => this.options.onPlayAgain?.() }) : null);
      const hint = this.sideLines.hint();
      region("banner", JSON.stringify(replay ? [replay.ply, replay.plies, replay.move, replay.line ?? null, hint] : null), () =>
        replay ? replayBanner({ ...replay, hint }, () => this.exitReplay()) : null);
    }

    // the bar over the board: always there on a live game of the page (Hint), so
    // nothing jumps when a computer starts; in the embed, with computer seats only
    const bar = !readOnly && !view.is_over && (page || hasComputer(view));
    if (first) {
      const barKey = JSON.stringify(bar ? [!!replay, view.seats.map((seat) => seat.kind)] : null);
      const rebuilt = r.update("computers", barKey, () => (bar ? this.computers.bar(view, privateRecord, { replaying: !!replay }) : null));
      if (rebuilt) changed = true;
      // (the bar also says, in <html data-computer>, what the computers are doing)
      if (!rebuilt || !bar) this.computers.follow(view, privateRecord, { bar });
      region("board", this.#boardKey(blocked), () => this.#boardArea(blocked));
    }
    // the comment of the position shown (plain text; #announce reads it out after the move's words)
    const remark = secret ? null : (replay ? replay.comment : view.comment) ?? null;
    if (first) region("comment", JSON.stringify(remark), () => (remark
      ? h("p", { class: "move-comment shown-comment", id: "move-comment" }, h("span", { class: "visually-hidden" }, "Comment: "), remark)
      : null));

    if (first && this.#fresh) {
      this.#fresh = false;
      const message = document.getElementById("message");
      if (message) message.textContent = "";
      const note = document.getElementById("note");
      if (note) note.textContent = !hotseat && this.reveal ? this.reveal : "";
      changed = true;
    }

    const movesBefore = r.node("moves");
    if (page) {
      // (a board with its own box for typed moves, such as a number to pick, gets no second one)
      const canPlay = !replay && !view.is_over && !(hotseat && hotseat.phase !== "pick") && !blocked && !this.renderer?.typesMoves;
      if (first) {
        region("controls", String(canPlay), () => (canPlay ? this.#moveForm(view) : null));
        // (the box stays from move to move: only its example changes)
        const input = canPlay ? r.node("controls").querySelector?.("#move-input") : null;
        if (input && input.placeholder !== (view.legal_moves[0] ?? "")) input.placeholder = view.legal_moves[0] ?? "";
      }
    }
    if (page && want("moves")) {
      const canReplay = hotseat?.phase !== "pick" || !!hotseat.computers;
      const panel = {
        moves: view.moves, names: view.seats.map((_, i) => seatName(view, i)), plies,
        ply: replay ? (replay.line ? replay.line.from : replay.ply) : null,
        line: replay?.line ? { index: replay.line.index, n: replay.line.n } : null,
        notes: secret ? null : view.notes ?? null,
        canAnnotate: !secret && !current.seal && canReplay && !this.computers.thinking,
        canDropLines: !secret && !current.seal && canReplay && !this.computers.thinking,
        // no taking back while a secret pick waits: the next player holds the device
        canUndo: plies > 0 && !secret && !current.seal && canReplay && !this.computers.thinking && !this.computers.restarting,
        canReplay,
      };
      // (a step taken in the list keeps the board in view: on a phone the list is below it)
      const seen = (stepped) => stepped.then(() => this.#boardInView());
      const on = {
        replayTo: (ply) => seen(this.replayTo(ply)), exit: () => seen(this.exitReplay()), undo: () => this.undo(),
        stepBy: (delta, how) => seen(this.stepBy(delta, how)),
        lineTo: (index, n) => seen(this.lineTo(index, n)), annotate: () => this.annotate(),
        dropLine: (index) => this.sideLines.dropLine(index),
      };
      // (after a move the list is brought up to date in place: the new move appended)
      region("moves", JSON.stringify(panel), () => (updateMovesPanel(r.node("moves"), panel, on) ? r.node("moves") : movesPanel(panel, on)));
      this.#followMoves(panel, r.node("moves") !== movesBefore);
    }
    if (page && want("share")) {
      // (a sealed link's own screen offers the link itself)
      const share = secret || hotseat?.phase === "link" ? null
        : { url: addressOf(record), record, advice: this.#shareAdvice(view), title: `${game.name} · Quet Games` };
      region("share", JSON.stringify(share), () => (!share ? null
        : followNewLink(r.node("share"), share) ? r.node("share") : sharePanel(share, { shown: () => this.shown() })));
    }
    if (!page) {
      region("controls", JSON.stringify([replay?.ply ?? null, replay?.line ?? null, plies, view.history, readOnly]), () => this.#stepBar());
      // a replay with comments or side lines: the moves list tells them (the reader steps through them)
      const notes = readOnly && view.notes && (view.notes.comments.length || view.notes.lines.length) ? view.notes : null;
      const panel = notes && {
        moves: view.moves, names: view.seats.map((_, i) => seatName(view, i)), plies, notes, canUndo: false, canReplay: true,
        ply: replay ? (replay.line ? replay.line.from : replay.ply) : null,
        line: replay?.line ? { index: replay.line.index, n: replay.line.n } : null,
      };
      const lines = notes?.lines.length ?? 0;
      region("moves", JSON.stringify(panel), () => (panel ? this.#fold("moves", `Moves, comments${lines ? ` and ${lines} side ${lines === 1 ? "line" : "lines"}` : ""}`, movesPanel(panel, {
        replayTo: (ply) => this.replayTo(ply), exit: () => this.replayTo(plies), lineTo: (index, n) => this.lineTo(index, n),
        stepBy: (delta, how) => this.stepBy(delta, how),
      })) : null));
      if (panel) this.#followMoves(panel, r.node("moves") !== movesBefore);
    }

    if (first) {
      const said = this.#said;
      const words = this.#announcement(view, remark);
      if (said.textContent !== words) said.textContent = words;
    }

    // the analysis (analysis.js): of a finished game, or while stepping through one
    if (want("analysis")) {
      const analysed = this.#analysable();
      const shownPly = replay ? replay.ply : plies;
      // (the analysis written as comments: where Annotate is offered)
      const canComment = page && !secret && !current.seal && !this.computers.thinking;
      region("analysis", analysed ? `${this.analysis.key(record, shownPly, plies)}${canComment}` : "null", () => {
        const panel = analysed ? this.analysis.panel({ record, view, ply: shownPly, plies, canComment }) : null;
        return page ? panel : this.#fold("analysis", "Analysis: how good was each move?", panel);
      });
      // (no analysis now nor at the last draw: there are no marks to put or take off)
      const marks = analysed || view.is_over ? record : null;
      if (page && (marks != null || this.#marked != null)) this.analysis.markMoves(this.#root, marks);
      this.#marked = marks;
    }

    // Focus: kept by identity (the same element, or its namesake in a rebuilt
    // region), else where a step asked for it. Given on the next frame, once
    // the page is laid out for it (focusing forces a layout), unless a board
    // module has put it back itself by then.
    let plan = null;
    if (active && !active.isConnected && activeId) {
      let again = this.el.querySelector(activeId);
      // a step button that is now disabled (at the first move): the nearest one that is not
      if (again?.disabled) again = again.closest("[role=group], section, div")?.querySelector("button:not(:disabled)") ?? null;
      if (again) plan = { el: again, preventScroll: true, ifLost: true };
      // (outside the board, at once: a key pressed before the next frame still reaches it)
      if (again && !r.node("board")?.contains?.(again)) again.focus({ preventScroll: true });
    }
    const lostInBoard = focusInBoard && !active?.isConnected && !plan;
    this.#focusPlan = this.#focusTarget(plan && focus === "board" ? "board-kept" : focus, lostInBoard) ?? plan;
    if (changed) this.options.afterDraw?.();
  }

  /** Scroll the page the least that brings the board back into view, when
   * less than half of it is on screen (a phone, stepping in the list below it). */
  #boardInView() {
    const board = this.#regions?.node("board");
    if (!board?.getBoundingClientRect) return;
    const r = board.getBoundingClientRect();
    const seen = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
    if (seen < Math.min(r.height, innerHeight) / 2) board.scrollIntoView({ block: r.height <= innerHeight ? "nearest" : "start" });
  }

  #listed = null; // the moves list's length and move shown when it last followed them (#followMoves)

  /** The moves list keeps the move shown inside its box, when it is new or
   * shows another move (on the next frame: one layout with the drawing's own). */
  #followMoves(panel, made) {
    const listed = `${panel.plies} ${panel.ply} ${panel.line?.index} ${panel.line?.n}`;
    if (!made && listed === this.#listed) return;
    this.#listed = listed;
    requestAnimationFrame(() => followCurrentMove(this.#regions?.node("moves")));
  }

  /** Give the focus the last draw planned (see #draw). */
  #applyFocus() {
    const plan = this.#focusPlan;
    this.#focusPlan = null;
    if (!plan) return;
    requestAnimationFrame(() => {
      if (!plan.el.isConnected) return;
      const active = document.activeElement;
      const lost = !active || active === document.body || !active.isConnected;
      if (!lost && (plan.ifLost || (plan.inBoard && document.getElementById("board")?.contains(active)))) return;
      plan.el.focus({ preventScroll: plan.preventScroll });
    });
  }

  /** Where focus goes: focus as drawSoon's, or "board-kept" (after a move, the
   * focused target is still there); lostInBoard: the focused element went with
   * the old board. {el, preventScroll, inBoard}, or null for nowhere new. */
  #focusTarget(focus, lostInBoard) {
    if (!focus && !lostInBoard) return null;
    const board = document.getElementById("board");
    const { current, hotseat } = this;
    let el = null;
    const inBoard = focus === "board" || focus === "board-kept" || (!focus && lostInBoard);
    if (focus === "board" || (!focus && lostInBoard)) {
      el = board?.querySelector(".curtain button, [data-move][tabindex='0'], [data-move], [tabindex='0'], button, input") ?? null;
    } else if (focus === "exit-replay") {
      el = this.el.querySelector("[data-key=back]");
    } else if (focus && focus !== "board-kept") {
      el = this.el.querySelector(`[data-key="${CSS.escape(focus)}"]`);
      if (el?.disabled) el = this.el.querySelector(".replay-nav button:not(:disabled)") ?? this.el.querySelector("[data-key=undo]:not(:disabled)");
    }
    if (inBoard) {
      if (current?.view.is_over && !this.replay && document.getElementById("summary")) el = document.getElementById("summary-title");
      if (hotseat && hotseat.phase !== "pick") el = document.getElementById("curtain-title") ?? el;
    }
    return el ? { el, preventScroll: focus !== "board", inBoard } : null;
  }

  #seatList(view, best) {
    return h("ol", { class: this.page ? "seats" : "seats embed-seats", "aria-label": "Players" }, view.seats.map((_, i) => {
      const toMove = !view.is_over && view.to_move.includes(i);
      const won = view.winners.includes(i);
      const kind = kindWords(view, i);
      return h("li", { class: [toMove ? "to-move" : "", won ? "winner" : ""].join(" ").trim() || null, dataset: { seat: i } },
        h("span", { class: "seat-mark", dataset: { seat: i }, "aria-hidden": "true" }, String(i + 1)),
        h("span", { class: "seat-name" }, seatName(view, i)),
        kind ? h("span", { class: "seat-kind" }, ...kind) : null,
        // a score the engine words (view.standing, such as "still in"), else the number
        view.standing ? h("span", { class: "score standing" }, view.standing[i])
          : h("span", { class: "score", "aria-label": `score ${view.scores[i] ?? 0}` }, String(view.scores[i] ?? 0)),
        best ? h("span", { class: "best-score", dataset: { exact: String(best.exact) } },
          best.exact ? `best possible: ${best.score}` : `best possible: at least ${best.score} (best found)`) : null,
        toMove && this.page ? h("span", { class: "badge turn" }, "to move") : null,
        won ? h("span", { class: "badge won" }, "winner") : null);
    }));
  }

  /** Whether the game has comments or side lines (the Embed dialog then offers a replay with them). */
  #hasNotes() {
    const notes = this.current?.view.notes;
    return !!notes && (notes.comments.length > 0 || notes.lines.length > 0);
  }

  /** Whether the game can be analysed now: finished, or stepped through (the
   * embed's replay mode too), with no secret pick or sealed screen in the way. */
  #analysable() {
    const { current, replay, hotseat } = this;
    if (!current || current.secret || current.seal) return false;
    return this.options.readOnly || ((current.view.is_over || replay != null) && (!hotseat || hotseat.phase === "pick"));
  }

  /** The best move found at the position shown (analysis.js), while stepping through an analysed game. */
  bestHere() {
    const { current, replay } = this;
    if (!(replay || this.options.readOnly) || !this.#analysable()) return null;
    return this.analysis.bestAt(current.record, replay ? replay.ply : this.plies());
  }

  /** Everything the board region is drawn from, as one string. */
  #boardKey(blocked) {
    const { current, replay, hotseat, reveal } = this;
    const replaying = replay != null || this.options.readOnly;
    const drawn = replaying ? (replay ?? current).view
      : hotseat?.phase === "pick" ? hotseat.seatView
      : hotseat ? null : current.view;
    const screen = hotseat ? { ...hotseat, seatView: undefined } : null;
    const sealed = hotseat?.phase === "link" ? [current.seal, current.record] : null;
    return JSON.stringify([replaying, blocked, screen, hotseat ? reveal : "", sealed, drawn, hotseat?.phase === "pick" || !hotseat ? null : current.view, this.bestHere(), this.sideLines.key()]);
  }

  #boardArea(blocked) {
    const { current, replay, hotseat, reveal, renderer } = this;
    const view = current.view;
    const live = !this.sideLines.playable() && !replay && !this.options.readOnly && !hotseat && !blocked;
    // The game as it stands, on the board already there: a board module with
    // update() draws the new view into it, changing only what changed (its
    // <svg>, and the focus in it, stay); else the board is made anew.
    const kept = this.#liveBoard;
    this.#liveBoard = null;
    if (live && kept && kept.renderer === renderer && renderer.update && kept.area.isConnected
        && renderer.update(kept.board, view, this.makeUi(false))) {
      this.#liveBoard = kept;
      return kept.area;
    }
    const area = h("div", { id: "board", class: this.page ? "board" : "board embed-board" });
    if (this.sideLines.playable()) {
      this.sideLines.board(area);
    } else if (replay || this.options.readOnly) {
      const shown = (replay ?? current).view;
      // an analysed game shows the best move found here with the Hint's mark (analysis.js)
      const best = this.bestHere();
      let picture = null;
      const still = () => (picture ??= renderer.render(shown, this.makeUi(true)));
      const withBest = best && this.analysis.boardWithBest(renderer, shown, best.move, {
        ...this.makeUi(false), preview: (move) => this.ask("preview", { record: shown.record, move: String(move) }),
      }, still);
      inert(withBest ?? still(), area, "replaying");
    } else if (hotseat?.phase === "link") {
      area.classList.add("curtained");
      area.append(this.links.screen(view));
    } else if (hotseat) {
      this.phases.fill(area, view, hotseat, { reveal, board: () => renderer.render(hotseat.seatView, this.makeUi(false)) });
    } else if (blocked) {
      // a computer is choosing: the board is a picture until it has
      inert(renderer.render(view, this.makeUi(true)), area, "computer-turn");
    } else {
      const board = renderer.render(view, this.makeUi(false));
      area.append(board);
      this.#liveBoard = { area, board, renderer };
    }
    return area;
  }

  #moveForm(view) {
    const input = h("input", { id: "move-input", name: "move", autocomplete: "off", spellcheck: "false", placeholder: view.legal_moves[0] ?? "" });
    const form = h("form", { id: "move-form", class: "move-form" },
      h("label", { for: "move-input" }, "Type a move"), input, h("button", { type: "submit" }, "Play"));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (text && (await this.play(text))) input.value = "";
    });
    return form;
  }

  /** What the live region (#announce) says: after a move, the engine's words
   * for it and whose turn it is; while stepping through a game (and in a
   * replay-only embed), the position shown in words, then its comment. */
  #announcement(view, remark) {
    const { replay } = this;
    if (!replay && !this.options.readOnly) return `${view.announcement ?? `${view.status}.`}${remark ? ` Comment: ${remark}` : ""}`;
    const plies = this.plies();
    const line = replay?.line;
    const ply = replay ? replay.ply : plies;
    const move = replay ? replay.move : ply > 0 ? moveInWords(view, ply - 1) : null;
    const where = line ? `Side line instead of move ${line.from + 1}, move ${line.n} of ${line.length}`
      : ply === 0 ? `The start of the game (of ${plies} ${plies === 1 ? "move" : "moves"})` : `After move ${ply} of ${plies}`;
    return `${where}${move ? `: ${move}` : ""}.${remark ? ` Comment: ${remark}` : ""}`;
  }

  /** The embed's step bar: through the record, and back to the game. */
  #stepBar() {
    const { current, replay } = this;
    const total = this.plies();
    const at = replay ? replay.ply : total;
    const button = (key, words, label, target, enabled) => h("button", {
      type: "button", class: "secondary step", dataset: { key }, "aria-label": label, disabled: !enabled,
      onclick: () => (typeof target === "function" ? target() : this.replayTo(target)),
    }, words);
    // the engine's words for the move, without its mover: the frame's one line stays one line
    const line = replay?.line;
    // in a side line, back and forward go along it (back from its first move: where it branches off)
    // (from the position last asked for: two quick clicks are two steps)
    const back = () => this.stepBy(-1);
    const forward = () => this.stepBy(1);
    const move = line ? replay.move : at > 0 ? current.view.moves?.[at - 1]?.words ?? current.view.history[at - 1] : null;
    // one compact row (the buttons and where the game is), the move's words under it
    const where = line ? `Side line instead of move ${line.from + 1}, move ${line.n} of ${line.length}`
      : at === 0 ? `Start (of ${total} ${total === 1 ? "move" : "moves"})` : `Move ${at} of ${total}`;
    return h("div", { class: "embed-steps", role: "group", "aria-label": "Step through the game" },
      button("first", "«", "First: the start of the game", 0, at > 0),
      button("back", "‹", line ? "Back one move in this side line" : "Back one move", back, line != null || at > 0),
      // (not a live region: #announce says each step, with its comment)
      h("span", { class: "embed-where" }, h("span", { id: "embed-ply", class: "embed-ply", dataset: { ply: at } }, where),
        move != null ? h("span", { class: "embed-move" }, move) : null),
      button("forward", "›", line ? "Forward one move in this side line" : "Forward one move", forward, line ? line.n < line.length : at < total),
      button("last", "»", this.options.readOnly ? "Last: the end of the record" : "Last: back to the game", total, at < total),
      this.options.stepBarExtra?.() ?? null);
  }

  // The embed's panels (the moves list with its comments and side lines, and
  // the analysis) are folded under the board, each opened by the reader; an
  // open one stays open from step to step.
  #opened = new Set();

  #fold(name, summary, panel) {
    if (!panel) return null;
    const box = h("details", { class: `embed-panel embed-${name}`, open: this.#opened.has(name) }, h("summary", {}, summary), panel);
    box.addEventListener("toggle", () => {
      if (box.open) this.#opened.add(name);
      else this.#opened.delete(name);
      this.options.afterDraw?.();
    });
    return box;
  }

  /** What to do with the link now, in words, under "Share this game". */
  #shareAdvice(view) {
    if (view.is_over) return "The game is over: this link shows it, and every move can be stepped through.";
    if (hasComputer(view) || view.seats.length === 1) return "This link holds the game as it stands (the computer players too): open it on any device to carry on.";
    const sealed = this.links.shareAdvice(view);
    if (sealed) return sealed;
    return "Send this link to the next player: they make their move on their own device and send the new link back. The link always holds the game as it stands.";
  }

  /** The position on screen, for a picture of it (picture.js): the replayed
   * one while stepping back, else the game as it stands; public only (null
   * while a secret pick waits). The engine answers for the other positions. */
  shown() {
    const { current, replay } = this;
    if (!current || current.secret) return null;
    const plies = this.plies();
    const ply = replay ? replay.ply : plies;
    return {
      view: (replay ?? current).view,
      comment: (replay ? replay.comment : current.view.comment) ?? null,
      moveWords: replay ? replay.move : ply > 0 ? moveInWords(current.view, ply - 1) : null,
      gameName: this.options.gameInfo?.(current.view.game)?.name ?? current.view.name,
      renderer: this.renderer, record: current.record, ply, plies, engine: this.engine,
      line: replay?.line ? { index: replay.line.index, n: replay.line.n, from: replay.line.from } : null,
    };
  }
}
