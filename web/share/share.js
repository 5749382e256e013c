// Sharing a game: the address is the game, so sharing is copying the link
// (navigator.clipboard, else select-and-copy) or handing it to the system's
// share sheet (navigator.share, where the browser has one). Export shows the
// record as text; import takes a record or a whole link back. Picture saves
// the position shown as a file (picture.js draws it, on this device).

import { h } from "../ui/dom.js";
import { LONG_LINK } from "./poster.js";

/** Copy `text`; resolves true if it reached the clipboard. `field` (an input
 * holding the text) is selected for the fallback and for copying by hand. */
export async function copyText(text, field = null) {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // refused (no permission, not a secure context): fall back below
  }
  if (!field) return false;
  field.focus();
  field.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}

/** This page's address showing `record`: what the address bar says once the
 * game view has written it (gameview.js writes it after a move's paint). */
export function addressOf(record) {
  return new URL(`#${record}`, location.href).href;
}

/** The link, a Copy button and (where the browser has one) a Share… button. */
export function shareControls(url, { title = "Quet Games", text = "", id = "share-link", label = "Link to this game", record = null, poster = null } = {}) {
  const about = { title, text, record }; // (followNewLink changes them)
  const field = h("input", { id, class: "share", readonly: true, value: url, "aria-label": label, spellcheck: "false" });
  field.addEventListener("focus", () => field.select());
  const said = h("p", { class: "share-said", role: "status", "aria-live": "polite" });
  const copy = h("button", { type: "button", class: "copy-link", dataset: { key: "copy-link" } }, "Copy link");
  copy.addEventListener("click", async () => {
    const done = await copyText(field.value, field);
    said.textContent = done ? "Link copied: paste it into a message." : "Select the link above and copy it (Ctrl+C, or hold and Copy on a phone).";
    said.dataset.kind = done ? "copied" : "select";
    if (!done) field.select();
  });
  const share = typeof navigator.share === "function"
    ? h("button", { type: "button", class: "secondary share-button", dataset: { key: "share" } }, "Share…")
    : null;
  share?.addEventListener("click", async () => {
    try {
      await navigator.share({ title: about.title, text: about.text, url: field.value });
      said.textContent = "Shared.";
    } catch (error) {
      if (error?.name !== "AbortError") said.textContent = "This browser could not share the link: copy it instead.";
    }
  });
  const long = h("p", { class: "long-link", role: "note", hidden: true });
  const controls = h("div", { class: "share-controls" },
    h("div", { class: "share-row" }, field, copy, share),
    said, long);
  const sayLength = () => longLinkNote(long, field.value, { record: about.record, name: about.title });
  sayLength();
  // The link with the position's poster, once made (a moment after the panel):
  // whoever opens it sees the board before the engine arrives (still.js).
  // (field.dataset.poster: "pending", then "ready" or "none")
  let asked = 0;
  const withPoster = (make, plain) => {
    const ask = ++asked;
    if (!make) {
      field.dataset.poster = "none";
      return;
    }
    field.dataset.poster = "pending";
    make().catch(() => null).then((better) => {
      if (ask !== asked || field.value !== plain) return;
      field.dataset.poster = better && better !== plain ? "ready" : "none";
      if (field.dataset.poster === "none") return;
      field.value = better;
      sayLength();
    });
  };
  withPoster(poster, url);
  followers.set(controls, (next) => {
    if (field.value === next.url && about.title === next.title && about.text === next.text) return;
    field.value = next.url;
    Object.assign(about, { title: next.title, text: next.text, record: next.record ?? about.record });
    said.textContent = ""; // ("Link copied" was said of the old link)
    delete said.dataset.kind;
    sayLength();
    withPoster(next.poster, next.url);
  });
  return controls;
}

// (how long a link may be before the page warns that some apps cut it: poster.js)
export { LONG_LINK };

/** Fill `note` (hidden when the link is short enough for common apps) with the
 * link's length, which apps may cut it, and a way round: this game as a file
 * (`record`: the game's record, for the file). */
export function longLinkNote(note, url, { record = null, name = "Quet Games", what = "link" } = {}) {
  const length = url.length;
  note.hidden = length <= LONG_LINK;
  if (note.hidden) {
    note.replaceChildren();
    return;
  }
  const file = record ? h("button", {
    type: "button", class: "secondary save-game-file", dataset: { key: "save-game-file" },
    // (a backup file of this one game, as Export writes them: backup.js, loaded when asked)
    onclick: async () => {
      const { backupOf } = await import("./backup.js");
      const backup = backupOf([{ link: record, name, game: null, at: Date.now() }]);
      saveFile(new Blob([JSON.stringify(backup, null, 1)], { type: "application/json" }), "quet-game.json");
    },
  }, "Save this game as a file") : null;
  note.replaceChildren(
    `This ${what} is ${length.toLocaleString("en")} characters long. Discord refuses messages over 2,000 characters and Telegram over 4,096, and some apps cut long links short. `,
    record ? "Send the game as a file instead (it opens with Import on the home page), or remove some comments first. " : "Remove some comments first, or send the game's file. ",
    file ?? "");
}

// What brings a share panel or its controls up to a new link in place: element -> (next) => void
const followers = new WeakMap();

let lastSaved = null; // the blob: URL of the last file saved (one is kept, for saving again)

/** Save `blob` as a file called `name` (a link to a blob: URL, clicked);
 * the link is returned, for saving it again. */
function saveFile(blob, name) {
  if (lastSaved) URL.revokeObjectURL(lastSaved);
  const url = (lastSaved = URL.createObjectURL(blob));
  const link = h("a", { href: url, download: name }, `Save ${name} again`);
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  link.hidden = false;
  return link;
}

const kB = (bytes) => `${Math.max(1, Math.round(bytes / 1000))} kB`;

/**
 * The Picture group: the position shown (the one stepped back to, else the
 * game as it stands) saved as an SVG or PNG file or copied as a picture, or
 * the moves up to it as an animated GIF. shown() -> GameView.shown(), or null
 * when there is nothing to draw. Everything is made here, in the browser.
 * heading: the group has its "Picture" heading (the embed names it with its
 * own folded summary instead); hint: what the buttons do, in a sentence.
 */
export function pictureControls(shown, {
  heading = true,
  hint = "The position on the board (the move you stepped back to, or the game as it stands), with the players, the scores and its comment, as a file to post or print; or the moves up to it as an animation. Made on this device: nothing is sent anywhere.",
} = {}) {
  const said = h("p", { class: "share-said picture-said", role: "status" });
  const buttons = [];
  let stop = null; // while an animation is being made: stops it
  const tell = (...words) => said.replaceChildren(...words);

  const act = (key, words, work) => {
    const button = h("button", { type: "button", class: "secondary", dataset: { key } }, words);
    button.addEventListener("click", async () => {
      if (stop) {
        if (key === "picture-gif") stop.abort();
        return;
      }
      const position = shown();
      if (!position) {
        tell("There is no position to draw just now.");
        return;
      }
      for (const other of buttons) if (other !== button) other.disabled = true;
      try {
        const picture = await import("./picture.js");
        await work(picture, position, button);
      } catch (error) {
        tell(error?.name === "AbortError" ? "The animation was stopped." : `The picture could not be made: ${error?.message ?? error}.`);
      } finally {
        for (const other of buttons) other.disabled = false;
      }
    });
    buttons.push(button);
    return button;
  };
  const saved = (blob, name, what) => {
    const link = saveFile(blob, name);
    tell(`Saved ${name} (${what}). No file in your downloads? `, link, ".");
  };

  act("picture-svg", "Save SVG", async (picture, position) => {
    tell("Drawing the picture…");
    const made = await picture.pictureSvg(position);
    saved(new Blob([made.svg], { type: "image/svg+xml" }), picture.fileName(position, "svg"), `a drawing ${made.width} × ${made.height}, sharp at any size`);
  });
  act("picture-png", "Save PNG", async (picture, position) => {
    tell("Drawing the picture…");
    const made = await picture.picturePng(position);
    saved(made.blob, picture.fileName(position, "png"), `${made.width} × ${made.height} pixels, ${kB(made.blob.size)}`);
  });
  act("picture-copy", "Copy picture", async (picture, position) => {
    if (typeof ClipboardItem !== "function" || !navigator.clipboard?.write) {
      tell("This browser cannot put a picture on the clipboard: use Save PNG and attach the file instead.");
      return;
    }
    tell("Drawing the picture…");
    // the clipboard is asked at once, with the picture to come (some browsers
    // allow it only straight after the click)
    const png = picture.picturePng(position).then((made) => made.blob);
    try {
      await navigator.clipboard.write([new ClipboardItem({ "image/png": png })]);
    } catch {
      await png.catch(() => {});
      tell("This browser would not put the picture on the clipboard here (it allows it only on some pages, or asks for permission): use Save PNG and attach the file instead.");
      return;
    }
    const made = await png;
    tell(`Picture copied (${kB(made.size)}): paste it into a message or a document.`);
  });
  act("picture-gif", "Animated GIF", async (picture, position, button) => {
    stop = new AbortController();
    button.textContent = "Stop the animation";
    try {
      const made = await picture.pictureGif(position, {
        signal: stop.signal,
        onFrame: (step, done, total) => tell(step === "laying out" ? `Laying out the moves: ${done} of ${total}…`
          : step === "drawing" ? `Drawing the moves: ${done} of ${total}…` : `Making the animation: frame ${done} of ${total}…`),
      });
      saved(made.blob, picture.fileName(position, "gif"), `${made.frames} ${made.frames === 1 ? "frame" : "frames"}, one a move, ${made.width} × ${made.height} pixels, ${kB(made.blob.size)}`);
    } finally {
      stop = null;
      button.textContent = "Animated GIF";
    }
  });

  return h("div", { class: "picture-group", role: "group", ...(heading ? { "aria-labelledby": "picture-title" } : { "aria-label": "Picture" }) },
    heading ? h("h3", { id: "picture-title" }, "Picture") : null,
    h("p", { class: "hint" }, hint),
    h("div", { class: "picture-buttons" }, buttons),
    said);
}

/**
 * The "Share this game" section of the game page.
 * advice: what to do with the link now ("Send this link to the next player…").
 * record: the text export offers (the public record, as in the link).
 * shown: () -> the position on screen, for the Picture group (GameView.shown()).
 */
export function sharePanel({ url, record, advice, title, poster = null }, { shown = null } = {}) {
  const area = h("textarea", { class: "export-record", readonly: true, rows: 3, spellcheck: "false", "aria-label": "Game record" }, record);
  area.addEventListener("focus", () => area.select());
  const said = h("span", { class: "share-said", role: "status" });
  const copy = h("button", { type: "button", class: "secondary copy-record" }, "Copy the record");
  copy.addEventListener("click", async () => {
    const done = await copyText(area.value, area);
    said.textContent = done ? " Record copied." : " Select the record and copy it.";
  });
  const adviceLine = h("p", { class: "share-advice" }, advice);
  const controls = shareControls(url, { title, text: advice, record, poster });
  const section = h("section", { class: "share-panel", id: "share", "aria-labelledby": "share-title" },
    h("h2", { id: "share-title" }, "Share this game"),
    adviceLine,
    controls,
    shown ? pictureControls(shown) : null,
    h("details", { class: "export" },
      h("summary", {}, "Export the record as text"),
      h("p", { class: "hint" }, "The whole game as text: keep it, or paste it into “Open a game” on the home page."),
      area,
      h("div", {}, copy, said)));
  followers.set(section, (next) => {
    if (adviceLine.textContent !== next.advice) adviceLine.textContent = next.advice;
    followers.get(controls)({ url: next.url, title: next.title, text: next.advice, record: next.record, poster: next.poster });
    if (area.value !== next.record) {
      area.value = next.record;
      said.textContent = "";
    }
  });
  return section;
}

/** Bring a panel sharePanel made up to a new link ({url, record, advice, title})
 * in place, as after every move; false if `section` is not one. */
export function followNewLink(section, next) {
  const follow = section && followers.get(section);
  if (!follow) return false;
  follow(next);
  return true;
}

/** Home page: paste a record or a whole link; onOpen(text) -> Promise (a
 * rejection's message is shown in words). */
export function importForm({ onOpen }) {
  const input = h("textarea", { id: "import-text", name: "record", rows: 2, spellcheck: "false", autocomplete: "off", placeholder: "q2.mu.p2_k3.ddbc.i…  or  https://…#q2.mu…" });
  const error = h("p", { id: "import-error", class: "form-error", role: "alert" });
  const form = h("form", { class: "import", id: "import" },
    h("label", { for: "import-text" }, "Paste a game record or a link"),
    input,
    h("div", { class: "form-buttons" }, h("button", { type: "submit" }, "Open the game")),
    error);
  form.addEventListener("input", () => { error.textContent = ""; });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      await onOpen(input.value);
    } catch (err) {
      error.textContent = `That does not open a game: ${err.message}`;
    }
  });
  return h("details", { class: "import-box" },
    h("summary", {}, "Open a game from a record or link"),
    form);
}
