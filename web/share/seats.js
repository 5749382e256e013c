// The seats this device plays in a game, kept beside the saved game by its
// game id, on this device only: nothing of it travels in the link, so two
// phones passing one game back and forth share the same link (docs/SAVES.md).
//
//  - The device that sets a game up plays the seats chosen there: every seat
//    for a game at one screen (pass and play, as always), one seat for a game
//    played by link.
//  - A device that opens a link and plays a seat's move plays that seat from
//    then on.
//  - Playing another seat's move here too is asked first (view/handoff.js);
//    yes makes it a game at one screen.
//
// A game this device knows nothing of (a link opened, no move played yet) has
// no entry: every seat may still be this device's.

import { readStored, writeStored } from "./saved.js";

const KEY = "quetgames.seats.v1"; // {<game id>: {seats: [seat numbers] | "all", at, ended (this device ended it), sent: [seals whose link left here]}}
const KEEP = 200; // games remembered; the oldest go first

function all() {
  const map = readStored(KEY, {});
  return map && typeof map === "object" && !Array.isArray(map) ? map : {};
}

const isSeats = (seats) => seats === "all" || (Array.isArray(seats) && seats.length > 0 && seats.every((s) => Number.isInteger(s) && s >= 0 && s < 64));

/** The seats this device plays in game `gameId`: "all", a list of seat numbers, or null (not known). */
export function seatsHere(gameId) {
  if (typeof gameId !== "string" || gameId === "") return null;
  const kept = all()[gameId];
  return kept && isSeats(kept.seats) ? kept.seats : null;
}

/** Keep the seats this device plays in game `gameId` ("all" or a list); false if storage refused. */
export function keepSeats(gameId, seats) {
  if (typeof gameId !== "string" || gameId === "" || !isSeats(seats)) return false;
  const map = all();
  map[gameId] = { seats: seats === "all" ? "all" : [...new Set(seats)].sort((a, b) => a - b), at: Date.now() };
  const ids = Object.keys(map).sort((a, b) => (map[b].at ?? 0) - (map[a].at ?? 0));
  for (const id of ids.slice(KEEP)) delete map[id];
  return writeStored(KEY, map);
}

/** This device played the move that ended game `gameId` (its players elsewhere have yet to see the result). */
export function markEnded(gameId) {
  const map = all();
  if (!map[gameId] || map[gameId].ended) return;
  map[gameId] = { ...map[gameId], ended: true };
  writeStored(KEY, map);
}

/** Whether this device played the move that ended game `gameId`. */
export function endedHere(gameId) {
  return all()[gameId]?.ended === true;
}

/** The link carrying sealed pick `commitment` of game `gameId` was copied or
 * shared from this device: the pick is out of its hands, and can no longer be
 * taken back here, after a reload too. (Nothing is kept for a game whose seats
 * are not known here.) */
export function markSent(gameId, commitment) {
  const map = all();
  if (!map[gameId] || typeof commitment !== "string") return;
  const sent = Array.isArray(map[gameId].sent) ? map[gameId].sent.filter((c) => c !== commitment) : [];
  map[gameId] = { ...map[gameId], sent: [...sent, commitment].slice(-8) };
  writeStored(KEY, map);
}

/** Whether the link carrying sealed pick `commitment` of game `gameId` was sent from this device. */
export function sentHere(gameId, commitment) {
  const sent = all()[gameId]?.sent;
  return Array.isArray(sent) && sent.includes(commitment);
}

/** Whether this device plays `seat` in game `gameId`: true, false, or null when it does not know yet. */
export function playsSeat(gameId, seat) {
  const seats = seatsHere(gameId);
  if (seats == null) return null;
  return seats === "all" || seats.includes(seat);
}

/** The seat numbers this device plays in a game of `count` seats, for the engine's `compare`; null if not known. */
export function seatNumbers(gameId, count) {
  const seats = seatsHere(gameId);
  if (seats == null) return null;
  return seats === "all" ? Array.from({ length: count }, (_, i) => i) : seats;
}
