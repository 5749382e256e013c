// "How to play": the sections of a game's help dialog, all from the engine's
// catalog entry (build.json, or the bridge's "games" call): who invented the
// game and how to read the rules (help.intro), the rules with their worked
// example (rules), a small drawn board for each example position (the
// board module's example(view), drawing the engine's view of the example's
// record), and the settings (help.settings). No rule text is written here.
//
// helpSections(game) -> [{key, nodes}] in the order shown; a new section
// (say, the fairest settings) is one more entry in that list.

import { h, richText } from "../ui/dom.js";
import { boardFor } from "../boards/index.js";
import { balanceHelp } from "./balance.js";

let figureCount = 0;

/** One worked example's figure: its caption at once, its board once the
 * game's board module has loaded (none if the module cannot draw one). */
function exampleFigure(game, example) {
  const id = `rules-example-${++figureCount}`;
  const slot = h("div", { class: "rules-example-board" });
  const figure = h("figure", { class: "rules-example", dataset: { record: example.record } },
    slot, h("figcaption", { id }, example.caption));
  boardFor(game.id).then((module) => {
    if (typeof module.example !== "function" || !example.view) return;
    const picture = module.example(example.view);
    const drawing = picture?.matches("svg") ? picture : picture?.querySelector("svg");
    if (!drawing) return;
    // One still picture named by its caption: no group of targets, no Tab stop.
    drawing.setAttribute("role", "img");
    drawing.setAttribute("aria-labelledby", id);
    for (const name of ["aria-label", "aria-hidden", "tabindex"]) drawing.removeAttribute(name);
    slot.append(picture);
    figure.dataset.drawn = "true";
  }).catch((error) => console.warn(`no example board for ${game.id}:`, error));
  return figure;
}

/** The rules as elements, with the example figures placed at the end of the
 * worked example (before the next bold-headed paragraph, or at the end). */
function rulesWithExamples(game, text) {
  const blocks = richText(text);
  const figures = (game.examples ?? []).map((example) => exampleFigure(game, example));
  if (!figures.length) return blocks;
  const heading = (block) => block.tagName === "P" && block.firstChild?.nodeName === "STRONG";
  const start = blocks.findIndex((block) => heading(block) && /^Example/.test(block.firstChild.textContent));
  let at = blocks.length;
  if (start >= 0) {
    const next = blocks.findIndex((block, i) => i > start && heading(block));
    if (next >= 0) at = next;
  }
  blocks.splice(at, 0, ...figures);
  return blocks;
}

/** Where the game's lesson is (docs/LEARN.md): the site's #learn= page; from
 * another page of the site (the embed's frame), that page in a new tab. */
function learnLink(game) {
  const onSite = !/embed\.html$/.test(location.pathname);
  const href = onSite ? `#learn=${game.id}` : new URL(`index.html#learn=${encodeURIComponent(game.id)}`, location.href).href;
  return h("p", { class: "rules-learn" },
    h("a", { href, class: "learn", target: onSite ? null : "_blank" }, "Learn by playing (one minute)"),
    ": a few small positions, one task each, then a short game against the computer.");
}

/** The help dialog's sections, in order. */
export function helpSections(game) {
  const help = game.help ?? {};
  const sections = [];
  if (help.intro) sections.push({ key: "intro", nodes: richText(help.intro) });
  sections.push({ key: "learn", nodes: [learnLink(game)] });
  sections.push({ key: "rules", nodes: rulesWithExamples(game, game.rules ?? game.summary ?? "") });
  if (help.settings) sections.push({ key: "settings", nodes: richText(help.settings) });
  return sections;
}

/** The sections as the dialog's body. */
export function helpBody(game) {
  return h("div", { class: "rules-text" },
    helpSections(game).map(({ key, nodes }) => h("section", { class: `rules-${key}`, dataset: { section: key } }, nodes)));
}

/** The game's "How to play" (the sections above) in a dialog with a title and a Close button. */
export function showRules(game) {
  const before = document.activeElement;
  const close = h("button", { type: "button", class: "close" }, "Close");
  const dialog = h("dialog", { class: "rules-dialog", "aria-labelledby": "rules-title" },
    h("div", { class: "sheet" },
      h("div", { class: "dialog-head" },
        h("h2", { id: "rules-title" }, `How to play ${game.name}`),
        close),
      helpBody(game),
      balanceHelp(game)));
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    dialog.remove();
    if (before instanceof HTMLElement && before.isConnected) before.focus();
  });
  // a click on the backdrop (outside the sheet) closes it too
  dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
  return dialog;
}
