// Secret picks played by link (Nonconformity by correspondence): commit and
// reveal. The first to pick in a round seals the pick: the link carries
// SHA-256(salt + ":" + pick) (bridge call "commitment"), never the pick; the
// salt and pick stay in this device's localStorage. The second player picks in
// the open and sends the link back; the first player's device then checks the
// seal against the pick it kept and plays it, revealing the round.
//
// This module keeps the seals and draws the screens; app.js decides when.

import { h } from "./dom.js";
import { choosingOf, seatName } from "./handover.js";
import { readStored, writeStored } from "./saved.js";

const KEY = "quetgames.seals.v1";
const KEEP = 50;
const SALT_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** 24 characters from crypto.getRandomValues (144 bits). */
export function newSalt(length = 24) {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => SALT_CHARS[b & 63]).join("");
}

function seals() {
  const list = readStored(KEY, []);
  return Array.isArray(list) ? list.filter((s) => s && typeof s.record === "string" && typeof s.salt === "string") : [];
}

/** Keep a seal's secret on this device: {record (the round's secret-free
 * record), seat, salt, pick, hex}; false if storage refused it. */
export function keepSeal(seal) {
  const others = seals().filter((s) => !(s.record === seal.record && s.seat === seal.seat));
  return writeStored(KEY, [{ ...seal, at: Date.now() }, ...others].slice(0, KEEP));
}

/** The seal this device made for `seat` in the round of `record`, if any. */
export function findSeal(record, seat) {
  return seals().find((s) => s.record === record && s.seat === seat) ?? null;
}

function other(seat) {
  return seat === 0 ? 1 : 0;
}

/**
 * Which screen a sealed link needs, from the public view, the link's seal
 * and this device's kept seal (null if none):
 *   "sealed"   this device sealed it; the other player has not picked yet
 *   "second"   someone else sealed it; this device picks for the other seat, in the open
 *   "reveal"   both have picked and the secret is here: check and play it
 *   "waiting"  both have picked but the secret is not on this device
 *   "stale"    the seal does not fit the game (wrong seat, round over): a bad link
 */
export function sealPhase(view, seal, kept) {
  const choosing = view.is_over ? null : choosingOf(view);
  if (!choosing?.to_choose.includes(seal.seat) || view.seats.length !== 2) return "stale";
  const them = other(seal.seat);
  if (choosing.to_choose.includes(them)) return kept ? "sealed" : "second";
  if (choosing.chosen.includes(them)) return kept ? "reveal" : "waiting";
  return "stale";
}

/** Under the hot-seat "choose your number" screen: the way to play by link. */
export function linkOffer(view, onChoose) {
  return h("div", { class: "link-offer", role: "group", "aria-labelledby": "link-offer-title" },
    h("h3", { id: "link-offer-title" }, "Not at the same screen? Play by link"),
    h("p", {}, "Pick on your own device: the link you send carries a seal of your number (a fingerprint), never the number. ",
      "Your opponent picks and sends the link back; your device then checks the seal and reveals the round."),
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
      " Your pick will be sealed: the link you send shows a seal, not the number. It stays on this device until the round is revealed."));
}

/** Under that board: the way back to hot seat (after the board, so that the
 * board, not this, gets the focus first). */
export function oneScreenSwitch(onHotSeat) {
  return h("p", { class: "seal-switch" },
    h("button", { type: "button", class: "link-like", dataset: { key: "one-screen" }, onclick: onHotSeat }, "Play at one screen instead"));
}

/** Over the board while the second player picks, in the open. */
export function openPickBanner(view, seat, sealed) {
  const first = seatName(view, sealed);
  return h("div", { class: "seal-banner", dataset: { seat } },
    h("p", {}, h("strong", {}, `${first} has sealed a pick.`),
      ` ${seatName(view, seat)}, choose your number: it goes into the link in the open (${first}'s is already fixed and cannot change). `,
      `Then send the new link back to ${first}, whose device reveals the round.`));
}

/**
 * The screen instead of the board for a sealed link that this device cannot
 * act on: phase "sealed" (ours, waiting for the other player), "waiting"
 * (theirs, waiting for them to reveal) or "mismatch" (the seal is wrong).
 * share: the share controls to put under it.
 */
export function sealScreen(view, { phase, seal, kept = null, share = null, problem = "" }) {
  const sealer = seatName(view, seal.seat);
  const picker = seatName(view, other(seal.seat));
  const print = h("p", { class: "seal-print" }, "Seal: ", h("code", {}, `${seal.hex.slice(0, 12)}…`));
  let body;
  if (phase === "sealed") {
    body = [
      h("h3", { id: "seal-title", tabindex: "-1" }, `Your pick is sealed. Send this link to ${picker}.`),
      h("p", {}, `${picker} picks next and sends a link back; open it here, on this device, to reveal the round.`),
      kept ? h("p", { class: "seal-own" }, `Your sealed pick: ${kept.pick} (kept on this device only).`) : null,
      print, share,
    ];
  } else if (phase === "waiting") {
    body = [
      h("h3", { id: "seal-title", tabindex: "-1" }, `Send this link to ${sealer}.`),
      h("p", {}, `${picker} has picked. Only the player who sealed the pick can reveal it: ${sealer}, `,
        "on the device where the pick was sealed, by opening this link."),
      print, share,
    ];
  } else {
    body = [
      h("h3", { id: "seal-title", tabindex: "-1" }, "The sealed pick does not match"),
      h("p", { class: "seal-problem", role: "alert" }, problem ||
        "This link's sealed pick does not match the pick saved on this device: the link was changed, or the pick saved here is not the one sealed. Nothing was played."),
      h("p", {}, "Ask for the link again, exactly as it was sent."),
      print,
    ];
  }
  return h("div", { class: "seal-screen", dataset: { phase, seat: seal.seat }, role: "region", "aria-labelledby": "seal-title" }, body);
}
