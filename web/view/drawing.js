// The game view's drawing: the skeleton its regions live in, for the page
// ("page": head, status, seats, the board column (the bar, the answer line,
// the board, then a finished game's summary) and the moves panel beside it,
// the share panel) and for a frame ("embed": status, seats, board and a step
// bar, the panels folded under it), and one pass that
// brings the regions a draw asks for up to date with the position shown.
// Each region is rebuilt only when its key changed (regions.js); after a
// move, the board of the game as it stands, the moves list and the share
// panel are brought up to date in place rather than made anew (chessground's
// way). No rule lives here: everything drawn is the engine's view.

import { h, seatName, showMessage, statusLine } from "../ui/dom.js";
import { showRules } from "../features/help.js";
import { addressOf, followNewLink, sharePanel } from "../share/share.js";
import { linkWithPoster } from "../share/still.js";
import { hasComputer } from "./computer.js";
import { followCurrentMove, movesPanel, replayBanner, summaryPanel, updateMovesPanel } from "./history.js";
import { announcement, boardArea, boardKey, fold, moveForm, Regions, seatList, shareAdvice, stepBar } from "./regions.js";
import { boardInView, focusBefore, planFocus } from "./focus.js";
import { answerAnchor, barRoom, keepUnderStatus, seatRow } from "./answer.js";
import { BoardPlace } from "./board-place.js";
import { handOff, handOffInView, handOffLine } from "./handoff.js";
import { commentRegion, earlierComments } from "./earlier-comments.js";

export const EVERY_REGION = () => true;

export class Drawing {
  #regions = null;
  #root = null; // the skeleton's root node, in the game view's element
  #marked = null; // the record whose analysis marks the moves list had at the last draw (analysis.js markMoves)
  #liveBoard = null; // {area, board, renderer}: the board region of the game as it stands, drawn in place next time
  #stuck = null; // the IntersectionObserver of the status line's place
  #said = null; // the live region (#announce) of the skeleton
  #listed = null; // the moves list's length and move shown when it last followed them (#followMoves)
  #opened = new Set(); // the embed's folded panels the reader opened
  #place = new BoardPlace(); // where the board is kept (board-place.js)

  /** game: the GameView drawn. */
  constructor(game) {
    this.game = game;
  }

  /** The region's node now (an element, or a comment while it is empty), or null. */
  node(name) {
    return this.#regions?.node(name) ?? null;
  }

  /** Whether the skeleton drawn last is still on the page. */
  attached() {
    return this.#root?.parentNode === this.game.el;
  }

  /** Forget everything drawn: the next draw makes the skeleton anew. */
  reset() {
    this.#root = null;
    this.#liveBoard = null;
    this.#marked = null;
    this.#listed = null;
    this.#stuck?.disconnect();
    this.#stuck = null;
    this.#place.reset();
  }

  /** The skeleton the regions live in, made when the game is first drawn here. */
  #skeleton() {
    const game = this.game;
    const r = (this.#regions = new Regions());
    this.#place.reset();
    // the live regions a screen reader hears the answers from; the eye reads
    // them in the answer line over the bar over the board (answer.js)
    const message = h("p", { id: "message", class: "message heard", role: "alert" });
    const note = h("p", { id: "note", class: "note heard", role: "status" });
    // the one polite live region: after every move, the engine's words for it
    // and whose turn it is (view.announcement); it stays in place, so a screen
    // reader hears each change of its text
    const said = (this.#said = h("p", { id: "announce", class: "visually-hidden", "aria-live": "polite", "aria-atomic": "true" }));
    if (game.page) {
      // (the status line sticks to the top while the board is used; stuck, it is one line: see #watchStuck)
      const above = h("div", { class: "status-mark", "aria-hidden": "true" });
      // (a finished game opens on its board: the status line and the chips say
      // the result, and the summary, the final scores and Play again, follow the board)
      this.#root = h("section", { class: "game" },
        r.slot("head"), above, r.slot("status"),
        h("div", { class: "game-body" },
          h("div", { class: "board-col" }, r.slot("banner"), r.slot("handoff"), answerAnchor(), seatRow(r), r.slot("board"), r.slot("comment"), r.slot("summary"), message, note, r.slot("controls")),
          h("aside", { class: "side" }, r.slot("moves"), r.slot("analysis"))),
        r.slot("share"), said);
      this.#watchStuck(above);
    } else {
      // (display: contents: the frame's column lays out the regions themselves)
      this.#root = h("div", { class: "embed-game" },
        r.slot("status"), game.options.problems?.() ?? null, answerAnchor(), seatRow(r), r.slot("board"), r.slot("comment"), message, note, r.slot("controls"), r.slot("moves"), r.slot("analysis"), said);
    }
    game.el.replaceChildren(this.#root);
  }

  /** While the status line is stuck to the top (its place, `mark`, scrolled
   * above the screen), the game root has the class "stuck" and the line is
   * one line (style.css): what stays on top is never more than one line. */
  #watchStuck(mark) {
    this.#stuck?.disconnect();
    if (typeof IntersectionObserver !== "function") return;
    const root = this.#root;
    this.#stuck = new IntersectionObserver(([entry]) => {
      root.classList.toggle("stuck", !entry.isIntersecting && entry.boundingClientRect.top < 0);
      keepUnderStatus(root, this.node("status"));
    });
    this.#stuck.observe(mark);
  }

  /** Bring the regions `want(name)` picks up to date with the position (the
   * rest of the page with the board's pass: title, the root's names, the
   * message, the live region). focus: where a step asked the focus to go
   * (drawSoon's); fresh: the message goes and the note shows the reveal
   * anew. Returns where the focus goes next (focus.js's plan), or null. */
  draw(want = EVERY_REGION, { focus = null, fresh = false } = {}) {
    const game = this.game;
    const { current, replay, hotseat } = game;
    const { view, record, private_record: privateRecord, secret } = current;
    const page = game.page;
    if (!this.attached()) this.#skeleton();
    const r = this.#regions;
    // the board's pass (every draw's but the panels' own after a move)
    const first = want("board");
    const before = focusBefore(game.el, r.node("board"));
    if (game.page) this.#place.mark(r.node("board"));

    const info = game.options.gameInfo?.(view.game) ?? { id: view.game, name: view.name };
    const shown = replay ? replay.view : view;
    if (first) {
      const title = `${info.name} · Quet Games`;
      if (document.title !== title) document.title = title;
      if (page) {
        // while a secret pick waits the record holds it: it stays out of the page
        this.#root.dataset.game = view.game;
        // (and a position drawn before the engine names no record: the game is not open yet, still.js)
        if (secret || current.still) delete this.#root.dataset.record;
        else this.#root.dataset.record = record;
      }
      // the position shown, named on the root: a ply of the game, or of a side line
      this.#root.dataset.ply = String(replay ? replay.ply : game.plies());
      // (drawn before the engine is up, from a link's poster or this device's last view: still.js)
      if (current.still) this.#root.dataset.still = current.still;
      else delete this.#root.dataset.still;
      if (replay?.line) this.#root.dataset.line = `${replay.line.index}:${replay.line.n}`;
      else delete this.#root.dataset.line;
    }
    const readOnly = game.options.readOnly;
    const blocked = !readOnly && game.computers.blocksHuman(view, privateRecord);
    const plies = game.plies();
    let changed = false;
    const region = (name, key, build) => { if (r.update(name, key, build)) changed = true; };

    if (page && first) {
      region("head", JSON.stringify([info.name, !!info.rules, secret]), () => h("div", { class: "game-head" },
        h("h1", {}, info.name),
        h("nav", { class: "head-links" },
          info.rules ? h("button", { type: "button", class: "secondary rules-button", dataset: { key: "rules" }, onclick: () => showRules(info) }, "How to play") : null,
          // an embed carries the record, so not while it holds a secret pick
          secret ? null : h("button", {
            type: "button", class: "secondary embed-button", dataset: { key: "embed" },
            onclick: () => import("../share/embed-snippet.js").then((m) => m.openEmbedDialog({ record: game.current.record, name: info.name, game: game.current.view.game, plies: game.plies(), notes: game.hasNotes(), over: game.current.view.is_over })),
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
      const best = game.computers.solitaireBest(shown, privateRecord);
      region("seats", JSON.stringify([seated.seats, seated.to_move, seated.winners, seated.scores, seated.standing, seated.is_over, best]), () => seatList(seated, best, page));
    }

    if (page && first) {
      const summary = view.is_over && !replay;
      region("summary", JSON.stringify(summary ? [view.seats, view.scores, view.winners, view.end_reason, view.standing] : null), () =>
        summary ? summaryPanel(view, { onPlayAgain: () => game.options.onPlayAgain?.() }) : null);
      const hint = game.sideLines.hint();
      // (the page's own word on this past position, with a way on: an older link's, app.js)
      const aside = replay ? game.options.replayAside?.(replay) ?? null : null;
      region("banner", JSON.stringify(replay ? [replay.ply, replay.plies, replay.move, replay.line ?? null, hint, aside && [aside.words, aside.label]] : null), () =>
        replay ? replayBanner({ ...replay, hint, aside }, () => game.exitReplay()) : null);
    }

    // the bar over the board: always there on a live game of the page (Hint), so
    // nothing jumps when a computer starts; in the embed, with computer seats only
    // by link, while the seats to move play elsewhere: whose turn, and the link to send them, in the bar's place (handoff.js)
    const handoff = page && game.options.byLink && !replay && !hotseat && !secret && !readOnly ? handOff(view) : null;
    const bar = !handoff && !readOnly && !view.is_over && (page || hasComputer(view));
    // (the picks revealed, the answer to this move, are said in it: it stands where the answer line would rise to)
    const told = handoff && !hotseat && game.reveal ? game.reveal : "";
    const handed = page && first && r.update("handoff", JSON.stringify(handoff ? [handoff.words, record, told] : null), () => (handoff ? handOffLine(view, handoff, record, `${info.name} · Quet Games`, told) : null));
    if (handed) changed = true;
    if (first) {
      // (a game that ends on screen keeps the bar's room, empty, so the board does not rise: answer.js)
      const ended = !bar && page && view.is_over && !replay && !readOnly;
      const barKey = JSON.stringify(bar ? [!!replay, view.seats.map((seat) => seat.kind)] : ended ? "ended" : null);
      const lastBar = r.node("computers");
      const rebuilt = r.update("computers", barKey, () => (bar ? game.computers.bar(view, privateRecord, { replaying: !!replay })
        : ended ? barRoom(lastBar) : null));
      if (rebuilt) changed = true;
      // (the bar also says, in <html data-computer>, what the computers are doing)
      if (!rebuilt || !bar) game.computers.follow(view, privateRecord, { bar });
      region("board", boardKey(game, blocked), () => {
        const { area, live } = boardArea(game, blocked, this.#liveBoard);
        this.#liveBoard = live;
        return area;
      });
    }
    // the comment of the position shown (plain text; #announce reads it out after the move's words)
    const remark = secret ? null : (replay ? replay.comment : view.comment) ?? null;
    // (at the latest move, with a mark that steps to the comments on earlier moves: earlier-comments.js)
    const earlier = secret || replay ? null : earlierComments(view, plies);
    if (first) region("comment", JSON.stringify([remark, earlier]), () => commentRegion(remark, earlier, (ply) => game.replayTo(ply, "shown-comment")));

    if (first && fresh) {
      // (the answer to the last action goes; the picks revealed are the answer to this one)
      // (said in the hand-off line if there is one: the line would hang over the board there, answer.js;
      // against a computer's secret pick, over the row of the seats too, not in the banner over the
      // board, where it pushed the board's number box down a round later: phases.js)
      const answered = !hotseat || (hotseat.phase === "pick" && hotseat.computers);
      showMessage(answered && game.reveal ? game.reveal : "", told ? "echo" : "info");
      changed = true;
    }

    const movesBefore = r.node("moves");
    if (page) {
      // (a board with its own box for typed moves, such as a number to pick, gets no second one)
      const canPlay = !replay && !view.is_over && !(hotseat && hotseat.phase !== "pick") && !blocked && !game.renderer?.typesMoves;
      if (first) {
        region("controls", String(canPlay), () => (canPlay ? moveForm(view, (text) => game.play(text)) : null));
        // (the box stays from move to move: only its example changes)
        const input = canPlay ? r.node("controls").querySelector?.("#move-input") : null;
        if (input && input.placeholder !== (view.legal_moves[0] ?? "")) input.placeholder = view.legal_moves[0] ?? "";
      }
    }
    // (a position drawn before the engine is up, still.js: these need the whole record, and wait for it)
    const whole = !current.still;
    if (page && want("moves") && whole) {
      const canReplay = hotseat?.phase !== "pick" || !!hotseat.computers;
      const thinking = game.computers.thinking;
      const panel = {
        moves: view.moves, names: view.seats.map((_, i) => seatName(view, i)), plies,
        ply: replay ? (replay.line ? replay.line.from : replay.ply) : null,
        line: replay?.line ? { index: replay.line.index, n: replay.line.n } : null,
        notes: secret ? null : view.notes ?? null,
        canAnnotate: !secret && !current.seal && canReplay && !thinking,
        canDropLines: !secret && !current.seal && canReplay && !thinking,
        // no taking back while a secret pick waits: the next player holds the device
        canUndo: plies > 0 && !secret && !current.seal && canReplay && !thinking && !game.computers.restarting,
        canReplay,
      };
      // (a step taken in the list keeps the board in view: on a phone the list is below it)
      const seen = (stepped) => stepped.then(() => boardInView(this.node("board")));
      const on = {
        replayTo: (ply) => seen(game.replayTo(ply)), exit: () => seen(game.exitReplay()), undo: () => game.undo(),
        stepBy: (delta, how) => seen(game.stepBy(delta, how)),
        lineTo: (index, n) => seen(game.lineTo(index, n)), annotate: () => game.annotate(),
        dropLine: (index) => game.sideLines.dropLine(index),
      };
      // (after a move the list is brought up to date in place: the new move appended)
      region("moves", JSON.stringify(panel), () => (updateMovesPanel(r.node("moves"), panel, on) ? r.node("moves") : movesPanel(panel, on)));
      this.#followMoves(panel, r.node("moves") !== movesBefore);
    }
    if (page && want("share") && whole) {
      // (a sealed link's own screen offers the link itself)
      const share = secret || hotseat?.phase === "link" ? null
        : { url: addressOf(record), record, advice: shareAdvice(game, view), title: `${info.name} · Quet Games` };
      // (the link handed out carries the position's poster, once made: share/still.js; not part of the region's key)
      const poster = share ? () => linkWithPoster(record, view).then(addressOf) : null;
      region("share", JSON.stringify(share), () => (!share ? null
        : followNewLink(r.node("share"), { ...share, poster }) ? r.node("share") : sharePanel({ ...share, poster }, { shown: () => game.shown() })));
    }
    if (!page) {
      region("controls", JSON.stringify([replay?.ply ?? null, replay?.line ?? null, plies, view.history, readOnly]), () => stepBar(game));
      // a replay with comments or side lines: the moves list tells them (the reader steps through them)
      const notes = readOnly && view.notes && (view.notes.comments.length || view.notes.lines.length) ? view.notes : null;
      const panel = notes && {
        moves: view.moves, names: view.seats.map((_, i) => seatName(view, i)), plies, notes, canUndo: false, canReplay: true,
        ply: replay ? (replay.line ? replay.line.from : replay.ply) : null,
        line: replay?.line ? { index: replay.line.index, n: replay.line.n } : null,
      };
      const lines = notes?.lines.length ?? 0;
      region("moves", JSON.stringify(panel), () => (panel ? this.#fold("moves", `Moves, comments${lines ? ` and ${lines} side ${lines === 1 ? "line" : "lines"}` : ""}`, movesPanel(panel, {
        replayTo: (ply) => game.replayTo(ply), exit: () => game.replayTo(plies), lineTo: (index, n) => game.lineTo(index, n),
        stepBy: (delta, how) => game.stepBy(delta, how),
      })) : null));
      if (panel) this.#followMoves(panel, r.node("moves") !== movesBefore);
    }

    if (first) {
      const said = this.#said;
      const words = announcement(game, view, remark);
      if (said.textContent !== words) said.textContent = words;
    }

    // the analysis (analysis.js): of a finished game, or while stepping through one
    if (want("analysis") && whole) {
      const analysed = game.analysable();
      const shownPly = replay ? replay.ply : plies;
      // (the analysis written as comments: where Annotate is offered)
      const canComment = page && !secret && !current.seal && !game.computers.thinking;
      region("analysis", analysed ? `${game.analysis.key(record, shownPly, plies)}${canComment}` : "null", () => {
        const panel = analysed ? game.analysis.panel({ record, view, ply: shownPly, plies, canComment }) : null;
        return page ? panel : this.#fold("analysis", "Analysis: how good was each move?", panel);
      });
      // (no analysis now nor at the last draw: there are no marks to put or take off)
      const marks = analysed || view.is_over ? record : null;
      if (page && (marks != null || this.#marked != null)) game.analysis.markMoves(this.#root, marks);
      this.#marked = marks;
    }

    if (page) this.#place.keep(r.node("board"), !!current.still); // (the board never rises under the finger: board-place.js)
    if (handed && handoff) handOffInView(r.node("handoff"));
    const plan = planFocus(game, game.el, before, focus, r.node("board"));
    if (changed) game.options.afterDraw?.();
    return plan;
  }

  #fold(name, summary, panel) {
    return fold(this.#opened, name, summary, panel, () => this.game.options.afterDraw?.());
  }

  /** The moves list keeps the move shown inside its box, when it is new or
   * shows another move (on the next frame: one layout with the drawing's own). */
  #followMoves(panel, made) {
    const listed = `${panel.plies} ${panel.ply} ${panel.line?.index} ${panel.line?.n}`;
    if (!made && listed === this.#listed) return;
    this.#listed = listed;
    requestAnimationFrame(() => followCurrentMove(this.node("moves")));
  }
}
