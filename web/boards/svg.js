// Shared helpers for the SVG boards: building SVG elements, turning an element
// into a move target, and arrow-key focus between targets in board geometry.
// No rule lives here: callers say which notation a target plays and whether it
// is legal (data-move) or only a try (data-try, so the engine explains why not).
//
// API
//   svg(tag, attrs, ...children) -> SVGElement
//       attrs: plain attributes; `class` (string or array, falsy parts dropped),
//       `dataset` (object), `text` (text content), `on<event>` (listener).
//       null/false/undefined attribute values and children are skipped;
//       string/number children become text nodes; arrays are flattened.
//   html(tag, attrs, ...children) -> HTMLElement        (same conventions)
//   windowWidth() -> the window's width in CSS px, as of the last resize
//   board(width, height, {label, className}) -> <svg viewBox="0 0 w h"> that
//       scales to its container's width (role="group", aria-label=label).
//   describe(el, label) -> el
//       Gives a drawn part that does not play (a filled square, a wedge) its
//       words: aria-label, with role="img" unless it has a role (ARIA names
//       only elements with a role, and an SVG <g> or <path> has none).
//   target(el, {move, tryMove, label, ui, confirm, x, y}) -> el
//       Makes `el` a focusable role="button" with aria-label `label`.
//       move:    notation of a legal one-click move -> data-move, class "target legal"
//       tryMove: notation of a square that is NOT legal -> data-try, class "target try";
//                clicking still calls ui.play so the engine's reason is shown
//       confirm: optional string or () => string|null|Promise; when it gives a
//                text, ui.confirm(text) must say yes before the move is played
//       x, y:    optional board position for rovingFocus (else the bbox centre)
//       When ui.replaying is true nothing is made a target (the board is inert):
//       el is only described.
//       Click, Enter and Space play; the event does not bubble to the shell's
//       delegated data-move handler, so a move is sent exactly once.
//   leaveTabOrder(el)   el plays no more: out of the Tab order (the focused one: tabindex -1)
//   untarget(el, {keepTabindex}) -> el
//       Undoes target() (and its words): el plays nothing until made a target again
//       (boards that keep their elements between draws, grid.js); keepTabindex
//       leaves its tabindex for the caller to take last. target() on a target
//       changes what it plays and keeps its tabindex.
//   rovingFocus(container, {selector}) -> container
//       One Tab stop for the whole board; arrow keys move focus to the nearest
//       target in that direction (by data-x/data-y or bbox centre), Home/End to
//       the first/last. After a keyboard move re-renders the board, focus comes
//       back to the legal target (else any target) nearest the last one used.
//       Called again on the same container (a board kept between draws, its
//       targets changed): the one Tab stop is set again (the focused target,
//       else the first legal one) and the keyboard's place kept as above.
//   thumbnail(width, height, ...children) -> small static <svg> for the home page.
//   setText(el, text)   el's text, written only when it differs (boards drawn in place).

// The window's width, read once and again after each resize. Read during a
// draw, window.innerWidth first lays out whatever the draw has just built (on
// a phone it depends on the page's own width): that was most of a
// Nonconformity board's drawing time (issue 53).
let shownWidth = typeof window === "undefined" ? 0 : window.innerWidth;
if (typeof window !== "undefined") window.addEventListener("resize", () => { shownWidth = window.innerWidth; });
export const windowWidth = () => shownWidth;

export const SVG_NS = "http://www.w3.org/2000/svg";

function apply(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === false || value == null) continue;
    if (key === "class") {
      const cls = Array.isArray(value) ? value.flat(Infinity).filter(Boolean).join(" ") : value;
      if (cls) el.setAttribute("class", cls);
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) if (v != null) el.dataset[k] = v;
    } else if (key === "text") {
      el.textContent = String(value);
    } else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    el.append(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function svg(tag, attrs = {}, ...children) {
  return apply(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function html(tag, attrs = {}, ...children) {
  return apply(document.createElement(tag), attrs, children);
}

/** Set `el`'s text only if it differs (a write, even of the same text, has the browser lay the page out again). */
export function setText(el, text) {
  if (el && el.textContent !== text) el.textContent = text;
}

export function board(width, height, { label = "Board", className = "" } = {}) {
  return svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: ["quet-board", className],
    role: "group",
    "aria-label": label,
    preserveAspectRatio: "xMidYMid meet",
    // Chromium puts a bare <svg> in the Tab order; the targets inside are the stops.
    tabindex: "-1",
  });
}

export function thumbnail(width, height, ...children) {
  return svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "quet-thumb", "aria-hidden": "true", focusable: "false" }, ...children);
}

// -- targets --------------------------------------------------------------------

// Remembered between renders so keyboard play keeps its place on the board.
let lastKeyboard = null; // {x, y, at}

function position(el) {
  const x = el.dataset.x, y = el.dataset.y;
  if (x != null && y != null) return { x: Number(x), y: Number(y) };
  try {
    const b = el.getBBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  } catch {
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }
}

async function activate(el, opts, byKeyboard) {
  const { ui } = opts;
  const notation = opts.move ?? opts.tryMove;
  if (notation == null || !ui || ui.replaying) return;
  if (opts.confirm) {
    const text = typeof opts.confirm === "function" ? await opts.confirm() : opts.confirm;
    if (text) {
      const yes = ui.confirm ? await ui.confirm(text) : window.confirm(text);
      if (!yes) {
        el.focus?.({ preventScroll: true });
        return;
      }
    }
  }
  if (byKeyboard) lastKeyboard = { ...position(el), at: Date.now() };
  else lastKeyboard = null;
  await ui.play(notation);
}

export function describe(el, label) {
  el.setAttribute("aria-label", label);
  if (!el.hasAttribute("role")) el.setAttribute("role", "img");
  return el;
}

export function target(el, opts = {}) {
  const { move, tryMove, label, ui, x, y } = opts;
  if (!ui || ui.replaying || (move == null && tryMove == null)) {
    if (label) describe(el, label);
    return el;
  }
  if (targetOptions.has(el)) {
    // a target already (a board drawn in place): what it plays changes, its tabindex stays
    el.classList.remove(move != null ? "try" : "legal");
    el.removeAttribute(move != null ? "data-try" : "data-move");
  }
  el.classList.add("target", move != null ? "legal" : "try");
  if (move != null) el.dataset.move = move;
  else el.dataset.try = tryMove;
  if (x != null) el.dataset.x = x;
  if (y != null) el.dataset.y = y;
  el.setAttribute("role", "button");
  if (!el.hasAttribute("tabindex")) {
    el.setAttribute("tabindex", "0");
    joined.add(el);
  }
  if (label) el.setAttribute("aria-label", label);
  // (two listeners shared by every target, reading its options: a board of
  // many squares makes no closures for each)
  targetOptions.set(el, opts);
  el.addEventListener("click", onTargetClick);
  el.addEventListener("keydown", onTargetKey);
  return el;
}

const targetOptions = new WeakMap(); // target element -> its target() options
// Targets that joined the Tab order since the last rovingFocus() call (it sets
// them, and forgets them all): a board drawn in place finds its new ones here.
const joined = new Set();

/** An element that plays no more leaves the Tab order. The focused one does
 * so on the next frame, once the board is on screen (changed on the focused
 * element, tabindex makes the browser work out the page's style there and
 * then, to know whether it may keep the focus: milliseconds on a big board);
 * if it still has the focus then, it keeps tabindex -1 until focus leaves. */
export function leaveTabOrder(el) {
  if (el !== document.activeElement) {
    el.removeAttribute("tabindex");
    return;
  }
  requestAnimationFrame(() => {
    if (!el.isConnected || el.classList.contains("target") || !el.hasAttribute("tabindex")) return;
    if (el !== document.activeElement) el.removeAttribute("tabindex");
    else if (el.getAttribute("tabindex") !== "-1") el.setAttribute("tabindex", "-1");
  });
}

export function untarget(el, { keepTabindex = false } = {}) {
  if (!targetOptions.has(el)) return el;
  targetOptions.delete(el);
  el.removeEventListener("click", onTargetClick);
  el.removeEventListener("keydown", onTargetKey);
  el.classList.remove("target", "legal", "try");
  for (const name of ["data-move", "data-try", "data-x", "data-y", "role", "aria-label"]) el.removeAttribute(name);
  // (taking the focused element's tabindex makes the browser work out its style
  // there and then, to know whether it may keep the focus: a board drawn in
  // place takes it last, once, with keepTabindex)
  if (!keepTabindex) leaveTabOrder(el);
  return el;
}

function onTargetClick(event) {
  event.preventDefault();
  event.stopPropagation();
  activate(event.currentTarget, targetOptions.get(event.currentTarget), false);
}

function onTargetKey(event) {
  if (event.key !== "Enter" && event.key !== " ") return;
  event.preventDefault();
  event.stopPropagation();
  activate(event.currentTarget, targetOptions.get(event.currentTarget), true);
}

// -- roving focus -----------------------------------------------------------------

const DIRECTIONS = {
  ArrowRight: [1, 0],
  ArrowLeft: [-1, 0],
  ArrowDown: [0, 1],
  ArrowUp: [0, -1],
};

const roving = new WeakSet(); // containers whose keys rovingFocus already handles
const stops = new WeakMap(); // container -> its one Tab stop

export function rovingFocus(container, { selector = ".target" } = {}) {
  const targets = () => [...container.querySelectorAll(selector)].filter((t) => t.getAttribute("tabindex") !== null);
  const settle = (active) => {
    for (const t of targets()) {
      const wanted = t === active ? "0" : "-1";
      if (t.getAttribute("tabindex") !== wanted) t.setAttribute("tabindex", wanted);
    }
    stops.set(container, active);
  };
  if (roving.has(container)) {
    // Drawn again in place: one Tab stop again, the focused target, else the
    // last stop if it still plays a move, else the first legal target, else
    // the first try. Only the new targets and the old stop are touched, not
    // every square (the rest keep tabindex -1).
    const playing = (el) => el != null && el.isConnected && container.contains(el) && el.matches(selector) && el.hasAttribute("tabindex");
    const active = document.activeElement?.closest?.(selector) ?? null;
    const prev = stops.get(container) ?? null;
    const stop = (playing(active) ? active : null) ?? (playing(prev) && prev.dataset.move != null ? prev : null)
      ?? container.querySelector(`${selector}[data-move][tabindex]`) ?? container.querySelector(`${selector}[tabindex]`);
    for (const t of [...joined, prev]) {
      if (t && t !== stop && playing(t) && t.getAttribute("tabindex") === "0") t.setAttribute("tabindex", "-1");
    }
    joined.clear();
    if (stop && stop.getAttribute("tabindex") !== "0") stop.setAttribute("tabindex", "0");
    stops.set(container, stop);
    afterKeyboardMove(container, targets, settle);
    return container;
  }
  roving.add(container);
  const all = targets();
  joined.clear();
  // One Tab stop: prefer a legal target, else the first try.
  settle(all.find((t) => t.dataset.move != null) ?? all[0]);

  container.addEventListener("focusin", (event) => {
    const t = event.target.closest?.(selector);
    if (t && container.contains(t)) settle(t);
  });
  container.addEventListener("keydown", (event) => {
    const here = event.target.closest?.(selector);
    if (!here || !container.contains(here)) return;
    let next = null;
    const list = targets();
    if (event.key === "Home") next = list[0];
    else if (event.key === "End") next = list[list.length - 1];
    else if (DIRECTIONS[event.key]) {
      const [dx, dy] = DIRECTIONS[event.key];
      const p = position(here);
      let best = Infinity;
      for (const t of list) {
        if (t === here) continue;
        const q = position(t);
        const along = (q.x - p.x) * dx + (q.y - p.y) * dy;
        if (along <= 0.5) continue;
        const across = Math.abs((q.x - p.x) * dy) + Math.abs((q.y - p.y) * dx);
        const score = along + 3 * across;
        if (score < best) { best = score; next = t; }
      }
    } else return;
    event.preventDefault();
    if (next) {
      settle(next);
      next.focus();
    }
  });

  afterKeyboardMove(container, targets, settle);
  return container;
}

/** After a keyboard move the shell redraws the board: put focus back near the
 * square just played, once the new board is in the document. */
function afterKeyboardMove(container, targets, settle) {
  if (lastKeyboard && Date.now() - lastKeyboard.at < 15000) {
    const wanted = lastKeyboard;
    requestAnimationFrame(() => {
      if (!container.isConnected) return;
      lastKeyboard = null;
      const all = targets();
      const legal = all.filter((t) => t.dataset.move != null);
      const list = legal.length ? legal : all; // back to a playable target if there is one
      if (!list.length) return;
      let best = Infinity, pick = list[0];
      for (const t of list) {
        const q = position(t);
        const d = Math.hypot(q.x - wanted.x, q.y - wanted.y);
        if (d < best) { best = d; pick = t; }
      }
      settle(pick);
      pick.focus({ preventScroll: true });
    });
  }
}
