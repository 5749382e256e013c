// Prime Target: a target of concentric rings cut into wedges, drawn from the
// engine's view. The centre is filled one value@wedge at a time (a palette of
// the free values, then one click on a free wedge); each later ring is built by
// toggling every wedge between sum and difference, with a live preview from the
// engine (values, primes, score), then played with one button.
// No rule lives here: values come from board.choices, primes and scores from
// board.ring_scores or ui.preview; legality from view.legal_moves (or, where a
// ring has too many patterns to list, board.legal_listed) and the engine.

import { html as h, svg as s, describe, leaveTabOrder, setText, target, untarget } from "./svg.js";
import { SIZE, ensureStyles, raysAndNumbers, ringEdges, sectorPath, wedgeLabel } from "./prime-target-drawing.js";

// the board module's stylesheets and still pictures are the drawing's (index.js, app.js and help.js ask this module for them)
export { styles, thumbnail, example } from "./prime-target-drawing.js";

// svg()/html() builders and target() (data-move / data-try wedges that play on
// click, Enter and Space) come from the shared helpers. Focus goes round the
// ring with the arrow keys (its own small roving focus below: the shared one
// moves by screen direction, which on a circle skips wedges).

function previewer(ui) {
  if (typeof ui.preview === "function") return (move) => ui.preview(move);
  return () => Promise.reject(new Error("no preview without the game view"));
}

function seatName(view, seat) {
  return view.seats?.[seat]?.name ?? `Player ${seat + 1}`;
}

// -- module state kept across redraws of the same position -----------------------

let kept = { record: null, signs: null, value: null, focus: null };

// -- render ----------------------------------------------------------------------

// The boards render() made, kept so update() can draw the next view into them:
// the wrapper -> {svg, wedges (by "ring/wedge": path, label, key, opts), rings, rays, ui, targets, byPath, …}.
const drawn = new WeakMap();

export function render(view, ui = {}) {
  ensureStyles();
  const b = view.board;
  const edges = ringEdges(b.ring_count, b.rays);
  const step = 360 / b.rays;
  const wedgeLayer = s("g", { class: "pt-wedges" });
  const textLayer = s("g", { class: "pt-texts", "aria-hidden": "true" });
  const svg = s("svg", {
    class: "pt-svg",
    viewBox: `${-SIZE} ${-SIZE} ${2 * SIZE} ${2 * SIZE}`,
    role: "group",
    "aria-label": `Prime Target: ${b.ring_count} rings of ${b.rays} wedges`,
  },
  // Wedges switched to the difference are hatched, so the choice shows without colour.
  s("defs", {}, s("pattern", { id: "pt-hatch", width: 14, height: 14, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
    s("rect", { class: "pt-hatch-bg", width: 14, height: 14 }),
    s("line", { class: "pt-hatch-line", x1: 0, y1: 0, x2: 0, y2: 14 }))),
  wedgeLayer, textLayer);

  // One path and one label a wedge, kept from draw to draw (paint() sets what they show).
  const wedges = new Map();
  for (let ring = 0; ring < b.ring_count; ring++) {
    for (let w = 1; w <= b.rays; w++) {
      const path = s("path", { d: sectorPath(edges[ring], edges[ring + 1], (w - 1) * step, w * step), dataset: { ring, wedge: w } });
      const group = s("g", {});
      wedgeLayer.append(path);
      textLayer.append(group);
      wedges.set(`${ring}/${w}`, { path, group, label: null, digits: null, key: null, opts: null });
    }
  }
  raysAndNumbers(textLayer, edges, b.rays, step);

  const wrap = h("div", { class: "pt-board round-board" });
  // Many small wedges: on a phone the target keeps a readable size and scrolls sideways.
  const dense = b.ring_count * b.rays > 60;
  const figure = h("div", { class: dense ? "pt-figure dense" : "pt-figure" }, svg);
  const state = {
    svg, wedges, edges, step, rings: b.ring_count, rays: b.rays, ui, targets: [], byPath: new Map(),
    controls: h("div", { class: "pt-controls" }), figure, scores: null, scoresKey: null,
  };
  // (the wedges act through the latest draw's ui)
  state.act = new Proxy({}, { get: (_, key) => state.ui?.[key], has: (_, key) => state.ui != null && key in state.ui });
  wrap.append(state.controls, figure);
  keyboard(svg, state);
  // a ring's wedge switches between sum and difference (ringControls sets what it does)
  svg.addEventListener("click", (event) => state.byPath.get(event.target)?.activate?.());
  paint(wrap, state, view, ui);
  if (dense) {
    // When the target is wider than a phone, start with its middle in view.
    requestAnimationFrame(() => {
      if (figure.scrollWidth > figure.clientWidth && figure.scrollLeft === 0) {
        figure.scrollLeft = (figure.scrollWidth - figure.clientWidth) / 2;
      }
    });
  }
  drawn.set(wrap, state);
  return wrap;
}

/** Draw `view` into a board render() made (the same rings and wedges): the
 * wedges stay and only what they show changes. false: it cannot be, render anew. */
export function update(wrap, view, ui = {}) {
  const state = drawn.get(wrap);
  if (!state || state.rings !== view.board.ring_count || state.rays !== view.board.rays) return false;
  paint(wrap, state, view, ui);
  return true;
}

/** Everything that changes with the position: each wedge's number, marks and
 * part (a move, a try, a switch, or words only), the controls and the scores. */
function paint(wrap, state, view, ui) {
  const b = view.board;
  // (a ring of thousands of patterns is not listed: legal_listed false, and still this seat's to play)
  const inert = Boolean(ui.replaying) || view.is_over || (view.legal_moves.length === 0 && b.legal_listed !== false);
  const preview = previewer(ui);
  const hadFocus = Boolean(document.activeElement?.closest?.(".pt-board"));
  if (kept.record !== view.record) kept = { record: view.record, signs: null, value: null, focus: kept.focus };
  state.ui = ui;
  const { edges, step } = state;
  const targets = []; // focusable wedges, in clockwise order
  const tries = []; // filled centre wedges: not legal, but a click asks the engine why
  const scoresByRing = new Map(b.ring_scores.map((rs) => [rs.ring, rs]));
  // One entry per drawn wedge, so the live preview can restyle it in place.
  const nextWedges = [];
  state.byPath = new Map();

  for (let ring = 0; ring < b.ring_count; ring++) {
    const values = b.rings[ring] ?? null;
    const r0 = edges[ring];
    const r1 = edges[ring + 1];
    const isNext = b.next_ring === ring && !view.is_over;
    // the ring being built, drawn as a preview only where it can be played:
    // a replay, a picture or a computer's turn shows it empty, as it stood
    const building = isNext && !inert && Boolean(b.choices);
    const scored = scoresByRing.get(ring);
    const digits = Math.max(2, ...(values ?? []).map((v) => String(v ?? "").length),
      ...(building ? b.choices.map((c) => String(Math.max(c.sum, c.difference)).length) : []));
    for (let w = 1; w <= b.rays; w++) {
      const a0 = (w - 1) * step;
      const a1 = w * step;
      const value = values ? values[w - 1] : null;
      const prime = Boolean(scored?.primes[w - 1]);
      const classes = ["pt-wedge", ring === 0 ? "centre" : "ring"];
      let label;
      let part = null; // "centre" (a move), "taken" (a try), "ring" (a switch), or words only
      if (scored) classes.push(`done`, `seat-${scored.seat}`);
      if (value == null && !building) classes.push("empty");
      if (prime) classes.push("prime");
      const where = ring === 0 ? `centre wedge ${w}` : `ring ${ring} wedge ${w}`;
      if (ring === 0 && b.phase === "centre") {
        if (value == null) {
          classes.push("free");
          label = `${where}, empty`;
          if (!inert) part = "centre";
        } else {
          label = `${where}, ${value}`;
          // Not legal: a click or Enter still asks the engine, which says why.
          if (!inert) part = "taken";
        }
      } else if (building) {
        classes.push("next");
        part = "ring";
        label = where;
      } else if (value != null) {
        label = `${where}, ${value}${prime ? ", prime" : ""}`;
      } else {
        label = `${where}, empty`;
      }
      const kept_ = state.wedges.get(`${ring}/${w}`);
      const { path } = kept_;
      // the number and its prime mark (made again when the ring needs more digits)
      if (kept_.digits !== digits) {
        const made = wedgeLabel(r0, r1, a0, a1, digits, { prime });
        made.group.dataset.ring = ring;
        made.group.dataset.wedge = w;
        kept_.group.replaceWith(made.group);
        Object.assign(kept_, { group: made.group, label: made, digits });
      }
      const { text, mark } = kept_.label;
      const shows = value != null ? String(value) : "";
      if (part !== "ring") {
        setText(text, shows);
        mark.classList.toggle("off", !prime);
      }
      text.classList.toggle("preview", part === "ring");
      // the wedge's part: set again only when it changed (its options object kept, so the palette can re-aim it)
      const key = `${classes.join(" ")}|${label}|${part}|${inert}`;
      if (kept_.key !== key) {
        kept_.opts = part === "centre" ? { move: `${b.free_values[0]}@${w}`, label, ui: state.act }
          : part === "taken" ? { tryMove: `${b.free_values[0]}@${w}`, label: `${label}, taken`, ui: state.act } : null;
        // (a target drawn again stays one, target() changing what it plays; the
        // tabindex of a wedge that no longer plays is taken last, below)
        if (!kept_.opts) untarget(path, { keepTabindex: true });
        for (const name of ["role", "aria-label", "aria-checked"]) path.removeAttribute(name);
        path.setAttribute("class", classes.join(" "));
        describe(path, label); // target() makes the playable ones buttons
        if (kept_.opts) target(path, kept_.opts);
        kept_.key = key;
      }
      if (part === "centre") targets.push({ path, wedge: w, kind: "centre", opts: kept_.opts });
      else if (part === "taken") tries.push({ path, wedge: w, opts: kept_.opts });
      else if (part === "ring") {
        const entry = { path, text, mark, wedge: w, kind: "ring" };
        nextWedges.push(entry);
        targets.push(entry);
      }
    }
  }

  let controls;
  if (b.phase === "centre" && !inert) {
    // The keyboard goes round every centre wedge; the taken ones explain themselves.
    targets.push(...tries.map((t) => ({ ...t, kind: "taken" })));
    targets.sort((x, y) => x.wedge - y.wedge);
    controls = centreControls(view, state, targets, tries); // (the palette kept from move to move)
  } else {
    state.centre = null;
    controls = h("div", { class: "pt-controls" });
    if (nextWedges.length) {
      ringControls(view, ui, controls, nextWedges, preview);
    } else if (b.phase === "rings" && !ui.replaying) {
      // (a computer's turn: the ring stays empty until it is played)
      controls.append(h("p", { class: "pt-label" }, `Ring ${b.next_ring} is next.`));
    } else if (view.is_over) {
      controls.append(h("p", { class: "pt-note" }, "The target is complete."));
    }
  }
  for (const t of targets) state.byPath.set(t.path, t);
  if (controls !== state.controls) {
    state.controls.replaceWith(controls);
    state.controls = controls;
  }
  // the scored rings' table: a row added for a ring just scored, else made anew
  const names = JSON.stringify(view.seats.map((_, seat) => seatName(view, seat)));
  const rowKeys = b.ring_scores.map((rs) => JSON.stringify([rs, b.rings[rs.ring]]));
  const had = state.scoresKey;
  // (the rows drawn last time, unchanged, begin the new ones)
  const grown = had && had.names === names && had.rows.length <= rowKeys.length && had.rows.every((k, i) => k === rowKeys[i]);
  if (grown && had.rows.length > 0) {
    if (had.rows.length < rowKeys.length) state.scores.querySelector("tbody").append(...ringScoreRows(view, had.rows.length));
  } else if (!grown || rowKeys.length > 0) { // (an empty table stays as it is)
    const list = ringScoreList(view);
    if (state.scores?.tagName === "DETAILS") list.open = state.scores.open; // (as the reader left it)
    if (state.scores) state.scores.replaceWith(list);
    else wrap.append(list);
    state.scores = list;
  }
  state.scoresKey = { names, rows: rowKeys };

  state.targets = targets;
  settleFocus(state);
  // last (the browser then works out the style once): wedges that play no more leave the Tab order
  const playing = new Set(targets.map((t) => t.path));
  for (const el of state.svg.querySelectorAll(".pt-wedges [tabindex]")) if (!playing.has(el)) leaveTabOrder(el);
  if (hadFocus && targets.length) {
    // Keyboard players keep their place after a move redraws the board.
    requestAnimationFrame(() => {
      const el = targets.find((t) => t.wedge === kept.focus && t.kind !== "taken")?.path ??
        targets.find((t) => t.kind !== "taken")?.path ?? targets[0].path;
      if (el.isConnected && document.activeElement !== el) el.focus({ preventScroll: true }); // (kept, never scrolled to: the board stays where the player left it)
    });
  }
}

// -- centre phase ------------------------------------------------------------------

/** The palette of free values over the centre, kept from move to move (a
 * value written leaves it): its controls element, the same one while it can be. */
function centreControls(view, state, targets, tries) {
  const b = view.board;
  if (!b.free_values.includes(kept.value)) kept.value = b.free_values[0];
  let centre = state.centre;
  // kept if the free values are the palette's less those written; else (a value
  // back in it, a move taken back) made anew, in the engine's order
  const left = centre ? [...centre.buttons.keys()].filter((v) => b.free_values.includes(v)) : [];
  if (!centre || left.length !== b.free_values.length || left.some((v, i) => v !== b.free_values[i])) {
    const palette = h("div", { class: "pt-palette", role: "group", "aria-label": "Number to write" });
    const hint = h("p", { class: "pt-hint" });
    const controls = h("div", { class: "pt-controls", dataset: { keys: "digits" } }, // (number keys pick a value while a centre wedge has focus)
      h("p", { class: "pt-label" }, "Numbers still free"), palette, hint);
    const buttons = new Map(b.free_values.map((v) => [v, h("button", {
      type: "button", class: "pt-value-choice", "aria-pressed": String(v === kept.value), dataset: { value: v },
      onclick: () => select(v),
    }, String(v))]));
    palette.append(...buttons.values());
    centre = state.centre = { controls, buttons, hint, targets, tries, value: null };
    const select = (v) => {
      kept.value = v;
      for (const [value, button] of centre.buttons) {
        const pressed = String(value === v);
        if (button.getAttribute("aria-pressed") !== pressed) button.setAttribute("aria-pressed", pressed);
      }
      // target() reads its opts when it plays, so changing them re-aims every wedge.
      for (const t of centre.targets) {
        if (t.kind !== "centre") continue; // taken wedges stay tries
        t.opts.move = `${v}@${t.wedge}`;
        t.path.dataset.move = t.opts.move;
        t.path.setAttribute("aria-label", `centre wedge ${t.wedge}, empty, legal: write ${v}`);
      }
      for (const t of centre.tries) {
        t.opts.tryMove = `${v}@${t.wedge}`;
        t.path.dataset.try = t.opts.tryMove;
      }
      if (centre.value !== v) centre.hint.textContent = `Writing ${v}: choose an empty wedge of the centre.`;
      centre.value = v;
    };
    controls.selectValue = select;
  } else {
    for (const [value, button] of centre.buttons) {
      if (b.free_values.includes(value)) continue;
      button.remove(); // written on the board
      centre.buttons.delete(value);
    }
  }
  centre.targets = targets;
  centre.tries = tries;
  centre.controls.selectValue(kept.value);
  return centre.controls;
}

// -- ring phase --------------------------------------------------------------------

/** The ring being built, at the live end of a game: its wedges switch between
 * sum and difference, drawn as a preview (class "preview": unlike numbers
 * played) until "Play this ring". */
function ringControls(view, ui, controls, wedges, preview) {
  const b = view.board;
  const ring = b.next_ring;
  // (all sums, or ui.start: a puzzle's first look must not already be its answer)
  if (!kept.signs || kept.signs.length !== b.rays) kept.signs = ui.start?.length === b.rays ? [...ui.start] : b.choices.map(() => "+");
  const notation = () => kept.signs.map((sign, i) => (b.choices[i].same ? "+" : sign)).join("");
  const seat = view.to_move[0];

  const play = h("button", { type: "button", class: "pt-play-ring" }, "Play this ring");
  const summary = h("p", { class: "pt-preview", "aria-live": "polite" });
  const valuesLine = h("p", { class: "pt-preview-values" });
  const signsLine = h("code", { class: "pt-notation" });
  let asked = 0;

  function draw(entry) {
    const i = entry.wedge - 1;
    const choice = b.choices[i];
    const sign = choice.same ? "+" : kept.signs[i];
    const value = sign === "+" ? choice.sum : choice.difference;
    entry.text.textContent = String(value);
    entry.path.classList.toggle("difference", sign === "-");
    entry.path.classList.toggle("same", choice.same);
    const what = choice.same ? `sum and difference both ${value}` : sign === "+" ? `sum ${value}` : `difference ${value}`;
    entry.what = what;
    labelWedge(entry);
  }

  function labelWedge(entry) {
    const prime = entry.prime ? ", prime" : "";
    const act = entry.path.ownerSVGElement ? ", press to switch" : "";
    entry.path.setAttribute("aria-label", `ring ${ring} wedge ${entry.wedge}, preview: ${entry.what}${prime}${act}`);
  }

  async function refresh() {
    const move = notation();
    play.dataset.move = move;
    signsLine.textContent = move;
    const ticket = ++asked;
    let result;
    try {
      result = await preview(move);
    } catch (error) {
      if (ticket === asked) summary.textContent = error.message;
      return;
    }
    if (ticket !== asked) return; // a newer toggle has asked again
    for (const entry of wedges) {
      const prime = Boolean(result.primes[entry.wedge - 1]);
      entry.prime = prime;
      entry.path.classList.toggle("prime", prime);
      entry.mark.classList.toggle("off", !prime);
      labelWedge(entry);
    }
    const count = result.primes.filter(Boolean).length;
    const who = seatName(view, seat);
    summary.replaceChildren(
      `This ring would score `, h("strong", { class: "pt-preview-score" }, String(result.score)),
      ` for ${who} (${count} prime${count === 1 ? "" : "s"}).`);
    valuesLine.replaceChildren(...result.values.flatMap((v, i) => [
      i ? ", " : "",
      result.primes[i] ? h("span", { class: "pt-prime-text" }, String(v)) : String(v),
    ]));
    play.setAttribute("aria-label", `Play this ring (${move}), scoring ${result.score}`);
  }

  function toggle(entry) {
    const i = entry.wedge - 1;
    if (b.choices[i].same) {
      ui.explain?.(`Wedge ${entry.wedge}: the sum and the difference are both ${b.choices[i].sum}.`, "info");
      return;
    }
    kept.signs[i] = kept.signs[i] === "+" ? "-" : "+";
    draw(entry);
    refresh();
  }

  for (const entry of wedges) {
    draw(entry);
    entry.path.setAttribute("role", "switch");
    entry.path.setAttribute("aria-checked", String(!b.choices[entry.wedge - 1].same && kept.signs[entry.wedge - 1] === "-"));
    // (a click on the wedge reaches it through the board's one listener, render())
    entry.activate = () => {
      toggle(entry);
      entry.path.setAttribute("aria-checked", String(kept.signs[entry.wedge - 1] === "-"));
    };
  }

  const setAll = (sign) => {
    kept.signs = b.choices.map(() => sign);
    for (const entry of wedges) draw(entry);
    refresh();
  };
  const tools = h("div", { class: "pt-tools" },
    h("button", { type: "button", class: "pt-all secondary", onclick: () => setAll("+") }, "All sums"),
    h("button", { type: "button", class: "pt-all secondary", onclick: () => setAll("-") }, "All differences"));

  controls.append(
    h("p", { class: "pt-label" }, h("span", { class: "pt-preview-tag" }, "Preview"), ` Ring ${ring}, not played yet`,
      h("span", { class: "pt-how" }, ": tap a wedge to switch it between the sum (+) and the difference (−) of the two numbers inside it"), "."),
    valuesLine, summary, h("div", { class: "pt-actions" }, play, h("span", { class: "pt-notation-label" }, "as ", signsLine), tools));
  refresh();
}

// -- per-ring score list -----------------------------------------------------------

/** The table's rows for the scored rings from the `from`th on. */
function ringScoreRows(view, from = 0) {
  const b = view.board;
  return b.ring_scores.slice(from).map((rs) => {
    const values = b.rings[rs.ring] ?? [];
    const count = rs.primes.filter(Boolean).length;
    return h("tr", { class: `seat-${rs.seat}` },
      h("th", { scope: "row" }, `Ring ${rs.ring}`),
      h("td", {}, h("span", { class: `pt-seat-swatch seat-${rs.seat}`, "aria-hidden": "true" }), seatName(view, rs.seat)),
      h("td", { class: "pt-ring-values" }, values.flatMap((v, i) => [
        i ? " " : "",
        rs.primes[i] ? h("span", { class: "pt-prime-text", title: "prime" }, String(v)) : h("span", {}, String(v)),
      ])),
      h("td", { class: "pt-ring-score" }, String(rs.score), h("span", { class: "pt-why" }, ` (${count} prime${count === 1 ? "" : "s"})`)));
  });
}

function ringScoreList(view) {
  const b = view.board;
  if (!b.ring_scores.length) return h("div", { class: "pt-scores empty" });
  const rows = ringScoreRows(view);
  // (open on the page; folded in a frame, where the board comes first)
  return h("details", { class: "pt-scores", open: !document.documentElement.classList.contains("embed-page") },
    h("summary", {}, "Rings scored"),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Ring"), h("th", { scope: "col" }, "By"),
        h("th", { scope: "col" }, "Values (primes circled)"), h("th", { scope: "col" }, "Score"))),
      h("tbody", {}, rows)));
}

// -- keyboard: one roving tab stop over the targets, arrows go round the ring ------

/** One Tab stop over the board's targets: the wedge last focused, else the first free one. */
function settleFocus(state) {
  const { targets } = state;
  if (!targets.length) return;
  let start = targets.findIndex((t) => t.wedge === kept.focus && t.kind !== "taken");
  if (start < 0) start = Math.max(0, targets.findIndex((t) => t.kind !== "taken"));
  targets.forEach((t, i) => {
    const wanted = i === start ? "0" : "-1";
    if (t.path.getAttribute("tabindex") !== wanted) t.path.setAttribute("tabindex", wanted);
  });
}

/** The board's keys and focus, once for its <svg>: they read the latest draw's targets. */
function keyboard(svg, state) {
  svg.addEventListener("focusin", (event) => {
    const t = state.byPath.get(event.target);
    if (!t) return;
    kept.focus = t.wedge;
    for (const other of state.targets) {
      const wanted = other === t ? "0" : "-1";
      if (other.path.getAttribute("tabindex") !== wanted) other.path.setAttribute("tabindex", wanted);
    }
  });
  svg.addEventListener("keydown", (event) => {
    const { targets } = state;
    const i = targets.findIndex((t) => t.path === event.target);
    if (i < 0) return;
    const n = targets.length;
    let next = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") next = (i + 1) % n;
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = (i - 1 + n) % n;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = n - 1;
    if (next !== null) {
      event.preventDefault();
      targets[next].path.focus();
      return;
    }
    const t = targets[i];
    if ((event.key === "Enter" || event.key === " ") && t.kind === "ring") {
      event.preventDefault();
      event.stopPropagation();
      t.activate?.();
    } else if (t.kind !== "ring" && /^[0-9]$/.test(event.key)) {
      // Typing a free number selects it in the palette (1…9; 0 means 10).
      const v = event.key === "0" ? 10 : Number(event.key);
      const controls = svg.closest(".pt-board")?.querySelector(".pt-controls");
      if (controls?.selectValue && controls.querySelector(`[data-value="${v}"]`)) controls.selectValue(v);
    }
  });
}
