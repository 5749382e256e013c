// Links: the URL fragment is the game. Every game's fragment is its engine
// record; while a Nonconformity round waits on a pick sealed for play by link,
// the record is followed by the seal:
//
//     #<record>~~c<seat><sha256 hex>      e.g.  #q1.nc.l3_m100_s6x10..0QWw~0Qm8~~c0a6ecf1…4c34
//
// The record part is always one the engine reads on its own (the secret-free
// record of the round, plus the second player's open pick once made); "~~"
// never occurs inside a record (seat tokens are never empty), so the first
// "~~" splits the two. Everything stays in [A-Za-z0-9._~-]: fragment-safe.
//
// Nothing here trusts the fragment: it is size-checked before the engine sees
// it, and the engine's InvalidRecord message says what is wrong in words.

import { h } from "./dom.js";

export const MAX_LINK = 100_000; // characters; the engine's own record limit
const SEAL_MARK = "~~";
const SEAL = /^c([0-9])([0-9a-f]{64})$/;

/** {record, seal: {seat, hex} | null} from a fragment, or {error} in words. */
export function parseLink(fragment) {
  const text = String(fragment ?? "");
  if (text.length > MAX_LINK) {
    return { error: `that link is far too long to hold a game (${text.length.toLocaleString("en")} characters; a game never needs more than ${MAX_LINK.toLocaleString("en")})` };
  }
  const cut = text.indexOf(SEAL_MARK);
  if (cut < 0) return { record: text, seal: null };
  const match = SEAL.exec(text.slice(cut + SEAL_MARK.length));
  if (!match) return { error: "the sealed pick at the end of that link is damaged (it may have been cut short when it was copied)" };
  return { record: text.slice(0, cut), seal: { seat: Number(match[1]), hex: match[2] } };
}

/** The fragment for a record, with its seal when a sealed pick waits. */
export function formatLink(record, seal = null) {
  return seal ? `${record}${SEAL_MARK}c${seal.seat}${seal.hex}` : record;
}

export function sameSeal(a, b) {
  return (a == null && b == null) || (a != null && b != null && a.seat === b.seat && a.hex === b.hex);
}

/** A fragment from what a person pasted: a whole link, "#…" or a bare record. */
export function fragmentFromInput(text) {
  let value = String(text ?? "").trim();
  const hash = value.indexOf("#");
  if (hash >= 0) value = value.slice(hash + 1);
  try {
    value = decodeURIComponent(value);
  } catch {
    // keep it as typed; the engine says what is wrong with it
  }
  return value.replace(/\s+/g, "");
}

/** The error view of a link that does not open a game: what is wrong in
 * words, and the ways on (the list of games below it, a saved game). */
export function linkErrorPanel(reason, { resume = null } = {}) {
  return h("section", { class: "link-error", "aria-labelledby": "link-error-title" },
    h("h2", { id: "link-error-title" }, "This link does not open a game"),
    h("p", { id: "message", class: "message", role: "alert", dataset: { kind: "error" } },
      `That link does not hold a game we can open: ${reason}.`),
    h("p", {}, "A link may get cut short or changed when it is copied; ask for it again, or copy the whole address. ",
      "Your saved games are untouched."),
    h("p", { class: "link-error-ways" },
      resume ? h("a", { class: "button", href: `#${resume.link}` }, `Resume your game of ${resume.name}`) : null,
      h("a", { class: resume ? "button secondary" : "button", href: "#" }, "See all the games")));
}
