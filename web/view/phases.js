// Turns and hand-over at one device, for games where several seats choose at
// once in secret (the view's `choosing`): which screen stands instead of the
// board (ask the next person to take the device, hand it over, or the seat's
// own board to pick on), and the person's pick screen when computer seats
// choose in the same round. The screens themselves are handover.js's; the
// sealed-link phases are sealing.js's. Reads only what the view says.
//
// It reaches the game view (gameview.js) through its public methods: ask,
// step, drawSoon, and its current game, hot-seat state and computers.

import { h } from "../ui/dom.js";
import { curtain, hotSeatFor, secretBanner } from "./handover.js";
import { computerPickBanner, isComputer } from "./computer.js";
import { keepSeats } from "../share/seats.js";

export class TurnPhases {
  /** game: the GameView this drives; links: its SealedLinks (sealing.js). */
  constructor(game, links) {
    this.game = game;
    this.links = links;
  }

  /** The secrecy screen with computer seats: none for a computer, and the one
   * person at the screen picks straight away once the computers' picks are held. */
  async withComputers() {
    const { game } = this;
    const { view, private_record: record, secret } = game.current;
    if (view.is_over) return null;
    if (game.computers.waiting(view, record).length) return null; // the computers choose first
    const humans = view.to_move.filter((seat) => !isComputer(view, seat));
    const computerPicked = game.computers.heldPicks(record).length > 0 || secret;
    if (humans.length === 1 && computerPicked) {
      // the person's view of the round with the computers' held picks in, so the
      // board, the seats and the status all say what the banner says: they have chosen
      let held = record;
      for (const [heldSeat, move] of game.computers.heldPicks(record)) held = (await game.ask("play", { record: held, move, seat: heldSeat })).private_record;
      const opened = await game.ask("open", { record: held, seat: humans[0] });
      const others = view.seats.map((_, seat) => seat).filter((seat) => seat !== humans[0] && isComputer(view, seat));
      return { phase: "pick", seat: humans[0], seatView: opened.view, computers: others, status: opened.view.status };
    }
    return game.hotseat && isComputer(view, game.hotseat.seat) ? null : game.hotseat;
  }

  /** The person asked for has the device: show their board to pick on. */
  showSeatBoard() {
    const { game } = this;
    return game.step(async () => {
      if (!game.hotseat) return;
      const opened = await game.ask("open", { record: game.current.private_record, seat: game.hotseat.seat });
      game.hotseat = { ...game.hotseat, phase: "pick", seatView: opened.view };
      game.reveal = "";
      await game.drawSoon("board");
    });
  }

  /** Back from picking by link to everyone at this screen. */
  playAtOneScreen() {
    const { game } = this;
    game.current.linkSeat = null;
    keepSeats(game.current.view.game_id, "all"); // (this device plays every seat again, share/seats.js)
    game.hotseat = hotSeatFor(game.current.view, game.current.secret);
    return game.drawSoon("board");
  }

  /** Put into `area` what stands for the board while a hot-seat phase is on:
   * a curtain (ask, hand over) or the seat's own board under its banner. */
  fill(area, view, hotseat, { reveal, board }) {
    if (hotseat.phase !== "pick") {
      area.classList.add("curtained");
      area.append(h("div", { class: "curtain-stack" },
        curtain(view, hotseat, { reveal, onShow: () => this.showSeatBoard() }),
        hotseat.phase === "ask" ? this.links.offer(view) : null));
      return;
    }
    // (against a computer the picks revealed are the answer line's, drawing.js: the banner keeps one height)
    const banner = hotseat.computers ? computerPickBanner(view, hotseat.seat, hotseat.computers)
      : this.links.banner(view, hotseat, reveal) ?? secretBanner(view, hotseat.seat);
    area.append(banner, board());
    const back = this.links.switchBack(hotseat, () => this.playAtOneScreen());
    if (back) area.append(back);
  }
}
