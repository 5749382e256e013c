// Hot-seat secrecy for games where several seats choose at once (a joint move,
// view.choosing):
// the screens shown instead of the board while one person must look away, and
// the reveal of a round in words. They show names only, never a pending pick.

import { h, listInWords, seatName } from "../ui/dom.js";

/**
 * The joint move open now, or null: {chosen: seats that have chosen (in
 * secret when `secret`), to_choose: seats still to choose, secret}, as the
 * engine says in every view (view.choosing).
 */
export function choosingOf(view) {
  return view?.choosing ?? null;
}

/** A choice is made in secret and not yet revealed. */
export function pendingSecret(view) {
  const choosing = choosingOf(view);
  return !view.is_over && !!choosing?.secret && choosing.chosen.length > 0;
}

/** Several seats choose at once and all of them are people at this screen. */
export function simultaneous(view) {
  const choosing = choosingOf(view);
  return !view.is_over && choosing != null && choosing.to_choose.length > 1 &&
    choosing.to_choose.every((seat) => (view.seats?.[seat]?.kind ?? "human") === "human");
}

/**
 * Which secrecy screen a game needs now, or null for ordinary play:
 *  ask:      a new round; the first seat to choose is asked to take the device
 *  handover: one seat has chosen in secret; pass the device to the next
 */
export function hotSeatFor(view, secret) {
  if (view.is_over) return null;
  if (simultaneous(view)) return { phase: "ask", seat: choosingOf(view).to_choose[0] };
  if (secret && view.to_move.length === 1) return { phase: "handover", seat: view.to_move[0] };
  return null;
}

/** The engine's words for a joint move that has just been revealed (every
 * seat's choice and what it scored), or "" when `after` revealed none: a
 * joint move was open in `before` and the public moves grew (a choice still
 * secret is never in the public moves). */
export function revealText(before, after) {
  if (!choosingOf(before) || !before || after.history.length <= before.history.length) return "";
  return after.last_move ? `${after.last_move}.` : "";
}

function others(view, seat) {
  return listInWords(view.seats.map((_, i) => i).filter((i) => i !== seat).map((i) => seatName(view, i)));
}

/** The screen between turns: who takes the device, who looks away, one button. */
export function curtain(view, { phase, seat }, { reveal, onShow }) {
  const name = seatName(view, seat);
  const show = h("button", { type: "button", class: "show-board", dataset: { key: "show-board" }, onclick: onShow },
    `I am ${name}: show my choices`);
  const chosen = choosingOf(view)?.chosen ?? [];
  const body = phase === "ask"
    ? [h("h2", { id: "curtain-title", tabindex: "-1" }, `${name}, choose your number`),
      h("p", { class: "look-away" }, `(${others(view, seat)}, look away)`)]
    : [h("h2", { id: "curtain-title", tabindex: "-1" }, `Pass the device to ${name}`),
      h("p", { class: "look-away" },
        `${listInWords(view.seats.map((_, i) => i).filter((i) => i !== seat && chosen.includes(i)).map((i) => seatName(view, i))) || "The other player"} has chosen. `,
        `${name}, press the button when only you can see the screen.`)];
  return h("div", { class: "curtain", dataset: { phase, seat }, "aria-labelledby": "curtain-title", role: "region" },
    reveal ? h("p", { class: "reveal", role: "status" }, reveal) : null,
    body,
    show);
}

/** The line over a seat's secret board. */
export function secretBanner(view, seat) {
  return h("p", { class: "secret-banner", dataset: { seat } },
    h("strong", {}, `${seatName(view, seat)}'s secret choice.`), ` ${others(view, seat)}, look away.`);
}
