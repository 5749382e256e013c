// Small DOM helpers for the shell. Text always goes in as text nodes: names,
// rules and engine messages never pass through innerHTML.

/** h("p", {class: "x", onclick: f}, "text", child) -> HTMLElement */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === false || value == null) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") {
      for (const [name, data] of Object.entries(value)) if (data != null) el.dataset[name] = data;
    }
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  el.append(...children.flat(Infinity).filter((c) => c != null && c !== false).map((c) => (typeof c === "number" ? String(c) : c)));
  return el;
}

/** The inline part of light Markdown: **bold** runs, `code` runs, plain text. */
function inline(text) {
  return text.split(/(\*\*[^*]+\*\*|`[^`]+`)/).filter((part) => part !== "").map((part) => {
    if (part.length > 4 && part.startsWith("**") && part.endsWith("**")) return h("strong", {}, part.slice(2, -2));
    if (part.length > 2 && part.startsWith("`") && part.endsWith("`")) return h("code", {}, part.slice(1, -1));
    return document.createTextNode(part);
  });
}

/** Rules text in light Markdown (blank-line paragraphs, "- " bullet lists
 * with indented continuation lines, **bold**, `code`, and ``` fenced blocks
 * kept line for line in a <pre>) as a list of elements built from text nodes
 * only: nothing of the text is ever parsed as HTML. */
export function richText(text) {
  const blocks = [];
  let para = [];
  let list = null;
  let fence = null; // the lines of an open ``` block
  const flushPara = () => {
    if (para.length) blocks.push(h("p", {}, inline(para.join(" ").replace(/\s+/g, " ").trim())));
    para = [];
  };
  const closeFence = () => {
    blocks.push(h("pre", { class: "rules-pre" }, h("code", {}, fence.join("\n"))));
    fence = null;
  };
  for (const raw of String(text ?? "").split("\n")) {
    const line = raw.trim();
    if (fence) {
      if (line.startsWith("```")) closeFence();
      else fence.push(raw.replace(/\s+$/, ""));
      continue;
    }
    if (line.startsWith("```")) {
      flushPara();
      list = null;
      fence = [];
      continue;
    }
    if (line === "") {
      flushPara();
      list = null;
      continue;
    }
    const bullet = /^[-*]\s+(.*)$/.exec(line);
    if (bullet) {
      flushPara();
      if (!list) blocks.push((list = h("ul")));
      list.append(h("li", {}, inline(bullet[1])));
    } else if (list && /^\s{2,}/.test(raw)) {
      // an indented continuation line belongs to the last bullet
      list.lastChild.append(" ", ...inline(line));
    } else {
      list = null;
      para.push(line);
    }
  }
  if (fence) closeFence(); // an unclosed block still shows its lines
  flushPara();
  return blocks;
}

/** The first sentence of a summary, for one line on a card. */
export function firstSentence(text) {
  // a sentence ends at . ! or ? followed by a capital (not at "1, 2, 3, ... with")
  const match = /^.*?[^.][.!?](?=\s+[A-Z]|$)/s.exec(String(text ?? "").trim());
  return (match ? match[0] : String(text ?? "")).replace(/\s+/g, " ");
}

/** One delegated handler on `el` for the moves drawn in it: a click on an
 * element with data-move (not disabled, not inert), or Enter or Space on one
 * that is not a button (a button's own click covers those), plays that move:
 * play(notation). Board modules built on svg.js handle their own targets and
 * stop the event; this catches the rest (a ring's Play button, a pick). */
export function playsDataMoves(el, play) {
  el.addEventListener("click", (event) => {
    const target = event.target.closest?.("[data-move]");
    if (target && el.contains(target) && !target.closest("[disabled], [inert]")) {
      event.preventDefault();
      play(target.dataset.move);
    }
  });
  el.addEventListener("keydown", (event) => {
    const target = event.target.closest?.("[data-move]");
    if (target && (event.key === "Enter" || event.key === " ") && target.tagName !== "BUTTON") {
      event.preventDefault();
      play(target.dataset.move);
    }
  });
}

/** A seat's name as the view gives it, else "Player n". */
export function seatName(view, seat) {
  return view.seats?.[seat]?.name || `Player ${seat + 1}`;
}

/** Seat names in words: "Alice", "Alice and Bob", "Alice, Bob and Cleo". */
export function listInWords(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** Show `text` to the player: errors and warnings interrupt (#message,
 * role=alert); other news is polite (#note). The other box is cleared. Both
 * are heard, not seen: the words are seen in the answer line at the board's
 * top edge (#answer, aria-hidden: view/answer.js), where the eye is. An empty
 * text clears them all. */
export function showMessage(text, kind = "info") {
  const alert = document.getElementById("message");
  const note = document.getElementById("note");
  if (kind === "error" || kind === "warning") {
    if (note) note.textContent = "";
    if (alert) {
      alert.textContent = text;
      alert.dataset.kind = kind;
    }
  } else {
    if (alert) alert.textContent = "";
    if (note) note.textContent = text;
  }
  // kind "echo": words already shown where the eye is (the hint, in the bar over
  // the board); the note only says them to a screen reader
  note?.classList.toggle("echo", kind === "echo");
  const seen = document.getElementById("answer");
  if (seen) {
    const shown = kind === "echo" ? "" : text;
    if (seen.textContent !== shown) seen.textContent = shown;
    seen.dataset.kind = kind;
    seen.hidden = !shown;
  }
}

/** The embedded game's status line (#status): the engine's words for the
 * position, and for a game over why it ended (`reason`, view.end_reason),
 * under it. One maker for the poster and the game alike, so nothing moves on
 * Start. */
export function statusLine(status, { over = false, reason = null, extra = "" } = {}, drawn = null) {
  const why = over && typeof reason === "string" && reason ? ` ${reason[0].toUpperCase()}${reason.slice(1)}.` : "";
  const text = why && !/[.!]$/.test(status) ? `${status}.` : status;
  const cls = ["status", extra, over ? "over" : ""].filter(Boolean).join(" ");
  // `drawn`, a line this made, of plain text: its words changed in place (a move: no element made or taken out)
  if (!why && drawn?.id === "status" && drawn.childNodes.length === 1 && drawn.firstChild.nodeType === Node.TEXT_NODE) {
    if (drawn.className !== cls) drawn.className = cls;
    drawn.firstChild.data = text;
    return drawn;
  }
  return h("p", { id: "status", class: cls }, text, why ? h("span", { class: "end-reason" }, why) : null);
}

/** Resolves once every stylesheet linked so far has loaded (or failed): a
 * board drawn before its sheet would be laid out twice, and jump. */
export function stylesLoaded() {
  const waiting = [...document.querySelectorAll('link[rel="stylesheet"]')].filter((link) => !link.sheet);
  return Promise.all(waiting.map((link) => new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  })));
}
