// Nonconformity: two sequences side by side, round by round; a number line with
// each seat's scoring band (strictly between the opponent's smallest and
// largest earlier terms, their terms inside excluded); and the pick for the
// acting seat: a number box with the engine's preview, plus the legal picks as
// one-click buttons when the view lists them.
// No rule lives here: bands, legality and "would it score" come from the view
// and from ui.preview; the view's scoring_picks say which listed picks to star.

import { html as h, svg as s, windowWidth } from "./svg.js";

export const styles = ["round.css"];

// The number line's viewBox is about as wide as it will be drawn, so its text
// keeps a readable size on a phone and on a desktop alike (it still scales).
const lineWidth = () => Math.max(300, Math.min(640, (windowWidth() || 640) - 56));
// A row per seat: its band (16 high) and under it the ▲ of its last number
// (8 high); the seat's badge (its number, in its colour, as on the players'
// chips) stands in the left margin, so no label sits where the row above
// points its ▲ (issue 46: "Player 2 scores in" was written over Player 1's).
const ROW_H = 27;
const PAD_X = 24;

function ensureStyles() {
  for (const file of styles) {
    if (document.querySelector(`link[href$="${file}"]`)) continue;
    document.head.append(h("link", { rel: "stylesheet", href: new URL(file, import.meta.url).href }));
  }
}

function seatName(view, seat) {
  return view.seats?.[seat]?.name || `Player ${seat + 1}`;
}

function previewer(ui) {
  if (typeof ui.preview === "function") return (move) => ui.preview(move);
  return () => Promise.reject(new Error("no preview without the game view"));
}


/** "a, b and c"; `last` "or" for a choice ("a multiple of 3, 5 or 17"). */
function words(list, last = "and") {
  if (list.length <= 1) return list.join("");
  return `${list.slice(0, -1).join(", ")} ${last} ${list.at(-1)}`;
}

// -- render ------------------------------------------------------------------------

/** The board has its own box for a typed number: the page adds no "Type a move" box. */
export const typesMoves = true;

export function render(view, ui = {}) {
  ensureStyles();
  const b = view.board;
  const seats = b.sequences.map((_, i) => i);
  // The shell names the acting seat in hot-seat play; otherwise the one seat to move.
  const seat = ui.seat ?? (view.to_move.length === 1 ? view.to_move[0] : null);
  const canPick = !ui.replaying && !view.is_over && seat != null && view.to_move.includes(seat) && !b.picked[seat];

  const wrap = h("div", { class: "nc-board round-board" });
  wrap.append(
    h("p", { class: canPick ? "nc-round visually-hidden" : "nc-round" }, b.round
      ? `Round ${b.round} of ${b.rounds}`
      : `Game over after ${b.played} round${b.played === 1 ? "" : "s"} of ${b.rounds}`),
    // (while a pick is made the status line says who has chosen, and at the end who won: the list is then for
    // screen readers, a line less on a phone)
    whoList(view, { shown: !canPick && !view.is_over }),
    // the table and the number line side by side where the board is wide enough (round.css)
    h("div", { class: canPick ? "nc-view picking" : "nc-view" }, sequenceTable(view, { fold: canPick }), numberLine(view, ui.replaying ? null : seat, { picking: canPick })),
    canPick ? pickPanel(view, ui, seat) : waitNote(view, ui, seat));
  return wrap;
}

function whoList(view, { shown = true } = {}) {
  const b = view.board;
  return h("ul", { class: shown ? "nc-who" : "nc-who visually-hidden", "aria-label": "This round" }, b.sequences.map((_, i) => {
    let state = "";
    let mark = "";
    if (b.sat_out[i]) [mark, state] = ["—", "sits out: no number is open to them"];
    else if (view.is_over) [mark, state] = ["", ""];
    else if (b.sealed?.[i]) [mark, state] = ["✓", "has sealed a pick (fixed: it can only be revealed as sealed, or given up)"];
    else if (b.picked[i]) [mark, state] = ["✓", "has chosen"];
    else if (view.to_move.includes(i)) [mark, state] = ["…", "to choose"];
    return h("li", { class: `seat-${i}`, dataset: { seat: i, state: b.sat_out[i] ? "sat-out" : b.sealed?.[i] ? "sealed" : b.picked[i] ? "picked" : "choosing" } },
      h("span", { class: "pt-seat-swatch", "aria-hidden": "true" }),
      h("strong", {}, seatName(view, i)),
      mark ? h("span", { class: "mark", "aria-hidden": "true" }, mark) : null,
      state);
  }));
}

const SHOWN_ROUNDS = 3; // while a pick is made, the rounds before these fold (a row in the head shows them)

/** The sequences side by side, one row per round; scoring terms starred.
 * fold: the pick screen, where the oldest rounds of a long game fold away, so
 * that the table, the line and the picks fit a frame or a phone. */
function sequenceTable(view, { fold = false } = {}) {
  const b = view.board;
  const cell = (value, scored, extra = "") => {
    if (value == null) return h("td", { class: "nc-none" }, "sat out");
    return h("td", {}, h("span", { class: ["nc-term", scored ? "scored" : "", extra] }, String(value)),
      scored ? h("span", { class: "visually-hidden" }, " (scored)") : null);
  };
  const rows = [
    h("tr", {}, h("th", { scope: "row" }, "start"), b.sequences.map((seq) => cell(seq[0], false, "start"))),
    ...b.round_log.map((entry) => h("tr", {},
      h("th", { scope: "row" }, String(entry.round)),
      entry.picks.map((pick, i) => cell(pick, entry.scored[i])))),
  ];
  // A pick already chosen this round is shown only to the seat that chose it (the view says so).
  if (b.pending?.some((p) => p != null)) {
    rows.push(h("tr", { class: "nc-pending-row" }, h("th", { scope: "row" }, String(b.round)),
      b.pending.map((p, i) => (p == null
        ? h("td", {}, b.picked[i] ? "chosen" : "")
        : h("td", {}, h("span", { class: "nc-term pending", title: "your secret pick, not yet revealed" }, String(p)), " (yours, secret)")))));
  }
  const head = [h("tr", {}, h("th", { scope: "col" }, "Round"),
    b.sequences.map((_, i) => h("th", { scope: "col", class: `seat-${i}` },
      h("span", { class: "pt-seat-swatch", "aria-hidden": "true" }), seatName(view, i), " ",
      h("span", { class: "nc-score" }, `${view.scores[i]} pt${view.scores[i] === 1 ? "" : "s"}`))))];
  const folded = fold ? b.round_log.length - SHOWN_ROUNDS : 0;
  if (folded > 0) {
    // the start and rounds 1 .. folded stay in the table, hidden until asked for
    const older = rows.slice(0, 1 + folded);
    for (const row of older) row.hidden = true;
    const what = `Start and round${folded > 1 ? `s 1 to ${folded}` : " 1"}`;
    const more = h("button", { type: "button", class: "nc-older", "aria-expanded": "false" }, `${what}: show`);
    more.addEventListener("click", () => {
      const open = more.getAttribute("aria-expanded") !== "true";
      for (const row of older) row.hidden = !open;
      more.setAttribute("aria-expanded", String(open));
      more.textContent = `${what}: ${open ? "hide" : "show"}`;
    });
    head.push(h("tr", { class: "nc-older-row" }, h("td", { colspan: b.sequences.length + 1 }, more)));
  }
  if (fold) {
    // While a pick is made the table keeps the room of every row it will show
    // in this game (the start and the last rounds, or the row that unfolds the
    // older ones), empty until played: a round played adds no height, so the
    // number line and the picks under it stay under the finger (issue 56).
    const shown = rows.filter((row) => !row.hidden).length + (folded > 0 ? 1 : 0);
    for (let i = shown; i < Math.min(SHOWN_ROUNDS + 1, b.rounds); i++) {
      rows.push(h("tr", { class: "nc-room", "aria-hidden": "true" }, h("th", {}, "\u00a0"), b.sequences.map(() => h("td", {}, h("span", { class: "nc-term" }, "\u00a0")))));
    }
  }
  return h("table", { class: "nc-seqs-table" },
    h("caption", { class: "visually-hidden" }, "The two sequences, round by round; ★ marks a number that scored"),
    h("thead", {}, head),
    h("tbody", {}, rows));
}

// -- the number line ----------------------------------------------------------------------

function niceStep(span, ticks) {
  const rough = span / ticks;
  const power = 10 ** Math.floor(Math.log10(Math.max(1, rough)));
  for (const m of [1, 2, 5, 10]) if (m * power >= rough) return m * power;
  return 10 * power;
}

function numberLine(view, actingSeat, { picking = false } = {}) {
  const b = view.board;
  const values = [...b.sequences.flat(), ...b.bands.flatMap((band) => [band.low, band.high]),
    ...(b.pending ?? []).filter((p) => p != null)];
  const LINE_W = lineWidth();
  const top = Math.max(10, ...values);
  const step = niceStep(top, LINE_W < 420 ? 4 : 6);
  const hi = Math.min(Math.max(top, Math.ceil((top * 1.04) / step) * step), Math.max(b.max_pick, top));
  const x = (n) => PAD_X + ((LINE_W - 2 * PAD_X) * n) / hi;
  const rows = b.sequences.length;
  const height = rows * ROW_H + 28;
  const line = s("svg", {
    class: "nc-line", viewBox: `0 0 ${LINE_W} ${height}`, role: "img",
    "aria-label": "Number line: where each player's next number would score",
  });
  const descriptions = [];
  b.bands.forEach((band, i) => {
    const mid = 10 + i * ROW_H; // (the band's middle; its ▲ reaches mid + 17)
    const g = s("g", { class: `seat-${i}` });
    g.append(s("g", { class: "nc-row-badge" }, s("title", {}, `${seatName(view, i)} scores in this band`),
      s("circle", { cx: 10, cy: mid, r: 8.5 }),
      s("text", { x: 10, y: mid + 4, "text-anchor": "middle" }, String(i + 1))));
    g.append(s("line", { class: "nc-axis", x1: x(0), x2: x(hi), y1: mid, y2: mid }));
    const open = band.high > band.low;
    if (open) {
      g.append(s("rect", { class: "nc-band", x: x(band.low), y: mid - 8, width: Math.max(2, x(band.high) - x(band.low)), height: 16, rx: 3 }));
      // strict ends: open circles, as on a number line in school
      g.append(s("circle", { class: "nc-band-end", cx: x(band.low), cy: mid, r: 5 }));
      g.append(s("circle", { class: "nc-band-end", cx: x(band.high), cy: mid, r: 5 }));
      for (const e of band.excluded) {
        g.append(s("path", { class: "nc-excluded", d: `M${x(e) - 4} ${mid - 4}l8 8m0 -8l-8 8` }));
      }
    }
    const own = b.last?.[i];
    if (own != null) g.append(s("path", { class: "nc-last", d: `M${x(own)} ${mid + 9}l-5 8h10z` }));
    line.append(g);
    const name = seatName(view, i);
    if (b.sat_out[i]) descriptions.push(`${name} sits out.`);
    else if (!open) descriptions.push(`${name} cannot score yet: no numbers lie strictly between ${band.low} and ${band.high}.`);
    else {
      const except = band.excluded.length ? `, except ${words(band.excluded.map(String))}` : "";
      const you = actingSeat === i ? " (you)" : "";
      descriptions.push(`${name}${you} scores with a number above ${band.low} and below ${band.high}${except}.`);
    }
  });
  // the scale
  const axisY = rows * ROW_H + 8;
  for (let t = 0; t <= hi; t += step) {
    line.append(s("line", { class: "nc-tick", x1: x(t), x2: x(t), y1: axisY - 6, y2: axisY }));
    line.append(s("text", { class: "nc-tick-label", x: x(t), y: axisY + 14, "text-anchor": "middle" }, String(t)));
  }
  return h("figure", { class: "nc-figure" }, line,
    h("figcaption", {},
      h("p", { class: "nc-legend", "aria-hidden": "true" },
        h("span", {}, "▬ where that player scores"), h("span", {}, "○ end not included"), h("span", {}, "✕ opponent's: never scores"), h("span", {}, "▲ last number")),
      // (on the pick screen the words are for screen readers: the pick's own line says where it scores)
      descriptions.map((d) => h("p", { class: picking ? "nc-band-text visually-hidden" : "nc-band-text" }, d))));
}

// -- the pick ----------------------------------------------------------------------------------

const FLAT_UP_TO = 60; // pick buttons drawn at once; a longer list is folded
const RANGE = 100; // a long list of scoring picks, a hundred numbers to a range

function pickPanel(view, ui, seat) {
  const b = view.board;
  // ui.hints false (a lesson's task): nothing says which number would score before the try
  const hints = ui.hints !== false;
  const name = seatName(view, seat);
  const preview = previewer(ui);
  const input = h("input", {
    type: "number", id: "nc-pick", name: "pick", min: 2, max: b.max_pick, inputmode: "numeric",
    autocomplete: "off", "aria-describedby": "nc-verdict",
  });
  const verdict = h("p", { id: "nc-verdict", class: "nc-verdict", "aria-live": "polite" });
  let asked = 0;
  let timer = 0;

  async function check() {
    const text = input.value.trim();
    const ticket = ++asked;
    if (!text) {
      verdict.textContent = "";
      verdict.className = "nc-verdict";
      return;
    }
    try {
      const result = await preview(text);
      if (ticket !== asked) return;
      verdict.className = result.scores && hints ? "nc-verdict scores" : "nc-verdict";
      verdict.textContent = !hints ? `${result.pick} is allowed.` : result.scores
        ? `★ ${result.pick} would score: it lies between ${result.low} and ${result.high}.`
        : `${result.pick} is allowed but would not score.`;
    } catch (error) {
      if (ticket !== asked) return;
      verdict.className = "nc-verdict illegal";
      verdict.textContent = error.message;
    }
  }
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(check, 120);
  });
  // Step keys: the number before or after the one in the box that would score
  // (that is allowed, when none would), from the view's lists.
  const scoringList = (hints ? b.scoring_picks?.[seat] ?? [] : []).map(Number).sort((x, y) => x - y);
  const stepList = scoringList.length ? scoringList : view.legal_moves.map(Number).sort((x, y) => x - y);
  const stepTo = (direction) => {
    const now = Number(input.value);
    const have = input.value.trim() !== "" && Number.isFinite(now);
    const found = direction > 0
      ? stepList.find((n) => !have || n > now)
      : stepList.findLast((n) => !have || n < now);
    if (found == null) return;
    input.value = String(found);
    clearTimeout(timer);
    check();
  };
  const what = scoringList.length ? "number that would score" : "number you may choose";
  const stepKey = (direction, text) => h("button", {
    type: "button", class: "secondary nc-step", "aria-label": `${direction < 0 ? "Previous" : "Next"} ${what}`,
    title: `${direction < 0 ? "Previous" : "Next"} ${what}`, onclick: () => stepTo(direction), disabled: stepList.length === 0,
  }, text);
  // Played by link, a pick takes a deliberate act (ui.deliberate): a tap on a
  // listed number selects it, and this button, then "Seal 26" (ui.commit, where
  // the pick is sealed) or "Choose 26", plays it; a tap while scrolling the
  // list locks nothing in. (Its data-move makes it the one-tap target of that
  // number.) At one screen a tap still chooses, as the hand-over follows at once.
  const choose = h("button", { type: "submit", class: "nc-play" }, "Choose it");
  const unselect = () => {
    choose.textContent = "Choose it";
    delete choose.dataset.move;
    for (const el of choose.closest(".nc-pick")?.querySelectorAll("[aria-pressed=true]") ?? []) el.setAttribute("aria-pressed", "false");
  };
  const select = (m, el) => {
    unselect();
    input.value = m;
    clearTimeout(timer);
    check();
    choose.textContent = `${ui.commit ?? "Choose"} ${m}`;
    choose.dataset.move = m;
    el.setAttribute("aria-pressed", "true");
  };
  input.addEventListener("input", unselect);
  const form = h("form", { class: "nc-pick-form" },
    h("label", { for: "nc-pick", class: "nc-pick-label" }, "Your number"), input,
    stepKey(-1, scoringList.length ? "‹★" : "‹"), stepKey(1, scoringList.length ? "★›" : "›"),
    choose);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text) ui.play(text);
    else input.focus();
  });

  const panel = h("section", { class: "nc-pick", "aria-label": `${name}'s choice` },
    // (for screen readers: the banner over the board and the status already say it)
    h("h2", { class: "visually-hidden" }, `${name}: choose your number for round ${b.round}`),
    // the rule, and in its place (the same room: nothing below moves) what the number typed would do
    h("div", { class: "nc-said" },
      h("p", { class: "nc-band-text nc-rule" }, b.factors?.[seat]?.length
        ? `A multiple of ${words(b.factors[seat].map(String), "or")} (it shares a prime factor with ${b.last[seat]}), from 2 to ${b.max_pick}, not one of yours.${hints ? ` ${scoresWhere(b.bands?.[seat])}` : ""}`
        : ""),
      verdict),
    form);

  if (view.legal_moves.length) {
    // The engine lists which picks would score; the page only draws them.
    const scores = new Set((hints ? b.scoring_picks?.[seat] ?? [] : []).map(String));
    const scoring = view.legal_moves.filter((m) => scores.has(m));
    const button = (m) => h("button", {
      type: "button", class: scores.has(m) ? "scores" : null, dataset: ui.deliberate ? { pick: m } : { move: m },
      "aria-label": scores.has(m) ? `${m}, would score` : m,
      ...(ui.deliberate ? { "aria-pressed": "false", onclick: (event) => select(m, event.currentTarget) } : {}),
    }, m);
    const scoringBox = h("div", { class: "nc-scoring" },
      hints ? h("p", { class: "nc-picks-title" }, scoring.length
        ? `Numbers that would score (${scoring.length}):`
        : "No open number would score this round.") : null,
      scoring.length ? scoringPicks(scoring, button) : "");
    panel.append(scoringBox);
    // Every open number: up to some 700 buttons. It starts closed when some
    // would score, whose list is the one to tap (two lists open at once ran a
    // lesson's frame 58 px past its foot, issue 46), and open when none would.
    const label = "Every number you may choose";
    // (in the row of ranges, where there is room: one line less)
    (scoring.length > FLAT_UP_TO ? scoringBox.querySelector(".nc-ranges") : panel).append(foldedPicks(view.legal_moves, button, {
      open: scoring.length === 0, className: "nc-all", boxClass: "nc-picks all",
      title: `Every number (${view.legal_moves.length})`, titleClass: "nc-picks-title", label,
    }));
  }
  return panel;
}

// A list of pick buttons in a <details>: drawn at once if it starts open,
// else given its buttons when first opened. Building hundreds of buttons
// and dropping them again every turn, and laying them out, was most of the
// time a pick screen took to appear (docs/BENCH.md).
function foldedPicks(moves, button, { open = false, className, boxClass = "nc-picks", title, titleClass = null, label, dataset = null }) {
  const box = h("div", { class: boxClass, role: "group", "aria-label": label }, open ? moves.map(button) : []);
  return h("details", {
    class: className, open, dataset,
    ontoggle: (event) => { if (event.target.open && !box.firstChild) box.append(...moves.map(button)); },
  }, h("summary", { class: titleClass }, title), box);
}

// A long list of scoring picks (a default game offers 160 to 680 from round 2
// on) comes in closed ranges of a hundred: as one list they made a pick
// screen thousands of pixels tall.
function scoringPicks(moves, button) {
  const label = "Numbers that would score";
  if (moves.length <= FLAT_UP_TO) return h("div", { class: "nc-picks", role: "group", "aria-label": label }, moves.map(button));
  const ranges = new Map(); // the range's first number -> its picks
  for (const m of moves) {
    const low = Math.floor(Number(m) / RANGE) * RANGE;
    if (!ranges.has(low)) ranges.set(low, []);
    ranges.get(low).push(m);
  }
  return h("div", { class: "nc-ranges" }, [...ranges.keys()].sort((a, b) => a - b).map((low) => {
    const picks = ranges.get(low);
    const span = low === 0 ? `under ${RANGE}` : `${low} to ${low + RANGE - 1}`;
    // (a short title, so that the ranges sit several to a line; the group's label has the words)
    return foldedPicks(picks, button, {
      className: "nc-range", dataset: { low }, title: `${low === 0 ? `<${RANGE}` : `${low}s`} (${picks.length})`, label: `${label}, ${span}`,
    });
  }));
}

/** Where the acting seat's number scores, in a sentence ("" if nowhere). */
function scoresWhere(band) {
  if (!band || !(band.high > band.low)) return "No number scores yet.";
  return `It scores above ${band.low} and below ${band.high}${band.excluded.length ? ", except on an ✕" : ""}.`;
}

function waitNote(view, ui, seat) {
  const b = view.board;
  if (view.is_over || ui.replaying) return h("div", { class: "nc-pick empty" });
  if (seat != null && b.sat_out[seat]) return h("p", { class: "nc-wait" }, `${seatName(view, seat)} has no number open and sits out.`);
  if (seat != null && b.pending?.[seat] != null) {
    return h("p", { class: "nc-wait" }, `You chose ${b.pending[seat]}; it is revealed once everyone has chosen.`);
  }
  const waiting = view.to_move.map((i) => seatName(view, i));
  return h("p", { class: "nc-wait" }, waiting.length ? `Waiting for ${words(waiting)} to choose.` : "");
}

// -- thumbnail ------------------------------------------------------------------------

export function thumbnail() {
  ensureStyles();
  const chip = (x, y, text, cls = "") => [
    s("rect", { class: `nc-thumb-chip ${cls}`, x, y, width: 22, height: 14, rx: 3 }),
    s("text", { class: "nc-thumb-text", x: x + 11, y: y + 10.5, "text-anchor": "middle", "font-size": 8 }, text),
  ];
  return s("svg", { class: "nc-thumb round-board", viewBox: "0 0 108 80", "aria-hidden": "true" },
    s("g", { class: "seat-0" }, chip(4, 4, "14"), chip(28, 4, "21"), chip(52, 4, "35", "scored"), chip(76, 4, "10")),
    s("g", { class: "seat-1" }, chip(4, 24, "9"), chip(28, 24, "6"), chip(52, 24, "16"), chip(76, 24, "12", "scored")),
    s("line", { class: "nc-axis", x1: 4, x2: 104, y1: 62, y2: 62 }),
    s("g", { class: "seat-0" }, s("rect", { class: "nc-band", x: 22, y: 56, width: 46, height: 12, rx: 2 })),
    s("path", { class: "nc-excluded", d: "M42 59l6 6m0 -6l-6 6" }));
}

/** A small still picture of a position, for the rules' worked examples (help.js):
 * each player's sequence as a row of chips in their colour (the start dashed, a
 * number that scored thick and starred), from the engine's view. */
export function example(view) {
  ensureStyles();
  const b = view.board;
  const W = 30, H = 18, GAP = 4, LABEL = 64;
  const longest = Math.max(...b.sequences.map((seq) => seq.length));
  const rows = b.sequences.map((seq, i) => {
    const y = 6 + i * (H + 10);
    const chips = seq.map((value, k) => {
      const x = LABEL + k * (W + GAP);
      const hit = Boolean(b.scored?.[i]?.[k]);
      return [
        s("rect", { class: `nc-thumb-chip${hit ? " scored" : ""}`, x, y, width: W, height: H, rx: 3, "stroke-dasharray": k === 0 ? "3 2" : null }),
        s("text", { class: "nc-thumb-text", x: x + W / 2, y: y + H / 2 + 4, "text-anchor": "middle", "font-size": 10 }, `${value}${hit ? "★" : ""}`),
      ];
    });
    return s("g", { class: `seat-${i}` },
      s("text", { class: "nc-thumb-text", x: 2, y: y + H / 2 + 4, "font-size": 10 }, seatName(view, i)), chips);
  });
  const width = LABEL + longest * (W + GAP) + 2;
  const height = 6 + b.sequences.length * (H + 10);
  return h("div", { class: "nc-board round-board example-board" },
    s("svg", { class: "nc-example", viewBox: `0 0 ${width} ${height}` }, rows));
}
