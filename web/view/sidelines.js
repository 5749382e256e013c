// Side lines played from the board of a past position (docs/RECORD.md).
//
// While stepping through a game on the page, the board of the position shown
// is a picture until the reader asks to play there ("Play a move here"); it
// then plays for the seat to move there. The game's own next move steps on;
// another move asks (choice) whether it starts a side line (bridge "branch":
// the game is kept whole) or takes back the later moves and is played (as
// undo would, only where undo is offered); in a side line it goes on (bridge
// "extend", asking first before the rest of the line is replaced). Every
// change is saved like a move. A refusal is said in the engine's words and
// nothing changes.
//
// It reaches the game view (gameview.js) through its public methods and its
// current game, replay and hot-seat state, as phases.js and sealing.js do.

import { confirmDialog } from "../ui/dialog.js";
import { seatName } from "../ui/dom.js";
import { choosingOf, revealText } from "./handover.js";
import { commentDialog, moveInWords, sideLineDialog } from "./history.js";
import { isComputer } from "./computer.js";

export class SideLines {
  /** game: the GameView whose past positions play. */
  constructor(game) {
    this.game = game;
  }

  /** `replay` with the seat its board plays for and, where several seats
   * choose at once (a round of secret picks), that seat's own view of the
   * position: the seat that moved next in the game there, else the first one
   * to choose. */
  async withReplaySeat(replay, args, next) {
    const { view } = replay;
    if (!this.game.page || this.game.options.readOnly || view.is_over || view.to_move.length === 0) return replay;
    if (view.to_move.length === 1) return { ...replay, seat: view.to_move[0] };
    const seat = view.to_move.includes(next) ? next : view.to_move[0];
    const own = await this.game.ask("at", { ...args, seat });
    return { ...replay, seat, seatView: own.view };
  }

  // Stepping back shows the past as it stood: the board is a picture (no
  // number box, no targets; issue 56) until the reader asks to play there
  // (arm(), the replay banner's button). It then plays for the rest of that
  // stepping through, until the game as it stands is shown again.
  #armed = false;

  /** Whether the reader asked to play from the positions shown (false again once back at the game as it stands). */
  #asked() {
    if (!this.game.replay) this.#armed = false;
    return this.#armed;
  }

  /** The reader's "Play a move here": the board of the position shown plays. */
  arm() {
    if (!this.#could()) return Promise.resolve();
    this.#armed = true;
    return this.game.drawSoon("board");
  }

  /** Whether the board of the position shown plays: asked for (arm()), and possible there. */
  playable() {
    return this.#asked() && this.#could();
  }

  /** Whether it could: on the page, with no pick secret or sealed in the
   * game, no computer choosing, and a seat to move there. */
  #could() {
    const { current, replay, hotseat } = this.game;
    if (!replay || !current || !this.game.page || this.game.options.readOnly) return false;
    if (current.secret || current.seal || hotseat?.phase === "link" || (hotseat?.phase === "pick" && !hotseat.computers)) return false;
    return !this.game.computers.thinking && replay.seat != null && !replay.view.is_over;
  }

  /** What the board of the position shown does, in words (under the replay
   * banner's line), or while it is a picture that could play, the offer to
   * play there: {words, label, key, onClick}. */
  hint() {
    const { current, replay } = this.game;
    if (!replay || !this.game.page) return null;
    if (!this.#could()) {
      if (current.secret) return "This position is a picture while a pick is still secret: moves and side lines can be added once it is revealed.";
      if (current.seal || this.game.hotseat?.phase === "link") return "This position is a picture while a sealed pick waits for its reveal: side lines can be added once the round is revealed.";
      return null;
    }
    // (an object: the banner draws its words and a button; the button's action is not part of the banner's key)
    if (!this.#asked()) return { words: "Another move tried here starts a side line; the game stays as it was.", label: "Play a move here", key: "side-play", onClick: () => this.arm() };
    const at = replay.view.to_move.length > 1
      ? ` Here the players choose at the same time; the board picks for ${seatName(current.view, replay.seat)}.` : "";
    if (!replay.line) return `Play another move on the board to start a side line here (the game's own next move steps on).${at}`;
    if (replay.line.n < replay.line.length) return `Play a move on the board to take this side line another way from here (you are asked before its later moves are replaced).${at}`;
    return `Play a move on the board to add it to this side line.${at}`;
  }

  /** Everything of the side lines the board region is drawn from. */
  key() {
    const { replay } = this.game;
    return this.playable() ? [replay.seat, replay.seatView ?? null, replay.record] : null;
  }

  /** The board of the position shown, playing for the replay's seat. */
  board(area) {
    const { replay, renderer } = this.game;
    const seat = replay.seat;
    const ui = {
      ...this.game.makeUi(false), seat,
      // (what a move built in parts would give: at the position shown)
      preview: (move) => this.game.ask("preview", { record: replay.record, move: String(move), seat }),
    };
    const drawn = renderer.render(replay.seatView ?? replay.view, ui);
    const best = this.game.bestHere();
    if (best) this.game.analysis.markBest(drawn, best.move);
    area.classList.add("replaying", "side-play");
    area.append(drawn);
  }

  /** A person's move on the board of the position shown (see above); true once drawn. */
  async playFromReplay(notation) {
    const { current, replay } = this.game;
    if (this.game.busy || !current || !replay || !this.playable()) return false;
    const move = String(notation);
    const seat = replay.seat;
    const same = (m) => m != null && m.move === move && m.seat === seat;
    if (replay.line) {
      const { index, n } = replay.line;
      const line = current.view.notes?.lines?.[index];
      if (!line) return false;
      if (same(line.moves[n])) {
        await this.game.lineTo(index, n + 1);
        return true;
      }
      const later = line.moves.length - n;
      const words = later > 0 ? await this.tryWords(move, seat) : move;
      if (words == null) return false;
      if (later > 0 && !(await confirmDialog(
        `Replace the rest of this side line? Its ${later === 1 ? "last move goes" : `last ${later} moves go`} (with their comments), and ${words} is played after its move ${n}.`,
        { yes: "Replace them", no: "Keep the side line" }))) return false;
      return this.notesStep("extend", { line: index, move, seat, ...(later > 0 ? { keep: n } : {}) },
        { line: { index, n: n + 1 } }, later > 0 ? "The side line now goes this way. It is saved with the game." : null);
    }
    const ply = replay.ply;
    if (same(current.view.moves?.[ply])) {
      await this.game.replayTo(ply + 1);
      return true;
    }
    // a side line that starts with this move already: step into it
    const known = (current.view.notes?.lines ?? []).find((l) => l.ply === ply && same(l.moves[0]));
    if (known) {
      await this.game.lineTo(known.index, 1);
      return true;
    }
    const words = await this.tryWords(move, seat);
    if (words == null) return false;
    const choice = await this.choice(ply, words, seat);
    if (choice === "branch") return this.branchHere(ply, move, seat);
    if (choice === "cut") return this.takeBackAndPlay(ply, move, seat);
    return false;
  }

  /** `move` for `seat` at the position shown, in the moves list's words
   * (its notation where the engine words it only once the round is
   * revealed), once the engine has said it can be played there; null, with
   * the engine's reason shown, when it cannot. */
  async tryWords(move, seat) {
    try {
      const tried = await this.game.ask("play", { record: this.game.replay.record, move, ...(seat != null ? { seat } : {}) });
      const last = tried.view.moves?.at(-1);
      return last && last.move === move && last.seat === seat ? last.words : move;
    } catch (error) {
      this.game.explain(error.message, "error");
      return null;
    }
  }

  /** Ask what a move (`words`) at the position after `ply` moves is meant
   * to be: "branch", "cut" or null (cancelled). */
  choice(ply, words, seat) {
    const { view } = this.game.current;
    return sideLineDialog({
      at: ply + 1, move: words, mover: seatName(view, seat), next: moveInWords(view, ply),
      plies: this.game.plies(), why: this.whyNoTakeBack(seat),
    });
  }

  /** Why the later moves cannot be taken back from the position shown, in words; null if they can (as undo). */
  whyNoTakeBack(seat) {
    const { current, replay } = this.game;
    if (choosingOf(replay.seatView ?? replay.view)) {
      return "in a round of secret picks, moves are taken back one at a time with “Take back last move”, so that no pick is shown to the wrong player";
    }
    if (isComputer(current.view, seat)) return `that move is for ${seatName(current.view, seat)}, a computer player`;
    if (this.game.computers.restarting) return "the computer player is restarting";
    return null;
  }

  /** Start a side line at the position after `ply` moves with `move` (bridge
   * "branch"), and show it; the game itself is kept whole. True once drawn. */
  branchHere(ply, move, seat = null) {
    return this.notesStep("branch", { ply, move: String(move), ...(seat != null ? { seat } : {}) },
      (answer) => ({ line: { index: answer.line, n: 1 } }), "A side line starts here; it is saved with the game.");
  }

  /** Take back every move after the first `ply` (as undo: their comments and
   * side lines go too) and play `move` there. True once drawn. */
  takeBackAndPlay(ply, move, seat) {
    const { current } = this.game;
    return this.change(async () => {
      const later = this.game.plies() - ply;
      const at = await this.game.ask("at", { record: current.private_record, ply });
      const played = await this.game.ask("play", { record: at.private_record, move, ...(seat != null ? { seat } : {}) });
      this.game.follow(played.record);
      await this.game.show(played, { revealed: revealText(at.view, played.view), focus: "board", save: true });
      this.game.explain(later === 1 ? "The later move was taken back, and this one played instead." : `The ${later} later moves were taken back, and this one played instead.`, "info");
    });
  }

  /** Remove side line `index` (bridge "drop_line"), once the player said yes. */
  dropLine(index) {
    const { current, replay } = this.game;
    const line = current?.view.notes?.lines?.[index];
    if (!line || this.game.busy) return Promise.resolve(false);
    return (async () => {
      const count = line.moves.length === 1 ? "its one move" : `its ${line.moves.length} moves`;
      const ok = await confirmDialog(`Remove the side line instead of move ${line.ply + 1}, with ${count} and ${line.comments.length ? "their comments" : "nothing else"}? The game's own moves stay.`,
        { yes: "Remove it", no: "Keep it" });
      if (!ok) return false;
      // stay where the reader was: another side line (one further up the list moves up one), else the game's own position
      const shown = replay?.line;
      const target = shown && shown.index !== index ? { line: { index: shown.index - (shown.index > index ? 1 : 0), n: shown.n } }
        : shown ? { ply: line.ply } : replay ? { ply: replay.ply } : {};
      return this.notesStep("drop_line", { line: index }, { ...target, focus: `ply-${line.ply + 1}` }, "The side line was removed.");
    })();
  }

  /** Comments written from the analysis (analysis.js): all at once (bridge "annotate_many"). */
  commentsFromAnalysis(comments) {
    const { replay } = this.game;
    if (!comments.length) return Promise.resolve(false);
    const target = replay?.line ? { line: { index: replay.line.index, n: replay.line.n } } : replay ? { ply: replay.ply } : {};
    const said = comments.length === 1 ? "One comment was written from the analysis" : `${comments.length} comments were written from the analysis`;
    return this.notesStep("annotate_many", { comments }, target, `${said} and saved with the game.`);
  }

  /** One change of the game's notes by the engine (`call` with `args`): the
   * answer is saved like a move and shown at `target` ({ply} or {line}, or a
   * function of the answer giving one); `said` afterwards. A refusal is said
   * in the engine's words and nothing changes. True once drawn. */
  notesStep(call, args, target, said) {
    const { current } = this.game;
    return this.change(async () => {
      const answer = await this.game.ask(call, { record: current.private_record, ...args });
      this.game.analysis.carry(current.record, answer.record); // (the moves are the same: so is their analysis)
      this.game.follow(answer.record);
      await this.game.show(answer, { save: true, ...(typeof target === "function" ? target(answer) : target) });
      if (said) this.game.explain(said, "info");
    });
  }

  /** Run `work`, one change of the game saved like a move, as the game
   * view's busy step: not while another runs, nor when the page holds it
   * back (another tab moved on). A refusal is said in the engine's words and
   * nothing changes. True once `work` is done. */
  async change(work) {
    const { current } = this.game;
    if (this.game.busy || !current) return false;
    if (this.game.options.beforeMove?.(current) === false) return false;
    this.game.busy = true;
    this.game.setEngineState("busy");
    try {
      await work();
      return true;
    } catch (error) {
      this.game.explain(error.message, "error");
      this.game.setEngineState("ready");
      return false;
    } finally {
      this.game.busy = false;
    }
  }

  /** Write (or change, or remove) the comment of the position shown (the game view's step runs it). */
  async annotate() {
    const game = this.game;
    const { current, replay } = game;
    const line = replay?.line ?? null;
    const ply = line ? line.n : replay ? replay.ply : game.plies();
    const notes = current.view.notes;
    const old = line ? notes?.lines?.[line.index]?.comments.find((c) => c.n === ply)?.text
      : notes?.comments.find((c) => c.ply === ply)?.text;
    const where = line ? `after move ${line.n} of the side line instead of move ${line.from + 1}`
      : ply === 0 ? "before the first move" : `after move ${ply}`;
    const text = await commentDialog({ where, text: old ?? "", limit: notes?.comment_limit ?? 1000 });
    if (text == null || text === (old ?? "")) return;
    const annotated = await game.ask("annotate", { record: current.private_record, ply, text, ...(line ? { line: line.index } : {}) });
    game.analysis.carry(current.record, annotated.record);
    game.follow(annotated.record);
    // (still at the position that was commented)
    await game.show(annotated, { save: true, ply: replay && !line ? replay.ply : null });
    if (line) {
      const at = await game.ask("at", { record: annotated.private_record, ply: line.n, line: line.index });
      game.replay = { ...replay, view: at.view, comment: at.comment ?? null };
      await game.drawSoon();
    }
    game.explain(text ? "The comment was saved with the game." : "The comment was removed.", "info");
  }
}
