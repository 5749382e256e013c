// How fair a game's settings are, as measured: the strong computer level
// playing itself over a grid of settings, or search proving who can always
// win (`python -m quetgames balance`, docs/BALANCE.md). The engine trims the
// report into build.json ("balance"): per game, rows with every option
// (defaults filled) and the seat count, and the fairest rows. Nothing here
// knows a rule: a form's values are filled with the catalog's defaults and
// compared with a row's options, and the numbers are put into words.

import { h } from "../ui/dom.js";

/** The catalog with each game's figures from build.json's "balance" as `game.balance`. */
export function withBalance(games, balance) {
  const figures = balance?.games ?? {};
  const run = { gamesPerSetting: balance?.games_per_setting ?? null, iterations: balance?.iterations ?? null };
  return games.map((game) => (figures[game.id] ? { ...game, balance: { ...figures[game.id], run } } : game));
}

function same(a, b) {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The game's every option at its catalog default, with `values` over them. */
function filled(game, values) {
  const full = Object.fromEntries((game.options ?? []).map((option) => [option.name, option.default ?? null]));
  return { ...full, ...values };
}

/** The row measured for these option values and seat count, or null. */
export function findRow(game, values, seats) {
  const wanted = filled(game, values);
  return (game.balance?.rows ?? []).find((row) => row.seats === seats
    && Object.keys({ ...row.options, ...wanted }).every((name) => same(row.options[name], wanted[name]))) ?? null;
}

const pct = (x) => `${Math.round(x * 100)}%`;
const players = (n) => (n === 1 ? "1 player" : `${n} players`);

/** A measured row's bias: "none" when the fair share lies inside its 95%
 * interval (no clear bias measured), else "favoured" or "disadvantage". */
function bias(row) {
  if (row.low <= row.fair && row.fair <= row.high) return "none";
  return row.share > row.fair ? "favoured" : "disadvantage";
}

/**
 * What is known of a row, in words: {known: "solved" | "measured" | "none",
 * lead, text, short}; `lead` is the verdict in a few words, `text` the rest,
 * `short` the figures alone (for a table).
 */
export function knownOf(row) {
  if (!row) return { known: "none", lead: "No figures", text: "for these settings yet.", short: "" };
  if (row.proved != null) {
    const lead = row.proved_winner ? `Solved: Player ${row.proved_winner} can always win` : "Solved: the win is always shared";
    return { known: "solved", lead, text: "(proved by the computer's search; between players who know how, these settings are never fair).", short: "" };
  }
  const lead = { none: "No clear bias", favoured: "Player 1 favoured", disadvantage: "Player 1 at a disadvantage" }[bias(row)];
  const shared = row.shared > 0 ? ` ${pct(row.shared)} of these games ended in a shared win, which counts as a fraction.` : "";
  return {
    known: "measured",
    lead: `${lead}:`,
    text: `Player 1 scores ${pct(row.share)} under strong play (95% interval ${pct(row.low)} to ${pct(row.high)}, `
      + `${row.games} games); a fair share is ${pct(row.fair)}.${shared}`,
    short: `${pct(row.share)} (${pct(row.low)} to ${pct(row.high)}); fair ${pct(row.fair)}`,
  };
}

/** The setup screen's line: {el, update(values, seats)}; onFairest(), when
 * given and the game has fairest settings, is a button's (it opens the help). */
export function balanceNote(game, { onFairest = null } = {}) {
  const said = h("span", { "aria-live": "polite" });
  const fairest = onFairest && game.balance?.fairest?.length
    ? h("button", { type: "button", class: "link-button balance-fairest-link", onclick: onFairest }, "Fairest settings")
    : null;
  const el = h("p", { class: "balance-line" }, said, fairest ? [" ", fairest] : null);
  let shown = null;
  const update = (values, seats) => {
    const facts = knownOf(findRow(game, values, seats));
    const key = JSON.stringify(facts);
    if (key === shown) return;
    shown = key;
    el.dataset.known = facts.known;
    said.replaceChildren(h("span", { class: "balance-label" }, "Balance: "),
      h("strong", { class: "balance-lead" }, facts.lead), " ", facts.text);
  };
  return { el, update };
}

/** A setting in words: the options that differ from the catalog's defaults
 * (the seat count is said apart). */
export function settingName(game, row) {
  const parts = [];
  for (const option of game.options ?? []) {
    const value = row.options[option.name];
    if (option.name === "players" || same(value, option.default)) continue;
    const name = option.short || option.name.replace(/_/g, " ");  // the engine's few words for it
    if (option.kind === "bool") parts.push(value ? name : `not ${name}`);
    else if (Array.isArray(value)) parts.push(`${name} ${value.join(" and ")}`);
    else parts.push(`${name} ${value}`);
  }
  return parts.length ? parts.join(", ") : "the defaults";
}

function knownCell(facts) {
  return h("td", { dataset: { known: facts.known } }, h("strong", {}, facts.lead.replace(/:$/, "")), facts.short ? ` ${facts.short}` : "");
}

/** "How to play"'s part on balance: the fairest measured settings and every
 * figure for the game, or null when there are none. */
export function balanceHelp(game) {
  const figures = game.balance;
  if (!figures?.rows?.length) return null;
  const { rows, fairest = [], run = {} } = figures;
  const solved = rows.filter((row) => row.proved != null);
  const games = run.gamesPerSetting ? `${run.gamesPerSetting} games` : "games";
  const pace = run.iterations ? ` (${run.iterations} search iterations a move: good play, not perfect)` : "";
  return h("section", { class: "balance-help", "aria-labelledby": "balance-help-title" },
    h("h3", { id: "balance-help-title" }, "Which settings are fair"),
    h("p", {}, `To measure how fair each setting of ${game.name} is, the computer's strong level played ${games} `
      + `against itself${pace} at each setting listed below; where the computer's search proves who wins with best play, `
      + "the proof stands instead. In a fair setting Player 1 scores one game in two with two players, one in three "
      + "with three, and so on (a shared win counts as a fraction)."),
    fairest.length
      ? [h("p", {}, "The fairest settings measured (other options at their defaults):"),
        h("ul", { class: "balance-fairest" }, fairest.map((i) => rows[i]).filter(Boolean).map((row) =>
          h("li", {}, h("strong", {}, `${settingName(game, row)}, ${players(row.seats)}`), ": ",
            `Player 1 scored ${pct(row.share)} (95% interval ${pct(row.low)} to ${pct(row.high)}); a fair share is ${pct(row.fair)}`,
            { none: ".", favoured: "; even here Player 1 is favoured.", disadvantage: "; even here Player 1 is at a disadvantage." }[bias(row)])))]
      : h("p", {}, "No setting of this game was measured by play."),
    solved.length
      ? h("p", {}, `${solved.length} of the ${rows.length} settings are solved: in each, one player can always win, whatever the others do.`)
      : null,
    h("details", { class: "balance-all" },
      h("summary", {}, `All ${rows.length} measured settings`),
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Setting"), h("th", { scope: "col" }, "Players"), h("th", { scope: "col" }, "What is known (Player 1's share)"))),
        h("tbody", {}, rows.map((row) => h("tr", {},
          h("td", {}, settingName(game, row)), h("td", {}, String(row.seats)), knownCell(knownOf(row))))))),
    h("p", { class: "hint" }, "These figures come from many games between computer players at each setting, played when the site was built."));
}
