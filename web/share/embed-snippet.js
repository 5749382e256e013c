// The full site's "Embed" dialog: a copy-and-paste <iframe> for the game on
// screen, pointing at embed.html beside the current page (so it works from any
// host and sub-path), with the record in the fragment and the options in the
// query. See embed.js for what the embed does with them. A puzzle's embed
// (mode=puzzle, the puzzle's id in the fragment) is written the same way,
// from the puzzle page.
//
// The frame's poster shows the position it opens at before any Python loads:
// the snippet carries it after the record, as `!poster.<payload>` in the
// fragment (poster.js), made here from the engine's view of that position
// (this page has the engine running). The fragment is never sent to the host's
// server, so its length costs no request line.

import { h } from "../ui/dom.js";
import { LONG_LINK, downloadWords, joinFragment, makePoster } from "./poster.js";
import { longLinkNote } from "./share.js";

// (480 x 680: every game, in play and in replay, fits with its board first and its targets tappable: e2e/test_frames.py)
const DEFAULTS = { mode: "play", ply: null, theme: "light", start: "click", autoplay: false, width: 480, height: 680, responsive: false };

/** The embed's absolute address for `record` and `options` (see DEFAULTS),
 * with the `poster` payload (poster.js) after the record when there is one. */
export function embedURL(record, options = {}, base = location.href, poster = null) {
  const o = { ...DEFAULTS, ...options };
  const url = new URL("embed.html", base);
  const query = new URLSearchParams();
  if (o.mode !== "play") query.set("mode", o.mode);
  if (o.mode === "learn") {
    // a lesson is named by its game; it carries no record and no poster
    query.set("game", o.game);
    if (o.theme !== DEFAULTS.theme) query.set("theme", o.theme);
    if (o.start !== "click") query.set("start", o.start);
    url.search = query.toString();
    return url.href;
  }
  if (o.ply != null && o.mode !== "puzzle") query.set("ply", String(o.ply));
  if (o.theme !== DEFAULTS.theme) query.set("theme", o.theme);
  if (o.start !== "click") query.set("start", o.start);
  if (o.autoplay && o.mode === "replay") query.set("autoplay", "1");
  url.search = query.toString();
  url.hash = joinFragment(encodeURIComponent(record), poster);
  return url.href;
}

function attr(text) {
  return String(text).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The one line of the optional host script (embed-host.js beside the
 * embed), which lets a page's frames take the height of their content. */
export function hostScriptSnippet(base = location.href) {
  return `<script src="${attr(new URL("embed-host.js", base).href)}" async></script>`;
}

/** A game's lesson on the full site (index.html#learn=<game id>). */
export function learnURL(gameId, base = location.href) {
  const url = new URL("index.html", base);
  url.search = "";
  url.hash = `learn=${encodeURIComponent(gameId)}`;
  return url.href;
}

/** The game's address on the full site (index.html beside the embed). */
export function gameURL(record, base = location.href) {
  const url = new URL("index.html", base);
  url.search = "";
  url.hash = encodeURIComponent(record);
  return url.href;
}

/** The <iframe> snippet, as HTML text, with a plain link to the game after
 * it: where a site strips iframes (newsletters, feeds, many hosted editors)
 * the link is still there. */
export function embedSnippet(record, gameName, options = {}, base = location.href, poster = null) {
  const o = { ...DEFAULTS, ...options };
  const width = o.responsive ? "100%" : String(o.width);
  const learn = o.mode === "learn";
  return `<iframe src="${attr(embedURL(record, o, base, poster))}" title="${attr(learn ? `Learn ${gameName}, a game by Leroy Quet` : `${gameName}, a game by Leroy Quet`)}" `
    + `width="${attr(width)}" height="${attr(String(o.height))}" loading="lazy" style="border:0;max-width:100%"></iframe>\n`
    + (learn ? `<p><a href="${attr(learnURL(o.game, base))}">Learn to play ${attr(gameName)}</a> (a game by Leroy Quet)</p>`
      : `<p><a href="${attr(gameURL(record, base))}">Play this ${attr(gameName)} game</a> (a game by Leroy Quet)</p>`);
}

// For sites that take no iframe: a named link, as HTML for sites that keep
// links but strip frames (sanitized comment boxes and editors: what bleach and
// nh3 let through), and as Markdown for sites that escape HTML.

/** `<a href="url">words</a>`: a named link in HTML. */
export function linkSnippet(url, words) {
  return `<a href="${attr(url)}">${attr(words)}</a>`;
}

/** `[words](url)`: a named link in Markdown (CommonMark), its words and
 * address escaped so that neither can end the link early. */
export function markdownSnippet(url, words) {
  const text = String(words).replace(/[\\[\]*_`<>]/g, (c) => `\\${c}`);
  const address = String(url).replace(/[()\s<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
  return `[${text}](${address})`;
}

/** A puzzle's address on the full site (index.html#puzzle=<id>). */
export function puzzlePageURL(id, base = location.href) {
  const url = new URL("index.html", base);
  url.search = "";
  url.hash = `puzzle=${encodeURIComponent(id)}`;
  return url.href;
}

/** The puzzle embed's <iframe> snippet (embed.html?mode=puzzle#<id>), with
 * the plain link to the puzzle on the full site after it, as for a game. */
export function puzzleSnippet(id, gameName, options = {}, base = location.href, poster = null) {
  const o = { ...DEFAULTS, ...options, mode: "puzzle", ply: null, autoplay: false };
  const width = o.responsive ? "100%" : String(o.width);
  return `<iframe src="${attr(embedURL(id, o, base, poster))}" title="${attr(`A puzzle of ${gameName}, a game by Leroy Quet`)}" `
    + `width="${attr(width)}" height="${attr(String(o.height))}" loading="lazy" style="border:0;max-width:100%"></iframe>\n`
    + `<p><a href="${attr(puzzlePageURL(id, base))}">Try this ${attr(gameName)} puzzle</a> (a game by Leroy Quet)</p>`;
}

let stylesLinked = false;

function linkStyles() {
  if (stylesLinked || document.querySelector('link[href="embed.css"]')) return;
  stylesLinked = true;
  document.head.append(h("link", { rel: "stylesheet", href: "embed.css" }));
}

function radios(name, legend, choices, checked) {
  return h("fieldset", {},
    h("legend", {}, legend),
    h("div", { class: "choices" }, choices.map(([value, words]) => h("label", {},
      h("input", { type: "radio", name, value, checked: value === checked }), words))));
}

/** Mark `input` as holding a value that is refused (or not). */
function invalid(input, bad) {
  if (bad) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}

/** The Colours fieldset: light (the embed's default, as most blogs are),
 * dark, or the reader's system setting, said under it in words. */
function colours() {
  const fieldset = radios("theme", "Colours", [["light", "Light"], ["dark", "Dark"], ["auto", "Follow the reader's system"]], DEFAULTS.theme);
  fieldset.querySelector('input[value="auto"]').setAttribute("aria-describedby", "embed-theme-said");
  fieldset.append(h("p", { class: "hint", id: "embed-theme-said" }, "Follow the reader's system: light or dark, whichever the reader's device or browser is set to. Light suits most pages."));
  return fieldset;
}

function whole(value, min, max) {
  const n = Number(value);
  return Number.isInteger(n) && n >= min && n <= max ? n : null;
}

/** The size fieldset and a reader of it: {fieldset, read(data, errors) -> {responsive, width, height}}. */
function sizeFields() {
  const width = h("input", { type: "number", name: "width", min: "200", max: "4000", step: "10", value: String(DEFAULTS.width) });
  const height = h("input", { type: "number", name: "height", min: "200", max: "4000", step: "10", value: String(DEFAULTS.height) });
  const fieldset = h("fieldset", {},
    h("legend", {}, "Size"),
    h("div", { class: "choices" },
      h("label", {}, h("input", { type: "radio", name: "size", value: "fixed", checked: true }), "Fixed width"),
      h("label", {}, h("input", { type: "radio", name: "size", value: "responsive" }), "Responsive (full width of the column)")),
    h("p", { class: "hint" }, "The height is the frame's height on a page without the host script (below); with it, the frame starts at this height and grows to what it shows."),
    h("div", { class: "row" },
      h("label", { class: "field" }, "Width (px)", width),
      h("label", { class: "field" }, "Height (px)", height)));
  const read = (data, errors) => {
    const responsive = data.get("size") === "responsive";
    const w = whole(width.value, 200, 4000);
    const hgt = whole(height.value, 200, 4000);
    const badWidth = !responsive && w == null;
    if (badWidth) errors.push(`The width “${width.value}” is not used: it is a whole number of pixels from 200 to 4000.`);
    if (hgt == null) errors.push(`The height “${height.value}” is not used: it is a whole number of pixels from 200 to 4000.`);
    width.disabled = responsive;
    invalid(width, badWidth);
    invalid(height, hgt == null);
    return { responsive, width: w, height: hgt };
  };
  return { fieldset, read };
}

/**
 * The builder dialog around `fields` (the form's own choices, before Colours,
 * Size and Load): read(data, errors) gives the options from the form,
 * poster(options) a promise of the poster payload for them (or of null),
 * snippet(options, poster) and url(options, poster) the code and the address.
 * The code's data-poster says "pending", then "ready" or "none"; Copy waits
 * for it. Returns the dialog, open.
 */
function openBuilder({ heading, fields, read, poster, snippet, url, page, what = "game" }) {
  linkStyles();
  const before = document.activeElement;
  const size = sizeFields();
  // where frames are not allowed: a named link to the page, as HTML and as Markdown
  const plainInputs = [];
  const plainField = (id, label, text) => {
    const field = h("input", { id, class: "plain-snippet", readonly: true, value: text, spellcheck: "false" });
    plainInputs.push(field);
    const said = h("span", { class: "copied", role: "status" });
    const copyIt = h("button", { type: "button", class: "secondary", dataset: { key: `copy-${id}` } }, "Copy");
    field.addEventListener("focus", () => field.select());
    copyIt.addEventListener("click", async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(field.value);
        said.textContent = "Copied.";
      } catch {
        said.textContent = "Selected: press Ctrl+C (⌘C) to copy.";
      }
    });
    return h("div", { class: "field plain-field" }, h("label", { for: id }, label), h("div", { class: "copy-row" }, field, copyIt, said));
  };
  const plain = h("fieldset", { class: "plain-snippets" },
    h("legend", {}, "Where frames are not allowed"),
    h("p", { class: "hint" }, `Some sites take frames out of what you paste, and some show HTML as text (the code above would then appear as code). There, paste one of these: readers get a link that opens the ${what} here.`),
    plainField("embed-link", "HTML link: for sites that keep links but take out frames (comment boxes, many hosted editors)", ""),
    plainField("embed-markdown", "Markdown link: for sites written in Markdown (GitHub, forums, many blogs)", ""));
  const long = h("p", { class: "long-link", role: "note", hidden: true });
  const code = h("textarea", { readonly: true, id: "embed-code", "aria-label": "Embed code", spellcheck: "false",
    placeholder: "No code until the settings above are fixed." });
  const copied = h("span", { class: "copied", role: "status" });
  const copy = h("button", { type: "button", class: "copy" }, "Copy");
  // the optional host script: one line for the whole page, so frames grow to their content
  const hostLine = plainField("embed-host-script", "The host script (optional, once per page, beside the code above):", hostScriptSnippet());
  const hostScript = h("div", { class: "host-script" },
    hostLine,
    h("p", { class: "hint", id: "embed-host-said" },
      `With it, the frame grows to the height of what it shows (an opened list of moves, the analysis) and shrinks back when that is closed. `
      + `Without it, the frame keeps the height in the code and scrolls inside when it needs more.`));
  const preview = h("a", { class: "button secondary", target: "_blank", rel: "noopener" }, "Open the embed in a new tab");
  const problem = h("p", { class: "form-error", role: "alert" });
  const download = h("span", { class: "download-size" }, "a few MB");
  const posterSaid = h("p", { class: "hint poster-said" });
  const close = h("button", { type: "button", class: "close secondary" }, "Close");
  const form = h("form", { class: "embed-form" },
    fields,
    colours(),
    size.fieldset,
    radios("start", `Load the ${what}`, [["click", "When the reader clicks Start"], ["visible", "When the frame scrolls into view"]], DEFAULTS.start),
    h("label", { class: "field", for: "embed-code" }, "Paste this into your page's HTML:"),
    code,
    problem,
    h("div", { class: "copy-row" }, copy, copied, preview),
    long,
    posterSaid,
    hostScript,
    plain,
    h("p", { class: "hint" }, `Under the frame the code has a plain link to the ${what}: where a site strips frames (newsletters, feed readers, many hosted editors) the link still leads readers to it.`),
    what === "game"
      ? h("p", { class: "hint picture-advice" }, "For those places, a picture does better than a bare link: save the position with Picture (under “Share this game”; a PNG goes everywhere, an animated GIF shows the moves), put the picture in your post, and put the link under it, or make the picture itself the link.")
      : null,
    h("p", { class: "hint download-said" }, `The ${what} loads only when asked (about `, download, ` of Python, once per reader’s browser). The frame talks to no server but this site.`));
  // the download's size, from this build's own list of files (the figure the loading bar gives)
  fetch(new URL("build.json", location.href)).then((r) => (r.ok ? r.json() : null)).then((info) => {
    const words = downloadWords(info);
    if (words) download.textContent = words;
  }).catch(() => {});

  const options = () => {
    const data = new FormData(form);
    const errors = [];
    const own = read(data, errors);
    return { errors, options: { ...own, theme: data.get("theme"), start: data.get("start"), ...size.read(data, errors) } };
  };
  let asked = 0; // the latest options' poster: an older one arriving late is dropped
  let posterDone = Promise.resolve();
  const update = () => {
    const run = ++asked;
    const { errors, options: o } = options();
    problem.textContent = errors.join(" ");
    const refused = errors.length > 0;
    for (const button of [copy]) button.disabled = refused;
    const write = (payload, state) => {
      // a setting refused: no code at all, rather than a code that quietly keeps the one before
      code.value = refused ? "" : snippet(o, payload);
      code.dataset.refused = refused ? "yes" : "no";
      preview.href = url(o, payload);
      if (refused) preview.removeAttribute("href");
      // the page's link; once its own poster is made (a game's: `posterURL`), that link instead
      const target = page(o);
      const plainLinks = (address) => {
        [plainInputs[0].value, plainInputs[1].value] = [linkSnippet(address, target.words), markdownSnippet(address, target.words)];
      };
      plainLinks(target.url);
      target.posterURL?.then((address) => { if (address && run === asked) plainLinks(address); });
      longLinkNote(long, preview.href, { what: "embed's address" });
      code.dataset.poster = state;
      posterSaid.textContent = state === "ready"
        ? `Before the ${what} loads, the frame shows this position. It is written in the frame's address after the #, a part that browsers never send to any server.`
        : state === "none" ? `The frame's poster will show the ${what}'s name only: the position could not be added to its address.` : "";
    };
    copied.textContent = "";
    write(null, "pending");
    posterDone = Promise.resolve(poster(o)).catch(() => null).then((payload) => {
      if (run === asked) write(payload, payload ? "ready" : "none");
    });
  };
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  form.addEventListener("submit", (event) => event.preventDefault());
  code.addEventListener("focus", () => code.select());
  copy.addEventListener("click", async () => {
    await posterDone; // (the code with its poster, if it is still being made)
    code.select();
    try {
      await navigator.clipboard.writeText(code.value);
      copied.textContent = "Copied.";
    } catch {
      // no clipboard access (e.g. plain http on another host): the text is selected
      copied.textContent = document.execCommand?.("copy") ? "Copied." : "Selected: press Ctrl+C (⌘C) to copy.";
    }
  });

  const title = h("h2", { id: "embed-builder-title", tabindex: "-1" }, heading);
  const dialog = h("dialog", { class: "embed-builder", "aria-labelledby": "embed-builder-title" },
    h("div", { class: "sheet" },
      h("div", { class: "dialog-head" }, title, close),
      form));
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
  dialog.addEventListener("close", () => {
    dialog.remove();
    if (before instanceof HTMLElement && before.isConnected) before.focus();
  });
  update();
  document.body.append(dialog);
  dialog.showModal();
  // opened at its top, on a phone too: the heading takes focus, and nothing scrolls to a button further down
  title.focus({ preventScroll: true });
  dialog.scrollTop = 0;
  return dialog;
}

/**
 * Open the Embed dialog for a game. game: {record, name, plies, notes} — plies
 * is the number of moves in the record (the largest starting move); notes:
 * the game has comments or side lines (then "Replay with comments" is offered).
 */
export function openEmbedDialog({ record, name, game = null, plies, notes = false, over = false, ask = engineAsk }) {
  const ply = h("input", { type: "number", name: "ply", min: "0", max: String(plies), step: "1", placeholder: "latest", inputmode: "numeric" });
  const fields = [
    radios("mode", "What readers can do", [
      ["play", "Play on from the position"],
      ["replay", "Replay only, stepped by the reader (« ‹ › », with the comments and side lines)"],
      // (a replay that plays itself through once started: autoplay=1)
      ...(notes ? [["story", "Replay that plays itself: once started it moves on by itself from the start, a move every 1.5 seconds and longer on a comment, to read it (readers can pause or step)"]] : []),
      // (a lesson of the game, not this game: beside an annotated game in a post, "learn to play first")
      ...(game ? [["learn", `A one-minute lesson of ${name} (learn by playing: small tasks, then a short game against the computer; not this game)`]] : []),
    // (a finished game is nearly always shown as a replay; one in progress, to play on)
    ], over ? "replay" : "play"),
    h("div", { class: "row" },
      h("label", { class: "field start-at" }, `Start at move (0 to ${plies}; empty: the game as it stands)`, ply)),
  ];
  const read = (data, errors) => {
    let startPly = null;
    // a lesson is not this game: a start move means nothing there
    ply.disabled = data.get("mode") === "learn";
    invalid(ply, false);
    if (ply.disabled) return { mode: "learn", autoplay: false, ply: null, game };
    if (ply.value.trim() !== "") {
      startPly = whole(ply.value, 0, plies);
      if (startPly == null) errors.push(`The start move “${ply.value}” is not used: it is a whole number from 0 to ${plies}.`);
      invalid(ply, startPly == null);
    }
    return { mode: data.get("mode") === "story" ? "replay" : data.get("mode"), autoplay: data.get("mode") === "story", ply: startPly, game };
  };
  // the poster of the position the frame opens at: the move asked for, the
  // start for a replay that plays itself through, else the game as it stands
  const posters = new Map(); // ply -> Promise of the payload
  const posterAt = (at) => {
    if (!posters.has(at)) {
      posters.set(at, ask("at", { record, ply: at })
        .then((answer) => makePoster(answer.view, { key: record, ply: at, plies }))
        .catch(() => null));
    }
    return posters.get(at);
  };
  return openBuilder({
    heading: `Embed this game of ${name}`, fields, read,
    poster: (o) => (o.mode === "learn" ? null : posterAt(o.autoplay && o.ply == null ? 0 : o.ply ?? plies)),
    snippet: (o, poster) => embedSnippet(record, name, o, location.href, poster),
    url: (o, poster) => embedURL(record, o, location.href, poster),
    page: (o) => (o.mode === "learn"
      ? { url: learnURL(game), words: `Learn to play ${name} in a minute (a game by Leroy Quet)` }
      : { url: gameURL(record), words: `Play this game of ${name} (a game by Leroy Quet)`,
        // with the poster of the game as it stands, as the share panel hands it out (the page draws it before the engine)
        posterURL: posterAt(plies).then((payload) => {
          const address = payload ? gameURL(joinFragment(record, payload)) : null;
          return address && address.length <= LONG_LINK ? address : null;
        }) }),
  });
}

/** The page's engine (this dialog is only opened on a page where it runs). */
async function engineAsk(call, args) {
  const { engine } = await import("../bridge/engine.js");
  return engine.request(call, args, { retry: true });
}

/** Open the Embed dialog for a puzzle (the puzzle page's "Embed this puzzle"):
 * the reader tries the puzzle in the frame (embed.html?mode=puzzle#<id>).
 * view: the engine's view of the puzzle's position, for the frame's poster. */
export function openPuzzleEmbedDialog({ id, name, view = null }) {
  const payload = view ? makePoster(view, { key: id }).catch(() => null) : Promise.resolve(null);
  return openBuilder({
    heading: `Embed this ${name} puzzle`, what: "puzzle",
    fields: h("p", { class: "hint" }, "Readers see the task, try moves on the board (each is answered from the puzzle’s proof), and can ask for the solution."),
    read: () => ({ mode: "puzzle" }),
    poster: () => payload,
    snippet: (o, poster) => puzzleSnippet(id, name, o, location.href, poster),
    url: (o, poster) => embedURL(id, { ...o, mode: "puzzle" }, location.href, poster),
    page: () => ({ url: puzzlePageURL(id), words: `Try this ${name} puzzle (a game by Leroy Quet)` }),
  });
}
