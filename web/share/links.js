// Links: the URL fragment is the game, and it is always the game's public
// engine record. A Nonconformity pick sealed for play by link travels in the
// record itself (its commitment, later its reveal: see commit.js), so a link
// holds nothing secret and every device's engine checks every reveal in it.
//
// Links made before that carried the seal after the record:
// `#<record>~~c<seat><sha256 hex>`, checked on the sealer's device only. Such
// a link is refused in words: continuing it would mean trusting an unchecked
// seal. ("~~" never occurs inside a record, so it marks them.)
//
// Nothing here trusts the fragment: it is size-checked before the engine sees
// it, and the engine's InvalidRecord message says what is wrong in words. A
// link that opens a game this device already holds is checked to continue it
// move for move (checkAgainstSaved() below, by the engine's `compare`)
// before anything saved is touched.

import { h } from "../ui/dom.js";
import { splitFragment } from "./poster.js";

export const MAX_LINK = 100_000; // characters; the engine's own record limit
const OLD_SEAL_MARK = "~~";

export const OLD_SEAL = "this link was made by an older version of Quet Games, which kept a sealed pick outside the game's record where only one device could check it, so it cannot be continued safely. Start a new game: sealed picks now travel in the record and both devices check them";

/** {record, poster} from a fragment (poster: the payload of the position it
 * shows, drawn before the engine is up, or null: still.js), or {error} in words. */
export function parseLink(fragment) {
  const text = String(fragment ?? "");
  if (text.length > MAX_LINK) {
    return { error: `that link is far too long to hold a game (${text.length.toLocaleString("en")} characters; a game never needs more than ${MAX_LINK.toLocaleString("en")})` };
  }
  if (text.includes(OLD_SEAL_MARK)) return { error: OLD_SEAL, old: true };
  return splitFragment(text);
}

/**
 * How the link's record stands to the games saved on this device, as the
 * engine's `compare` judges it (the page splits no record): the saved game
 * the link is, or continues ({saved}: the longest such), else the saved game
 * it rewrites ({changed: {entry, message, ply, where}}: the one it follows
 * longest), else the saved game it is an earlier point of ({behind: entry}:
 * an old link, or Back, of a game that went on here), else none of them
 * (another game: it opens beside the saved ones and overwrites nothing). What makes two records the
 * same game is the engine's rule (py/quetgames/compare.py): the same start and
 * a move both share that was a choice, or a sealed pick. ask(call, args): the
 * engine; entries: the saved games of the link's game; seatsOf(entry): the
 * seats this device plays in that game, if it knows them (share/seats.js): a
 * link under another id that rewrites one of their moves is a rewrite too.
 */
export async function checkAgainstSaved(ask, record, entries, seatsOf = () => null) {
  let saved = null;
  let savedRank = -1;
  let changed = null;
  let behind = null;
  // the same record is the same game: no need to ask (the usual case, a reload)
  const same = entries.find((entry) => entry.record === record);
  if (same) return { saved: same, changed: null, behind: null };
  for (const entry of entries) {
    let answer;
    try {
      const seats = seatsOf(entry);
      answer = await ask("compare", { mine: entry.record, theirs: record, ...(seats ? { seats } : {}) });
    } catch {
      continue; // a saved record the engine no longer opens: nothing to compare with
    }
    if (answer.relation === "same" || answer.relation === "ahead") {
      const rank = answer.relation === "same" ? Infinity : entry.moves;
      if (rank > savedRank) [saved, savedRank] = [entry, rank];
    } else if (answer.relation === "changed" && (!changed || answer.ply > changed.ply)) {
      changed = { entry, message: answer.message, ply: answer.ply, where: answer.where, seat: answer.seat, unchecked: answer.unchecked === true };
    } else if (answer.relation === "behind" && (!behind || entry.moves > behind.moves)) {
      behind = entry;
    }
  }
  if (saved) return { saved, changed: null, behind: null };
  return changed ? { saved: null, changed, behind: null } : { saved: null, changed: null, behind };
}

/**
 * A link that cannot be taken as it is: a reveal that fails its seal (kind
 * "seal", refused by the engine) or a link that rewrites the game this device
 * holds (kind "changed"; "unchecked" when what it changes is another seat's
 * sealed pick not yet revealed here, so the copy held here was never checked), or a move made in a tab after another tab moved the
 * same game on (kind "tab", app.js). The element carries data-conflict = kind. ways: the
 * buttons to offer ({label, key, onClick, primary}).
 */
export function conflictPanel(kind, reason, ways = []) {
  return h("section", { class: "link-error link-conflict", dataset: { conflict: kind }, "aria-labelledby": "link-error-title" },
    h("h2", { id: "link-error-title" }, kind === "seal" ? "This link's sealed pick does not match its seal"
      : kind === "tab" ? "This game moved on in another tab"
      : kind === "unchecked" ? "This link carries another seal than the copy on this device" : "This link changes a game you are playing"),
    h("p", { id: "message", class: "message", role: "alert", dataset: { kind: "error" } },
      kind === "tab" ? `${reason.charAt(0).toUpperCase()}${reason.slice(1)}. Your move here was not saved over the other tab's.`
      : kind === "unchecked"
        ? `${reason.charAt(0).toUpperCase()}${reason.slice(1)}. A seal is checked only when its pick is revealed, and that one has not been yet, so the copy on this device was never checked either: it is not kept as your game. Open this link in its place; the reveal will show which seal was sent.`
      : kind === "seal"
        ? `The game in that link was not opened: ${reason}. A sealed pick can only be revealed as the number that was sealed; someone changed the link.`
        : `${reason.charAt(0).toUpperCase()}${reason.slice(1)}. The game in that link was not opened: someone changed the link, or it is another game from the same start.`),
    h("p", {}, kind === "seal" ? "Nothing was played, and your saved games are untouched. Ask for the link again, exactly as it was sent."
      : "Nothing saved is overwritten unless you choose so."),
    h("p", { class: "link-error-ways" },
      ways.map((w) => h(w.href ? "a" : "button", {
        ...(w.href ? { href: w.href } : { type: "button", onclick: w.onClick }),
        class: w.primary ? "button" : "button secondary", dataset: { key: w.key },
      }, w.label)),
      ways.length ? null : h("a", { class: "button", href: "#" }, "See all the games")));
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
