// Two phones, one game by link: which seats this device plays (kept with the
// saved game by share/seats.js), and what that changes on screen.
//  - After this device's move, when the seats to move are played elsewhere,
//    the line over the board says whose turn it is and to send them the link,
//    with Copy link / Share beside it, where the eye is (the bar's place).
//  - A move for a seat this device does not play is asked first ("Play Ben's
//    move on this phone too?"); yes makes it a game at one screen.
//  - A device that does not know its seats yet (a link opened, no move
//    played) plays the seat of its first move from then on, once the link
//    held another seat's move.
// It reads only the view (to_move, seats, moves, is_over), never a board.

import { confirmDialog } from "../ui/dialog.js";
import { h, listInWords, seatName } from "../ui/dom.js";
import { endedHere, keepSeats, seatsHere } from "../share/seats.js";
import { addressOf, shareControls } from "../share/share.js";
import { linkWithPoster } from "../share/still.js";

/** The seat a person's move is for now: the acting seat, else the one seat to move. */
export function moverOf(view, actingSeat) {
  return actingSeat ?? (view.to_move.length === 1 ? view.to_move[0] : null);
}

/** Before a person's move for `seat`: resolves true to play it (asked first
 * when this device plays other seats of this game). */
export async function mayPlay(view, seat) {
  const seats = seatsHere(view.game_id);
  if (!Array.isArray(seats) || seat == null || seats.includes(seat)) return true;
  const name = seatName(view, seat);
  const mine = listInWords(seats.map((s) => seatName(view, s)));
  const yes = await confirmDialog(
    `Play ${name}'s move on this phone too? This phone plays ${mine}; ${name} plays on their own device by link. ` +
    `Yes makes this a game at one screen: this phone plays every seat from now on.`,
    { yes: `Play ${name}'s move here`, no: `No, ${name} plays it` });
  if (yes) keepSeats(view.game_id, "all");
  return yes;
}

/** After this device played `seat`'s move in a game that stood at `before`:
 * a device that did not know its seats plays that one, once the link it
 * opened held another seat's move (the game came from someone else's device;
 * a game opened before anyone moved stays open to every seat until then). */
export function playedHere(before, seat) {
  if (seat == null || !before?.game_id || seatsHere(before.game_id) != null) return;
  const others = (before.moves ?? []).some((move) => move.seat !== seat) || (before.sealing?.open ?? []).some((s) => s.seat !== seat);
  if (others) keepSeats(before.game_id, [seat]);
}

/** This device's seats as a list when it plays by link (some seats, not all), else null. */
function linkSeats(view) {
  const seats = seatsHere(view?.game_id);
  return Array.isArray(seats) && seats.length < view.seats.length ? seats : null;
}

/** What the hand-off says now, or null: {seats, words, advice} while the
 * seats to move are played elsewhere, or once this device ended the game
 * (its last move, or the reveal of its last round: the other player sees the
 * result from its link). */
export function handOff(view) {
  const seats = linkSeats(view);
  if (!seats) return null;
  const others = view.seats.map((_, i) => i).filter((i) => !seats.includes(i));
  const names = (list) => listInWords(list.map((i) => seatName(view, i)));
  if (view.is_over) {
    if (!endedHere(view.game_id)) return null;
    const who = names(others);
    return { seats: others, words: `The game is over: send ${who} the last link, so that ${who} sees the result.`, advice: `The end of our game: open it to see the result.` };
  }
  const waiting = view.to_move.filter((i) => !seats.includes(i));
  if (waiting.length === 0 || waiting.length < view.to_move.length) return null;
  const who = names(waiting);
  const turn = waiting.length === 1 ? `${who}'s turn` : `${who} to move`;
  return { seats: waiting, words: `${turn}: send ${who} this link.`, advice: `${turn}: your move in our game.` };
}

/** The hand-off line with the link's Copy / Share, in the bar's place over the
 * board; `revealed`: the picks this move revealed, said under its words (the
 * answer line has no bar to cover here: it would hang over the board). */
export function handOffLine(view, said, record, title, revealed = "") {
  return h("div", { class: "handoff", id: "handoff", role: "status", dataset: { seats: said.seats.join(" ") } },
    h("p", { class: "handoff-words" }, h("strong", {}, said.words)),
    // (seen here; heard from #note, as every reveal is: not twice)
    revealed ? h("p", { class: "handoff-reveal", "aria-hidden": "true" }, revealed) : null,
    // (the link carries the position's poster once made: the other phone draws the board before its engine, share/still.js)
    shareControls(addressOf(record), { id: "handoff-link", title, text: said.advice, record, label: "Link to send",
      poster: () => linkWithPoster(record, view).then(addressOf) }));
}

/** The hand-off line, just drawn, brought on screen where it is not (a link
 * opened on a phone scrolled down to its last pick, whose reveal ends the
 * game): it is what this phone does next, and the board under it waits for
 * the other phone, so nothing is moved under a finger that still has a move
 * to make. The least scroll; style.css leaves the status line's room above it. */
export function handOffInView(line) {
  if (!(line instanceof Element)) return;
  const r = line.getBoundingClientRect();
  const under = parseFloat(getComputedStyle(line).scrollMarginTop) || 0; // (the status line's room, stuck to the top)
  if (r.top < under || r.bottom > innerHeight) line.scrollIntoView({ block: "nearest" });
}
