// Secret joint moves played by link: sealed picks that travel in the record
// (the engine's sealing.py; the view's `sealing` says who has sealed, who may
// seal or reveal, and the forfeit move). The first to pick in a round seals
// the pick with the bridge's `seal`: the record (and so the link) gets the
// commitment, SHA-256(salt + ":" + pick), never the pick; the engine hands
// back `keep` ({seat, round, pick, salt, commitment}), which only this device
// stores. The others pick in the open; the sealer's device then plays the
// reveal (`reveal`: the pick with its salt), which goes into the record too.
// Every device's engine checks every reveal against its seal when it opens a
// link, so nobody needs to trust another's device. A seal whose secret is lost
// can only be given up (the view's `sealing.forfeit` move), which the record
// shows.
//
// This module keeps the secrets and draws the screens from the view alone
// (no board of any game); gameview.js decides when.

import { h, listInWords, seatName } from "../ui/dom.js";
import { choosingOf } from "./handover.js";
import { readStored, writeStored } from "../share/saved.js";

const KEY = "quetgames.seals.v2";
const KEEP = 50;
const SALT_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"; // the engine's salt alphabet
export const SALT_LENGTH = 20;

/** 20 characters of [A-Za-z0-9] from crypto.getRandomValues (rejection
 * sampling, so every character is equally likely: about 119 bits). */
export function newSalt(length = SALT_LENGTH) {
  const out = [];
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < 248 && out.length < length) out.push(SALT_CHARS[b % 62]);
    }
  }
  return out.join("");
}

function keeps() {
  const list = readStored(KEY, []);
  return Array.isArray(list)
    ? list.filter((k) => k && typeof k.commitment === "string" && typeof k.salt === "string" && typeof k.pick === "string" && Number.isInteger(k.seat))
    : [];
}

/** Keep a seal's secret on this device: the bridge's `keep`; false if
 * storage refused it. (A commitment is salted with 119 random bits, so it
 * names its seal in every game: no record is read to file it.) */
export function storeKeep(keep) {
  const entry = { ...keep, at: Date.now() };
  const others = keeps().filter((k) => k.commitment !== keep.commitment);
  return writeStored(KEY, [entry, ...others].slice(0, KEEP));
}

/** This device's secret for `seal` ({round, seat, commitment}), or null. */
export function findKeep(seal) {
  return keeps().find((k) => k.commitment === seal.commitment && k.seat === seal.seat && k.round === seal.round) ?? null;
}

/** A sealed pick the record gives up although this device holds its secret
 * (so its sealer did not give it up here): {round, seat, …} or null. The
 * engine cannot tell who played the forfeit; this device can. */
export function forfeitedHere(view) {
  return (view?.sealing?.given_up ?? []).find((s) => findKeep(s)) ?? null;
}

// -- a pick made in secret at one screen ---------------------------------------------
// The saved game's link is public; the record with a hot-seat pick still
// secret (the next person has yet to choose) is kept here, by saved game.

const HOT_SEAT_KEY = "quetgames.hotseat.v1";

/** Keep `record` (holding a secret hot-seat pick) for saved game `saveId`; null forgets it. */
export function keepHotSeat(saveId, record) {
  const all = readStored(HOT_SEAT_KEY, {});
  const map = all && typeof all === "object" && !Array.isArray(all) ? all : {};
  if (record == null && !(saveId in map)) return;
  if (record == null) delete map[saveId];
  else map[saveId] = record;
  const ids = Object.keys(map);
  for (const id of ids.slice(0, Math.max(0, ids.length - KEEP))) delete map[id];
  writeStored(HOT_SEAT_KEY, map);
}

/** The record with a secret hot-seat pick kept for saved game `saveId`, or null. */
export function hotSeatRecord(saveId) {
  const map = readStored(HOT_SEAT_KEY, {});
  const record = map && typeof map === "object" ? map[saveId] : null;
  return typeof record === "string" ? record : null;
}

/** The sealed pick that waits in this round ({round, seat, commitment,
 * forfeit_words}), or null. */
export function openSeal(view) {
  return view?.sealing?.open?.[0] ?? null;
}

/** The seats other than the sealer's. */
function others(view, seal) {
  return view.seats.map((_, seat) => seat).filter((seat) => seat !== seal.seat);
}

/** The seats other than the sealer's that have still to pick this round. */
export function stillToPick(view, seal) {
  const chosen = choosingOf(view)?.chosen ?? [];
  return others(view, seal).filter((seat) => view.to_move.includes(seat) && !chosen.includes(seat));
}

/** The names of the seats other than the sealer's, in words ("Bob", "Bob and Cy"). */
export function pickers(view, seal) {
  return listInWords(others(view, seal).map((seat) => seatName(view, seat)));
}

/** What the view calls a sealed move ("pick"). */
export function sealedNoun(view) {
  return view?.sealing?.noun ?? "pick";
}

/**
 * What a game with an open seal needs on this device, from the public view,
 * this device's keep (or null) and the seat this device plays by link:
 *   "sealed"   this device sealed it; the other player has not picked yet
 *   "second"   someone else sealed it; this device picks for the other seat, in the open
 *   "reveal"   both have picked and the secret is here: reveal it
 *   "waiting"  both have picked; the sealer reveals on their own device
 *   "lost"     this device played the sealing seat but no longer has the secret
 */
export function sealPhase(view, seal, kept, linkSeat) {
  const theyPick = stillToPick(view, seal).length > 0;
  if (kept) return theyPick ? "sealed" : "reveal";
  if (linkSeat === seal.seat) return "lost";
  return theyPick ? "second" : "waiting";
}

/** Under the hot-seat "choose your number" screen: the way to play by link. */
export function linkOffer(view, onChoose) {
  return h("div", { class: "link-offer", role: "group", "aria-labelledby": "link-offer-title" },
    h("h3", { id: "link-offer-title" }, "Not at the same screen? Play by link"),
    h("p", {}, "Pick on your own device: the link you send carries a seal of your number (a fingerprint), never the number. ",
      "Your opponent picks and sends the link back; your device then reveals your number, and both devices check it against the seal."),
    h("div", { class: "link-offer-buttons" },
      view.to_move.map((seat) => h("button", {
        type: "button", class: "secondary seal-as", dataset: { seat, key: `seal-as-${seat}` }, onclick: () => onChoose(seat),
      }, `I am ${seatName(view, seat)}: pick and seal`))));
}

/** Over the board while the first player picks by link. */
export function sealBanner(view, seat, { reveal = "" } = {}) {
  return h("div", { class: "seal-banner", dataset: { seat } },
    reveal ? h("p", { class: "reveal", role: "status" }, reveal) : null,
    h("p", {}, h("strong", {}, `${seatName(view, seat)}, playing by link.`),
      " Your pick will be sealed: the link you send shows a seal, not the number. The secret that opens the seal stays on this device until you reveal the round."));
}

/** Under that board: the way back to hot seat (after the board, so that the
 * board, not this, gets the focus first). */
export function oneScreenSwitch(onHotSeat) {
  return h("p", { class: "seal-switch" },
    h("button", { type: "button", class: "link-like", dataset: { key: "one-screen" }, onclick: onHotSeat }, "Play at one screen instead"));
}

/** The seal of this round in words, from the view (data-seal: its state). */
export function sealState(view, seal) {
  const sealer = seatName(view, seal.seat);
  return h("p", { class: "seal-state", dataset: { seal: "open", round: seal.round, seat: seal.seat } },
    `Round ${seal.round}: ${sealer}'s pick is sealed in the game's record (seal `, h("code", {}, `${seal.commitment.slice(0, 12)}…`),
    "). It can only be revealed as the number sealed, or given up.");
}

/** Over the board while the second player picks, in the open. */
export function openPickBanner(view, seat, seal, { reveal = "" } = {}) {
  const first = seatName(view, seal.seat);
  return h("div", { class: "seal-banner", dataset: { seat } },
    reveal ? h("p", { class: "reveal", role: "status" }, reveal) : null,
    h("p", {}, h("strong", {}, `${first} has sealed a pick.`),
      ` ${seatName(view, seat)}, choose your number: it goes into the link in the open (${first}'s is already fixed and cannot change: `,
      "every device checks the reveal against the seal). ",
      `Then send the new link back to ${first}, whose device reveals the round.`),
    sealState(view, seal));
}

/**
 * The screen instead of the board for a sealed round that this device cannot
 * play on: phase "sealed" (ours, waiting for the other player), "waiting"
 * (theirs, waiting for them to reveal) or "lost" (ours, but the secret is not
 * on this device). share: the share controls to put under it;
 * onForfeit: give up the sealed pick; onLost: "I sealed it and lost it";
 * onTakeBack: take the sealed pick back (its link not yet sent).
 */
export function sealScreen(view, { phase, seal, kept = null, share = null, onForfeit = null, onLost = null, onTakeBack = null }) {
  const sealer = seatName(view, seal.seat);
  const picker = pickers(view, seal);
  const state = sealState(view, seal);
  let body;
  if (phase === "sealed") {
    body = [
      h("h2", { id: "seal-title", tabindex: "-1" }, `Your pick is sealed. Send this link to ${picker}.`),
      h("p", {}, `${picker} picks next and sends a link back; open it here, on this device, to reveal the round.`),
      kept ? h("p", { class: "seal-own" }, `Your sealed pick: ${kept.pick} (its secret is kept on this device only).`) : null,
      state, share,
      // (until the link is sent: once it is, the seal is out of this device's hands)
      onTakeBack ? h("p", { class: "seal-take-back" }, "Not sent yet? ",
        h("button", { type: "button", class: "link-like", dataset: { key: "take-back-seal" }, onclick: onTakeBack }, "Take back my pick")) : null,
    ];
  } else if (phase === "waiting") {
    body = [
      h("h2", { id: "seal-title", tabindex: "-1" }, `Waiting for ${sealer} to reveal. Send this link to ${sealer}.`),
      // (the engine's words for the last move name a pick made in the open)
      h("p", {}, `${view.last_move ? `${view.last_move}.` : `${picker} picked.`} Only ${sealer} can reveal the sealed pick, `,
        "on the device where it was sealed, by opening this link. Every device checks the reveal against the seal."),
      state, share,
      onLost ? h("p", { class: "seal-lost-offer" }, `${sealer}, is this your sealed pick and its secret is gone from your device? `,
        h("button", { type: "button", class: "link-like", dataset: { key: "seal-lost" }, onclick: onLost }, "My sealed pick is lost")) : null,
    ];
  } else {
    const theyPicked = stillToPick(view, seal).length === 0;
    body = [
      h("h2", { id: "seal-title", tabindex: "-1" }, `${sealer}'s sealed pick cannot be revealed from this device`),
      h("p", { class: "seal-problem", role: "alert", dataset: { seal: "lost" } },
        `The secret that opens ${sealer}'s seal for round ${seal.round} is not on this device (it was sealed on another device, or this browser's storage was cleared). `,
        "Nobody can reveal the pick without it, and no other number can take its place."),
      state,
      theyPicked
        ? h("p", {}, `The way on: give up this sealed pick. By the rules, if it is given up, ${seal.forfeit_words}. `,
          `The record shows it was given up, so ${picker}'s device can check it.`)
        : h("p", {}, `${picker} has not picked yet: send them this link. Once they have picked, the sealed pick can be revealed on the device that holds its secret, or given up here (by the rules, if it is given up, ${seal.forfeit_words}).`),
      theyPicked && onForfeit ? h("p", {}, h("button", { type: "button", class: "danger forfeit", dataset: { key: "forfeit" }, onclick: onForfeit }, "Give up this sealed pick")) : null,
      share,
    ];
  }
  return h("div", { class: "seal-screen", dataset: { phase, seat: seal.seat }, role: "region", "aria-labelledby": "seal-title" }, body);
}
