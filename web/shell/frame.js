// The embed's board fitted to its frame (embed.js): shrunk, keeping its shape,
// until the frame needs no scrolling, and, where the host page runs the host
// script (web/embed-host.js), the frame grown to what the content asks for.
// Kept apart from the embed's screens because it reads only the layout: it
// knows no game, no engine and no poster, only the boxes on the page.
//
// A host page that runs the host script says hello to this frame from its
// own origin; from then on the board is fitted to the height the frame had
// then (the snippet's), and the content's height, more (a panel opened, the
// analysis drawn) or less (a poster, a short game), is asked of the host as
// the frame's height, posted to that origin only. Without a hello nothing is posted but the
// opening "ready", which carries nothing.
//
// Hooks for tests: <html data-grows="yes"> once a host said hello, and
// <html data-fit="WxH">, the frame's size the board was last fitted to.

const MIN_BOARD_PX = 160; // a frame smaller than the board's surroundings and this scrolls instead

/**
 * Start fitting the board inside `stage` (the frame's #embed) to the frame:
 * says "ready" to the host page, listens for its hello, and refits on a
 * resize and whenever a part of the frame changes size. Returns fitBoard(),
 * for the embed to call after each drawing.
 */
export function fitToFrame(stage) {
  const root = document.documentElement;
  let grower = null; // {origin, base}: the host that said hello, and the frame's height then

  window.addEventListener("message", (event) => {
    if (event.source !== window.parent || window.parent === window) return;
    if (event.data?.type !== "quetgames:hello" || typeof event.origin !== "string" || event.origin === "null") return;
    grower ??= { origin: event.origin, base: window.innerHeight };
    grower.origin = event.origin;
    root.dataset.grows = "yes";
    // The layout's sizes that follow the frame's height (vh in the style sheets)
    // follow the snippet's height from now on, not the frame's: a frame that
    // shrank to its content would shrink the board, then the content, and so on.
    root.style.setProperty("--frame-vh", `${grower.base / 100}px`);
    fitBoard();
  });
  if (window.parent !== window) window.parent.postMessage({ type: "quetgames:ready" }, "*");

  /** The height the frame's content takes, in CSS pixels: the bottom of the
   * last of the frame's parts, then the foot. Not the foot's own place: the
   * page's column (style.css: main grows to fill the body) puts the foot at
   * the frame's bottom whenever the content is shorter, so a frame grown once
   * would find its foot there and never shrink back, leaving an empty band
   * above the foot (issue 49: 97 px after an analysis was drawn). */
  function contentHeight() {
    const foot = document.querySelector(".embed-foot");
    if (!foot) return Math.ceil(document.documentElement.scrollHeight);
    const style = getComputedStyle(stage);
    let bottom = stage.getBoundingClientRect().top + parseFloat(style.paddingTop);
    // (the game view's box is display: contents: its regions are the column's items)
    const items = [...stage.children].flatMap((el) => (getComputedStyle(el).display === "contents" ? [...el.children] : [el]));
    for (const item of items) {
      // (only what is in the column's flow moves the foot: a line laid over the board does not)
      if (["absolute", "fixed"].includes(getComputedStyle(item).position)) continue;
      const r = item.getBoundingClientRect();
      if (r.width > 0 || r.height > 0) bottom = Math.max(bottom, r.bottom);
    }
    const below = parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth) + foot.getBoundingClientRect().height;
    return Math.ceil(bottom + below + window.scrollY);
  }

  let askedHeight = 0;

  /** Ask the host for the content's height, if it can size the frame: larger
   * than the snippet's height (a panel opened, a board kept at its tappable
   * size) or smaller (a poster, a short game: no blank band under the foot).
   * (150: the host script's smallest.) */
  function askHeight() {
    if (!grower) return;
    const height = Math.max(150, contentHeight());
    if (height === askedHeight) return;
    askedHeight = height;
    window.parent.postMessage({ type: "quetgames:height", height }, grower.origin);
  }

  /** Shrink the board (keeping its shape) until the frame needs no scrolling,
   * down to a readable minimum; boards that scroll sideways on purpose (a zoomed
   * big grid) are left alone. The height left over is only known by measuring. */
  function fitBoard() {
    fitBoardNow();
    // (the frame's size the board was last fitted to: what a host page, or a test, can wait for after a resize)
    root.dataset.fit = `${window.innerWidth}x${window.innerHeight}`;
  }

  function fitBoardNow() {
    watchParts();
    const svgs = [...stage.querySelectorAll("#board svg")];
    if (svgs.length === 0) return askHeight();
    const area = (el) => { const r = el.getBoundingClientRect(); return r.width * r.height; };
    const main = svgs.reduce((a, b) => (area(b) > area(a) ? b : a));
    main.style.maxWidth = "";
    const box = main.parentElement?.classList.contains("grid-scroll") ? main.parentElement : null;
    // (measured at its natural height; where it scrolled to is put back after)
    const scrolled = box ? [box.scrollLeft, box.scrollTop] : null;
    if (box) box.style.maxHeight = box.style.overflowY = "";
    try {
      fitMain(main, box);
    } finally {
      if (box) [box.scrollLeft, box.scrollTop] = scrolled;
    }
    askHeight();
  }

  /** Fit `main`, the board's drawing (in its scrolling `box`, if a grid's), from its natural size. */
  function fitMain(main, box) {
    // (a board drawn at a size of its own, a lesson's, is left alone; a zoomed grid keeps its size, in its box)
    const natural = getComputedStyle(main).maxWidth === "none";
    const zoomedIn = natural && (box?.classList.contains("zoom") ?? false);
    if (natural && !zoomedIn) return;
    // The board is fitted to the frame with its panels folded: a panel the
    // reader opens (the moves, the analysis) adds to the frame's height (it
    // scrolls, or, with the host script, grows) and never shrinks the board.
    const opened = [...stage.querySelectorAll("details.embed-panel[open]")]
      .reduce((sum, panel) => sum + panel.offsetHeight - (panel.querySelector("summary")?.offsetHeight ?? 0), 0);
    const overflow = contentHeight() - opened - (grower ? grower.base : window.innerHeight);
    const rect = main.getBoundingClientRect();
    if (overflow <= 0 || rect.height === 0) return;
    // never below the width its squares need to be tapped (data-min-width, grid.js:
    // 24 CSS px a square), and only where there is something to tap (a replay's
    // board is a picture). A board that still does not fit at that size: with the
    // host script the frame grows to it; without, the board scrolls in its own
    // box, as high as the frame leaves (grid.js keeps the move in view).
    const minWidth = main.querySelector("[data-move], [data-try]") ? Number(main.dataset.minWidth || 0) : 0;
    const floor = zoomedIn ? rect.height : minWidth * (rect.height / rect.width);
    const room = rect.height - overflow;
    const height = Math.max(MIN_BOARD_PX, floor, room);
    if (height < rect.height) main.style.maxWidth = `${Math.floor((rect.width * height) / rect.height)}px`;
    if (box && !grower && floor > room) {
      box.style.overflowY = "auto";
      box.style.maxHeight = `${Math.floor(Math.max(MIN_BOARD_PX, room))}px`;
    }
  }

  let fitFrame = 0;
  const fitSoon = () => {
    cancelAnimationFrame(fitFrame);
    fitFrame = requestAnimationFrame(() => fitBoard());
  };
  window.addEventListener("resize", fitSoon);
  // The frame's content changes size without a draw of ours too: a board's
  // stylesheet arriving after its first drawing, a panel opened, a font. The fit
  // is a function of the layout alone (it starts from the board's natural size),
  // so it settles at once: the size it sets is the size the next look finds.
  const sizes = typeof ResizeObserver === "function" ? new ResizeObserver(fitSoon) : null;
  for (const part of [stage, document.querySelector(".embed-head"), document.querySelector(".embed-foot")]) if (part) sizes?.observe(part);

  /** Watch the size of every part of the frame's game (parts drawn anew are
   * watched as they come; one watched already is not watched twice). */
  function watchParts() {
    for (const part of stage.querySelectorAll(":scope > * > *, #board > *, #board svg")) sizes?.observe(part);
  }

  return fitBoard;
}
