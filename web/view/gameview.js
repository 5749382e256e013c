// The game view, shared by the site's game page (app.js) and the embed
// (embed.js): one game drawn from the engine's view() with the game's board
// module, moves sent back as notations. No rule lives here: legal moves,
// status and scores all come from the engine.
//
// It shows one of: the game as it stands (the board acts for the seat to
// move); a past position (replay: the record stays; on the page the board
// plays side lines there, see sidelines.js); or, when several people choose
// in secret at one screen, a hand-over screen instead of the board until the
// right person says they hold the device. Computer seats move through the
// same play path as a person (computer.js).
//
// GameView coordinates its parts, as lichess's analysis splits a controller
// from its views, and holds no state one of them could hold:
//   position.js  the position shown (the game, the past position, the
//                hand-over screen, the queue of steps), which every part reads
//   address.js   the address, following the game once the board is painted
//   drawing.js   the regions drawn from the position (regions.js builds each;
//                focus.js says where the focus goes)
// and three jobs beside it: turns and hand-over at one screen (phases.js),
// the sealed-link driver (sealing.js), and side lines played from the board
// of a past position (sidelines.js).
//
// Drawing is by region, all in one animation frame; after a move on the page
// the board and what says the position come first, and the panels beside it
// (seats, moves, share, analysis) once that frame is painted.

import { playsDataMoves, showMessage } from "../ui/dom.js";
import { confirmDialog } from "../ui/dialog.js";
import { hotSeatFor, pendingSecret, revealText } from "./handover.js";
import { mayPlay, moverOf, playedHere } from "./handoff.js";
import { moveInWords } from "./history.js";
import { saveGame, saveIdFor } from "../share/saved.js";
import { keepView } from "../share/still.js";
import { markEnded } from "../share/seats.js";
import { keepHotSeat, openSeal } from "./commit.js";
import { ComputerPlayers, hasComputer, isComputer } from "./computer.js";
import { SealedLinks } from "./sealing.js";
import { TurnPhases } from "./phases.js";
import { SideLines } from "./sidelines.js";
import { AnalysisPanel } from "../features/analysis.js";
import { LookAhead } from "../bridge/ahead.js";
import { ShownPosition } from "./position.js";
import { Address } from "./address.js";
import { Drawing, EVERY_REGION } from "./drawing.js";
import { applyFocus } from "./focus.js";
import { afterRendering, onceFramePainted } from "./frames.js";
import { StillPosition } from "./still.js";

const RETRY = { retry: true }; // a worker that stopped is restarted and the call sent again (engine.js)

// Which regions a draw brings up to date (Drawing.draw's `want`): every one; after a
// move on the page, all but the panels beside the board first (the click's
// task), then those panels once that frame is painted (drawSoon's panels "later").
const PANELS_LATER = ["seats", "moves", "share", "analysis"];
const BOARD_FIRST = (name) => !PANELS_LATER.includes(name);

// -- the game view ---------------------------------------------------------------------

export class GameView {
  busy = false; // an engine step is under way: no other move meanwhile
  renderer = null;

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
    this.still = new StillPosition(this); // a position drawn before the engine is up (still.js)
    this.position = new ShownPosition({ ask: (call, args) => this.ask(call, args), sideLines: this.sideLines });
    this.address = new Address({
      enabled: this.options.fragment, shownRecord: () => this.current?.record, onFollow: (fragment) => this.options.onFollow?.(fragment),
    });
    this.drawing = new Drawing(this);
    this.ahead = new LookAhead((args) => this.engine.request("play", args)); // answers before the click (ahead.js)
    this.computers = new ComputerPlayers(this.engine, {
      // (the computers play on from the game as this device holds it)
      game: () => (this.current && !this.current.still && !this.replay && !this.options.readOnly ? { record: this.current.private_record, view: this.current.view } : null),
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
    // any element with data-move is a one-click move (ui/dom.js)
    playsDataMoves(el, (move) => this.play(move));
  }

  // The position shown (position.js), read and set through the game view by its parts.
  get current() { return this.position.current; }
  set current(current) { this.position.current = current; }
  get replay() { return this.position.replay; }
  set replay(replay) { this.position.replay = replay; }
  get hotseat() { return this.position.hotseat; }
  set hotseat(hotseat) { this.position.hotseat = hotseat; }
  get reveal() { return this.position.reveal; }
  set reveal(reveal) { this.position.reveal = reveal; }

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
    this.address.forget(); // (a frame old at most, and the address may already be the next page's)
    this.computers.reset();
    this.analysis.cancel();
    this.ahead.stop();
    cancelAnimationFrame(this.#frame);
    this.#scheduled = false;
    this.#panelsNow = false;
    this.#panelsDue = null;
    this.#focusPlan = null;
    this.#settle();
    this.position.clear();
    this.drawing.reset();
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
    if (save && opened.view.is_over) markEnded(opened.view.game_id); // (ended here: its hand-off says to send the last link, handoff.js)
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
    if (line) await this.position.showLine(line.index, line.n);
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
    // (the view kept on this device, saved game or not: a reload or a repeat visit draws it before the engine, share/still.js)
    if (this.options.saves && this.current === current) setTimeout(() => keepView(current.saveId ?? saveIdFor(current.view), current.record, current.view));
    for (const [text, kind] of this.options.takeNotices?.() ?? []) this.explain(text, kind);
  }

  /** The address follows the game: `fragment` is what it shows, now or
   * (afterPaint, after a move) once the frame showing the new board is painted (address.js). */
  follow(fragment, options) {
    this.address.follow(fragment, options);
  }

  /** Show a position known before the engine is up (share/still.js), until the engine's own view replaces it (still.js). */
  showStill(still) {
    return this.still.show(still);
  }

  /** Play the move made on the still position, if one waits: true once played, false if refused (in words) or none. */
  playKept() {
    const move = this.still.take();
    return move == null || this.current?.still ? Promise.resolve(false) : this.play(move);
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
    if (current?.still && computerSeat == null) return this.still.keep(notation); // (the engine is not up yet)
    // a person's move on the board of a past position: a side line, or the game cut there
    if (computerSeat == null && this.replay && !this.options.readOnly) return this.sideLines.playFromReplay(notation);
    if (this.busy || !current || this.replay || this.options.readOnly) return false;
    if (computerSeat == null && this.computers.blocksHuman(current.view, current.private_record)) {
      this.explain(this.computers.whyBlocked(current.view, current.private_record), "warning");
      return false;
    }
    if (computerSeat == null && this.options.beforeMove?.(current) === false) return false; // (app.js: another tab moved on)
    const seat = computerSeat ?? this.actingSeat();
    // by link, a seat this device does not play is asked first (handoff.js)
    const person = computerSeat == null && this.options.byLink ? moverOf(current.view, seat) : null;
    if (person != null && (!(await mayPlay(current.view, person)) || this.current !== current || this.busy)) return false;
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
        playedHere(before, person);
        this.follow(played.record);
        await this.show(played, { focus: "board", linkSeat: seat, save: true });
        return true;
      }
      // A seat's own view may hold its secret pick: the page keeps only the
      // public one, which the engine answers with (public: one call, not a
      // play and then an open).
      const played = await this.ask("play", { record, move: String(notation), ...(seat != null ? { seat, public: true } : {}) });
      playedHere(before, person);
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

  /** The moves in the record, for drawing (a secret pick counts). */
  plies() {
    return this.position.plies();
  }

  /** Show the position after `ply` moves (the game as it stands at the end). */
  showPly(ply) {
    return this.position.showPly(ply);
  }

  /** Show the position after `ply` moves; focus: a data-key to give the focus to once drawn. */
  replayTo(ply, focus = null) {
    return this.#stepTo({ ply }, async () => {
      await this.position.showPly(ply);
      await this.drawSoon(focus);
    });
  }

  /** Steps through the record are queued, in turn (position.js). */
  #stepTo(target, work) {
    return this.position.queue(target, work, { busy: () => this.busy, run: (w) => this.step(w) });
  }

  /** The position the latest step asked for, else the one shown: {ply} or {line, n}. */
  aimed() {
    return this.position.aimed();
  }

  /** A step along the line of the position aimed at: by -1 or +1, or to its
   * "first" or "last" move; `focusMove`: the focus goes to the move shown in
   * the moves list (a step by key there). */
  stepBy(delta, { focusMove = false } = {}) {
    if (!this.current) return Promise.resolve();
    const to = this.position.stepFrom(delta, focusMove);
    if (!to) return Promise.resolve();
    return to.line != null ? this.lineTo(to.line, to.n, to.key) : this.replayTo(to.ply, to.key);
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
      if (await this.position.showLine(index, n)) await this.drawSoon(focus);
    });
  }

  /** Write (or change, or remove) the comment of the position shown (sidelines.js). */
  annotate() {
    return this.step(() => this.sideLines.annotate());
  }

  undo() {
    return this.step(async () => {
      const { current } = this;
      if (this.replay) return;
      const plies = await this.position.plyCount();
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
      // (by link, a pick from a list takes two acts, select then commit: the board module)
      deliberate: this.hotseat?.byLink != null, commit: this.hotseat?.byLink === "seal" ? "Seal" : "Choose",
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
  #focusPlan = null; // {el, preventScroll, ifLost, inBoard}: where focus goes on the next frame (focus.js)

  /** Draw the regions `want` picks (drawing.js), giving it the focus and
   * freshness asked of the board's pass. */
  #draw(want) {
    const first = want("board");
    const focus = first ? this.#focus : null;
    if (first) this.#focus = null;
    const fresh = first && this.#fresh;
    if (fresh) this.#fresh = false;
    this.#focusPlan = this.drawing.draw(want, { focus, fresh });
  }

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
    // (a still board takes no move: the screen is ready once the live one replaces it)
    this.setEngineState(this.current?.still ? "busy" : "ready");
    this.#applyFocus();
    if (this.current && !this.current.still) {
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
    // one task a panel, each after the one before, so the page stops for none of them long
    const run = ([panel, ...rest] = PANELS_LATER) => {
      if (this.#panelsDue !== due) return; // done, dropped (leave), or drawn by a full draw since
      if (!rest.length) this.#panelsDue = null;
      const started = performance.now();
      // (the skeleton the board was drawn in, still on the page)
      if (this.current && this.drawing.attached()) this.#draw((name) => name === panel);
      if (globalThis.quetTimings) performance.measure("draw panels", { start: started });
      this.#applyFocus(); // (a focused button of a panel drawn anew: its namesake, see #draw)
      if (rest.length) afterRendering(() => run(rest));
      else this.#lookAhead();
    };
    onceFramePainted(() => {
      if (due.begun) return; // (it may be called twice)
      due.begun = true;
      run();
    });
  }

  /** Give the focus the last draw planned (focus.js). */
  #applyFocus() {
    const plan = this.#focusPlan;
    this.#focusPlan = null;
    applyFocus(plan);
  }

  /** Have the engine answer each move target on the board before it is
   * clicked (ahead.js), where a click plays it as it stands: a person to move,
   * nothing secret, sealed or computed first. */
  #lookAhead() {
    const { current } = this;
    const open = current && !current.still && !this.replay && !this.hotseat && !this.options.readOnly && !current.view.is_over &&
      !hasComputer(current.view) && !current.view.sealing;
    if (!open) {
      this.ahead.stop();
    } else if (this.ahead.record !== current.private_record) {
      const targets = this.drawing.node("board")?.querySelectorAll?.("[data-move]") ?? [];
      this.ahead.start(current.private_record, [...new Set([...targets].map((el) => el.dataset.move))]);
    }
  }

  #settle() {
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  /** Whether the game has comments or side lines (the Embed dialog then offers a replay with them). */
  hasNotes() {
    const notes = this.current?.view.notes;
    return !!notes && (notes.comments.length > 0 || notes.lines.length > 0);
  }

  /** Whether the game can be analysed now: finished, or stepped through (the
   * embed's replay mode too), with no secret pick or sealed screen in the way. */
  analysable() {
    const { current, replay, hotseat } = this;
    if (!current || current.secret || current.seal) return false;
    return this.options.readOnly || ((current.view.is_over || replay != null) && (!hotseat || hotseat.phase === "pick"));
  }

  /** The best move found at the position shown (analysis.js), while stepping through an analysed game. */
  bestHere() {
    const { current, replay } = this;
    if (!(replay || this.options.readOnly) || !this.analysable()) return null;
    return this.analysis.bestAt(current.record, replay ? replay.ply : this.plies());
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
