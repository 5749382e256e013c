// Sharing a game: the address is the game, so sharing is copying the link
// (navigator.clipboard, else select-and-copy) or handing it to the system's
// share sheet (navigator.share, where the browser has one). Export shows the
// record as text; import takes a record or a whole link back.

import { h } from "./dom.js";

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

/** The link, a Copy button and (where the browser has one) a Share… button. */
export function shareControls(url, { title = "Quet Games", text = "", id = "share-link" } = {}) {
  const field = h("input", { id, class: "share", readonly: true, value: url, "aria-label": "Link to this game", spellcheck: "false" });
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
      await navigator.share({ title, text, url: field.value });
      said.textContent = "Shared.";
    } catch (error) {
      if (error?.name !== "AbortError") said.textContent = "This browser could not share the link: copy it instead.";
    }
  });
  return h("div", { class: "share-controls" },
    h("div", { class: "share-row" }, field, copy, share),
    said);
}

/**
 * The "Share this game" section of the game page.
 * advice: what to do with the link now ("Send this link to the next player…").
 * record: the text export offers (the public record, as in the link).
 */
export function sharePanel({ url, record, advice, title }) {
  const area = h("textarea", { class: "export-record", readonly: true, rows: 3, spellcheck: "false", "aria-label": "Game record" }, record);
  area.addEventListener("focus", () => area.select());
  const said = h("span", { class: "share-said", role: "status" });
  const copy = h("button", { type: "button", class: "secondary copy-record" }, "Copy the record");
  copy.addEventListener("click", async () => {
    const done = await copyText(area.value, area);
    said.textContent = done ? " Record copied." : " Select the record and copy it.";
  });
  return h("section", { class: "share-panel", id: "share", "aria-labelledby": "share-title" },
    h("h2", { id: "share-title" }, "Share this game"),
    h("p", { class: "share-advice" }, advice),
    shareControls(url, { title, text: advice }),
    h("details", { class: "export" },
      h("summary", {}, "Export the record as text"),
      h("p", { class: "hint" }, "The whole game as text: keep it, or paste it into “Open a game” on the home page."),
      area,
      h("div", {}, copy, said)));
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
