// The setup screen of one game: every option the engine describes (kinds int,
// choice, bool, pair), then one row per seat (a name and who plays it). The
// engine checks the options; its refusal is shown next to the form in words.

import { h } from "../ui/dom.js";
import { balanceNote } from "../features/balance.js";

export const NAME_LIMIT = 20;
const KNOWN_KINDS = ["int", "choice", "bool", "pair"];
export const COMPUTER_LEVELS = [
  ["random", "Computer, easy (random moves)"],
  ["greedy", "Computer, medium (greedy)"],
  ["strong", "Computer, hard (strong)"],
];

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** "2 to 20", or "2 to the largest pick" where another option (at_most) is
 * the bound the game enforces: the one range the rules text gives too. */
function rangeHint(option, options = []) {
  if (option.min == null || option.max == null) return "";
  const bound = option.at_most ? options.find((o) => o.name === option.at_most) : null;
  return `${option.min} to ${bound ? `the ${bound.short || bound.name.replace(/_/g, " ")}` : option.max}`;
}

function optionField(option, options) {
  const id = `opt-${option.name}`;
  const words = capital(option.help || option.name.replace(/_/g, " "));
  const hint = rangeHint(option, options);
  const hintId = `${id}-hint`;
  let control;
  // An option whose default is null (e.g. "draw at random") starts empty and is
  // left out of the request while it stays empty.
  if (option.kind === "int") {
    control = h("input", {
      id, name: option.name, type: "number", inputmode: "numeric", min: option.min, max: option.max,
      value: option.default, required: option.default != null, "aria-describedby": hint ? hintId : null,
    });
  } else if (option.kind === "choice") {
    control = h("select", { id, name: option.name },
      option.choices.map((c) => h("option", { value: c, selected: c === option.default }, c)));
  } else if (option.kind === "bool") {
    const box = h("input", { id, name: option.name, type: "checkbox", checked: option.default === true });
    return h("div", { class: "option option-bool", dataset: { option: option.name } },
      h("label", { for: id }, box, " ", words));
  } else if (option.kind === "pair") {
    const [a, b] = option.default ?? [null, null];
    control = h("span", { class: "pair", id, dataset: { pair: option.name } },
      h("input", { name: `${option.name}.0`, type: "number", inputmode: "numeric", min: option.min, max: option.max, value: a, placeholder: "random", "aria-label": `${words}: first` }),
      h("span", { "aria-hidden": "true" }, " and "),
      h("input", { name: `${option.name}.1`, type: "number", inputmode: "numeric", min: option.min, max: option.max, value: b, placeholder: "random", "aria-label": `${words}: second` }));
    return h("fieldset", { class: "option option-pair", dataset: { option: option.name } },
      h("legend", {}, words), control, hint ? h("span", { class: "hint", id: hintId }, `Each ${hint}`) : null);
  } else {
    return null;
  }
  return h("div", { class: "option", dataset: { option: option.name } },
    h("label", { for: id }, words),
    control,
    hint && option.kind === "int" ? h("span", { class: "hint", id: hintId }, hint) : null);
}

/** Whether an option applies, given the form's other values: the engine names,
 * in `only_when`, the values the other options must have (e.g. Enumeration's
 * target: one player, goal parity). No rule of any game is written here. */
function applies(form, option) {
  return Object.entries(option.only_when ?? {}).every(([name, wanted]) => {
    const field = form.elements.namedItem(name);
    if (!field) return false;
    const value = field.type === "checkbox" ? field.checked : field.type === "number" ? Number(field.value) : field.value;
    return value === wanted;
  });
}

export function readOptions(form, options) {
  // namedItem, not form.elements[name]: an option may be called "length"
  const field = (name) => form.elements.namedItem(name);
  const values = {};
  for (const option of options) {
    if (!applies(form, option)) continue;
    if (option.kind === "int") {
      const { value } = field(option.name);
      if (value !== "") values[option.name] = Number(value);
    } else if (option.kind === "choice") values[option.name] = field(option.name).value;
    else if (option.kind === "bool") values[option.name] = field(option.name).checked;
    else if (option.kind === "pair") {
      const parts = [0, 1].map((i) => field(`${option.name}.${i}`).value);
      if (parts.some((v) => v !== "")) values[option.name] = parts.map((v) => (v === "" ? null : Number(v)));
    }
  }
  return values;
}

function seatRow(i, kept, levels) {
  const name = h("input", {
    id: `seat-${i}-name`, name: `seat-${i}-name`, type: "text", maxlength: NAME_LIMIT, autocomplete: "off",
    placeholder: `Player ${i + 1}`, value: kept?.name ?? "", "aria-label": `Player ${i + 1}: name (optional)`,
  });
  const kind = h("select", { id: `seat-${i}-kind`, name: `seat-${i}-kind`, "aria-label": `Player ${i + 1}: who plays` },
    h("option", { value: "human" }, "Human"),
    COMPUTER_LEVELS.map(([value, words]) => {
      const ready = levels.includes(value);
      return h("option", { value, disabled: !ready, selected: ready && kept?.kind === value }, ready ? words : `${words}: coming soon`);
    }));
  return h("li", { class: "seat-row", dataset: { seat: i } },
    h("span", { class: "seat-mark", dataset: { seat: i }, "aria-hidden": "true" }, String(i + 1)),
    h("span", { class: "seat-label" }, `Player ${i + 1}`),
    name, kind);
}

/**
 * The setup screen for `game` (from the engine's "games" call, or its copy in build.json).
 * onStart(options, seats, {button, place}, here) -> Promise (here: the seats
 * this device plays, "all" or a list); a rejection's message is
 * shown in words; button and place are where a Start that has to wait for the
 * engine may say so (the Start button, and the row the note goes after).
 * levels: the computer levels the engine can play (others show "coming soon").
 */
export function setupScreen(game, { onStart, onRules, levels = [] }) {
  const options = (game.options ?? []).filter((o) => KNOWN_KINDS.includes(o.kind));
  const error = h("p", { id: "setup-error", class: "form-error", role: "alert" });
  const seatList = h("ol", { class: "seat-rows" });
  const start = h("button", { type: "submit", class: "start" }, "Start the game");
  // who plays on this device: every seat (one screen), or one seat, the others by link (share/seats.js)
  const here = h("select", { id: "setup-here", name: "here" });
  // what is known of how fair the chosen settings are; its button opens the help at the fairest ones
  const known = balanceNote(game, {
    onFairest: () => onRules?.()?.querySelector?.(".balance-help")?.scrollIntoView({ block: "start" }),
  });
  const form = h("form", { class: "setup", dataset: { game: game.id }, novalidate: true, "aria-describedby": "setup-error" },
    options.length
      ? h("fieldset", { class: "options" }, h("legend", {}, "Options"), options.map((option) => optionField(option, options)))
      : null,
    known.el,
    h("fieldset", { class: "seats-setup" }, h("legend", {}, "Players"),
      h("p", { class: "hint" }, `Names are optional (up to ${NAME_LIMIT} characters).`),
      seatList,
      h("label", { class: "here-field", for: "setup-here" }, "Who plays on this device? ", here)),
    error,
    h("div", { class: "form-buttons" }, start));
  const buttonRow = start.parentElement;

  const playersOption = options.find((o) => o.name === "players" && o.kind === "int");
  const seatCount = () => {
    if (!playersOption) return 2;
    const n = Number(form.elements.namedItem("players").value);
    const { min = 1, max = 8 } = playersOption;
    return Number.isInteger(n) && n >= min && n <= max ? n : playersOption.default ?? min;
  };
  const readSeats = () => [...seatList.children].map((row) => ({
    name: row.querySelector("input").value.trim(),
    kind: row.querySelector("select").value,
  }));
  const drawHere = () => {
    const chosen = here.value;
    const seats = readSeats();
    here.replaceChildren(h("option", { value: "all" }, "Everyone, at this screen"),
      ...seats.map((seat, i) => (seat.kind === "human" ? h("option", { value: String(i) }, `Only ${seat.name || `Player ${i + 1}`}: the others by link`) : null)).filter(Boolean));
    here.value = [...here.options].some((o) => o.value === chosen) ? chosen : "all";
  };
  const drawSeats = () => {
    const kept = readSeats();
    const n = seatCount();
    if (n !== kept.length) seatList.replaceChildren(...Array.from({ length: n }, (_, i) => seatRow(i, kept[i], levels)));
    drawHere();
  };
  drawSeats();
  form.elements.namedItem("players")?.addEventListener("input", drawSeats);
  seatList.addEventListener("input", drawHere);
  seatList.addEventListener("change", drawHere);

  // an option that does not apply to the other values is hidden (and not sent)
  const conditional = options.filter((o) => o.only_when);
  const showApplying = () => {
    for (const option of conditional) {
      const box = form.querySelector(`[data-option="${option.name}"]`);
      if (box) box.hidden = !applies(form, option);
    }
  };
  showApplying();
  form.addEventListener("input", showApplying);
  form.addEventListener("change", showApplying);

  const showKnown = () => known.update(readOptions(form, options), seatCount());
  showKnown();
  form.addEventListener("input", showKnown);
  form.addEventListener("change", showKnown);

  form.addEventListener("input", () => { error.textContent = ""; });
  // One start at a time. The button stays enabled (aria-disabled) while it
  // works: it may be showing that it waits for the engine, and must stay readable.
  let starting = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (starting) return;
    starting = true;
    start.setAttribute("aria-disabled", "true");
    error.textContent = "";
    try {
      await onStart(readOptions(form, options), readSeats(), { button: start, place: buttonRow }, here.value === "all" ? "all" : [Number(here.value)]);
    } catch (err) {
      error.textContent = `That game cannot start: ${err.message}`;
    } finally {
      starting = false;
      start.removeAttribute("aria-disabled");
    }
  });

  return h("section", { class: "setup-screen", dataset: { game: game.id } },
    h("div", { class: "game-head" },
      h("h1", { tabindex: "-1" }, `New game of ${game.name}`),
      h("nav", { class: "head-links" },
        h("button", { type: "button", class: "secondary rules-button", onclick: onRules }, "How to play"),
        h("a", { href: `#learn=${game.id}`, class: "learn" }, "Learn by playing (one minute)"),
        h("a", { href: "#", class: "back" }, "All games"))),
    h("p", { class: "inventor" }, `Invented by ${game.inventor ?? "Leroy Quet"}`),
    h("p", { class: "summary" }, game.summary ?? ""),
    form);
}
