// The regions of the game view: named places in its skeleton (status, seats,
// board, moves, controls, …), each rebuilt only when its key, a JSON slice of
// what it is drawn from, changed. The builders here each draw one region from
// the game view's position shown (position.js) and its view, and know nothing
// of the other regions; drawing.js decides which are brought up to date when.

import { h, seatName } from "../ui/dom.js";
import { hasComputer, kindWords } from "./computer.js";
import { moveInWords } from "./history.js";

/** Named places in the page, each an element or (while empty) a comment; a
 * region is rebuilt only when its key changed. */
export class Regions {
  #slots = new Map(); // name -> {node, key}

  /** The placeholder of a new region, to put into the skeleton. */
  slot(name) {
    const node = document.createComment(name);
    this.#slots.set(name, { node, key: undefined });
    return node;
  }

  /** Rebuild region `name` with build() if `key` differs from the last; true if it did. */
  update(name, key, build) {
    const slot = this.#slots.get(name);
    if (slot.key === key) return false;
    const started = globalThis.quetTimings ? performance.now() : 0;
    const node = build() ?? document.createComment(name);
    // (a region drawn again in place, as a kept board is, stays where it is)
    if (node !== slot.node) slot.node.replaceWith(node);
    if (started) performance.measure(`region ${name}`, { start: started }); // (tools/bench.py: where the drawing goes)
    slot.node = node;
    slot.key = key;
    return true;
  }

  node(name) {
    return this.#slots.get(name)?.node ?? null;
  }
}

/** The board drawn as a picture: nothing in it plays. */
function inert(drawn, area, reason) {
  for (const el of drawn.querySelectorAll("[data-move], [data-try]")) {
    el.removeAttribute("data-move");
    el.removeAttribute("data-try");
  }
  area.inert = true;
  area.classList.add(reason);
  area.append(drawn);
}

// -- the board ---------------------------------------------------------------------------

/** Everything the board region is drawn from, as one string. */
export function boardKey(game, blocked) {
  const { current, replay, hotseat, reveal } = game;
  const replaying = replay != null || game.options.readOnly;
  const drawn = replaying ? (replay ?? current).view
    : hotseat?.phase === "pick" ? hotseat.seatView
    : hotseat ? null : current.view;
  const screen = hotseat ? { ...hotseat, seatView: undefined } : null;
  const sealed = hotseat?.phase === "link" ? [current.seal, current.record] : null;
  return JSON.stringify([replaying, blocked, screen, hotseat ? reveal : "", sealed, drawn, hotseat?.phase === "pick" || !hotseat ? null : current.view, game.bestHere(), game.sideLines.key()]);
}

/** The board region: {area, live}, live being {area, board, renderer} when it
 * shows the game as it stands (`kept`, the last such, is drawn into again). */
export function boardArea(game, blocked, kept) {
  const { current, replay, hotseat, reveal, renderer } = game;
  const view = current.view;
  // a link's game before the engine, with no position known yet (still.js):
  // the board's room, kept for it, says so
  if (current.still && !view.board) {
    return { area: h("div", { id: "board", class: "board still-box", dataset: { game: view.game } },
      h("p", { class: "still-words" }, view.wait ?? "The position is on its way: the game engine is loading.")), live: null };
  }
  const live = !game.sideLines.playable() && !replay && !game.options.readOnly && !hotseat && !blocked;
  // The game as it stands, on the board already there: a board module with
  // update() draws the new view into it, changing only what changed (its
  // <svg>, and the focus in it, stay); else the board is made anew.
  if (live && kept && kept.renderer === renderer && renderer.update && kept.area.isConnected
      && renderer.update(kept.board, view, game.makeUi(false))) {
    return { area: kept.area, live: kept };
  }
  const area = h("div", { id: "board", class: game.page ? "board" : "board embed-board" });
  if (game.sideLines.playable()) {
    game.sideLines.board(area);
  } else if (replay || game.options.readOnly) {
    const shown = (replay ?? current).view;
    // an analysed game shows the best move found here with the Hint's mark (analysis.js)
    const best = game.bestHere();
    let picture = null;
    const still = () => (picture ??= renderer.render(shown, game.makeUi(true)));
    const withBest = best && game.analysis.boardWithBest(renderer, shown, best.move, {
      ...game.makeUi(false), preview: (move) => game.ask("preview", { record: shown.record, move: String(move) }),
    }, still);
    inert(withBest ?? still(), area, "replaying");
  } else if (hotseat?.phase === "link") {
    area.classList.add("curtained");
    area.append(game.links.screen(view));
  } else if (hotseat) {
    game.phases.fill(area, view, hotseat, { reveal, board: () => renderer.render(hotseat.seatView, game.makeUi(false)) });
    area.inert = !!current.still; // (its buttons act once the engine is up: still.js)
  } else if (blocked) {
    // a computer is choosing: the board is a picture until it has
    inert(renderer.render(view, game.makeUi(true)), area, "computer-turn");
  } else {
    const board = renderer.render(view, game.makeUi(false));
    area.append(board);
    return { area, live: { area, board, renderer } };
  }
  return { area, live: null };
}

// -- around the board ----------------------------------------------------------------------

/** The players: name, kind, score, and who is to move or has won. */
export function seatList(view, best, page) {
  return h("ol", { class: page ? "seats" : "seats embed-seats", "aria-label": "Players" }, view.seats.map((_, i) => {
    const toMove = !view.is_over && view.to_move.includes(i);
    const won = view.winners.includes(i);
    const kind = kindWords(view, i);
    return h("li", { class: [toMove ? "to-move" : "", won ? "winner" : ""].join(" ").trim() || null, dataset: { seat: i } },
      h("span", { class: "seat-mark", dataset: { seat: i }, "aria-hidden": "true" }, String(i + 1)),
      h("span", { class: "seat-name" }, seatName(view, i)),
      kind ? h("span", { class: "seat-kind" }, ...kind) : null,
      // a score the engine words (view.standing, such as "still in"), else the number
      view.standing ? h("span", { class: "score standing" }, view.standing[i])
        : h("span", { class: "score", "aria-label": `score ${view.scores[i] ?? 0}` }, String(view.scores[i] ?? 0)),
      best ? h("span", { class: "best-score", dataset: { exact: String(best.exact) } },
        best.exact ? `best possible: ${best.score}` : `best possible: at least ${best.score} (best found)`) : null,
      toMove && page ? h("span", { class: "badge turn" }, "to move") : null,
      won ? h("span", { class: "badge won" }, "winner") : null);
  }));
}

/** The box for a typed move, under the board of the page. */
export function moveForm(view, play) {
  const input = h("input", { id: "move-input", name: "move", autocomplete: "off", spellcheck: "false", placeholder: view.legal_moves[0] ?? "" });
  const form = h("form", { id: "move-form", class: "move-form" },
    h("label", { for: "move-input" }, "Type a move"), input, h("button", { type: "submit" }, "Play"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text && (await play(text))) input.value = "";
  });
  return form;
}

/** What the live region (#announce) says: after a move, the engine's words
 * for it and whose turn it is; while stepping through a game (and in a
 * replay-only embed), the position shown in words, then its comment. */
export function announcement(game, view, remark) {
  const { replay } = game;
  if (!replay && !game.options.readOnly) return `${view.announcement ?? `${view.status}.`}${remark ? ` Comment: ${remark}` : ""}`;
  const plies = game.plies();
  const line = replay?.line;
  const ply = replay ? replay.ply : plies;
  const move = replay ? replay.move : ply > 0 ? moveInWords(view, ply - 1) : null;
  const where = line ? `Side line instead of move ${line.from + 1}, move ${line.n} of ${line.length}`
    : ply === 0 ? `The start of the game (of ${plies} ${plies === 1 ? "move" : "moves"})` : `After move ${ply} of ${plies}`;
  return `${where}${move ? `: ${move}` : ""}.${remark ? ` Comment: ${remark}` : ""}`;
}

/** The embed's step bar: through the record, and back to the game. */
export function stepBar(game) {
  const { current, replay } = game;
  const total = game.plies();
  const at = replay ? replay.ply : total;
  const button = (key, words, label, target, enabled) => h("button", {
    type: "button", class: "secondary step", dataset: { key }, "aria-label": label, disabled: !enabled,
    onclick: () => (typeof target === "function" ? target() : game.replayTo(target)),
  }, words);
  // the engine's words for the move, without its mover: the frame's one line stays one line
  const line = replay?.line;
  // in a side line, back and forward go along it (back from its first move: where it branches off)
  // (from the position last asked for: two quick clicks are two steps)
  const back = () => game.stepBy(-1);
  const forward = () => game.stepBy(1);
  const move = line ? replay.move : at > 0 ? current.view.moves?.[at - 1]?.words ?? current.view.history[at - 1] : null;
  // one compact row (the buttons and where the game is), the move's words under it
  const where = line ? `Side line instead of move ${line.from + 1}, move ${line.n} of ${line.length}`
    : at === 0 ? `Start (of ${total} ${total === 1 ? "move" : "moves"})` : `Move ${at} of ${total}`;
  return h("div", { class: "embed-steps", role: "group", "aria-label": "Step through the game" },
    button("first", "«", "First: the start of the game", 0, at > 0),
    button("back", "‹", line ? "Back one move in this side line" : "Back one move", back, line != null || at > 0),
    // (not a live region: #announce says each step, with its comment)
    h("span", { class: "embed-where" }, h("span", { id: "embed-ply", class: "embed-ply", dataset: { ply: at } }, where),
      move != null ? h("span", { class: "embed-move" }, move) : null),
    button("forward", "›", line ? "Forward one move in this side line" : "Forward one move", forward, line ? line.n < line.length : at < total),
    button("last", "»", game.options.readOnly ? "Last: the end of the record" : "Last: back to the game", total, at < total),
    game.options.stepBarExtra?.() ?? null);
}

/** The embed's panels (the moves list with its comments and side lines, and
 * the analysis) are folded under the board, each opened by the reader; an
 * open one stays open from step to step (`opened`, the names open now). */
export function fold(opened, name, summary, panel, afterToggle) {
  if (!panel) return null;
  const box = h("details", { class: `embed-panel embed-${name}`, open: opened.has(name) }, h("summary", {}, summary), panel);
  box.addEventListener("toggle", () => {
    if (box.open) opened.add(name);
    else opened.delete(name);
    afterToggle?.();
  });
  return box;
}

/** What to do with the link now, in words, under "Share this game". */
export function shareAdvice(game, view) {
  if (view.is_over) return "The game is over: this link shows it, and every move can be stepped through.";
  if (hasComputer(view) || view.seats.length === 1) return "This link holds the game as it stands (the computer players too): open it on any device to carry on.";
  const sealed = game.links.shareAdvice(view);
  if (sealed) return sealed;
  return "Send this link to the next player: they make their move on their own device and send the new link back. The link always holds the game as it stands.";
}
