// Play through, the replay embed's button on the step bar (embed.js,
// mode=replay): a step forward every STEP_MS along the line shown (the game's
// moves, or a side line's), with time to read a comment; any step click
// pauses, as does the button again; the end of the line stops it. The button
// says which in its label and aria-pressed. The steps themselves are the
// point, so they go on under prefers-reduced-motion; only the line that fills
// up to the next step stands still then (style.css).
//
// It steps the game view (gameview.js) through its public replayTo() and
// lineTo(), and reads where the replay stands from its `replay`, as a click on
// the step bar would; it holds no position of its own.

import { h } from "../ui/dom.js";

const STEP_MS = (() => {
  // test-only: ?play-ms=N (50 to 10000) for a quicker pace
  const asked = Number.parseInt(new URLSearchParams(location.search).get("play-ms") ?? "", 10);
  return asked >= 50 && asked <= 10_000 ? asked : 1500;
})();
const READ_MS_PER_CHAR = 60; // about 16 characters a second, on top of the step
const READ_MS_MAX = 8000;
const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Play through for the game view that `gameOf()` returns (null before there
 * is one), whose step bar and move list are inside `stage`. Returns {button,
 * play, pause}: the button for the step bar, and the two ways of driving it.
 */
export function playThrough(stage, gameOf) {
  const state = {
    playing: false,
    stepping: false, // a step of its own is under way (the game view takes no other meanwhile)
    asked: null, // the data-key of a step the reader clicked meanwhile
    timer: 0,
  };
  const button = h("button", {
    type: "button", class: "secondary step play-through", dataset: { key: "play-through" }, "aria-pressed": "false",
    onclick: () => (state.playing ? pause() : play()),
  });

  function label() {
    const { playing } = state;
    button.setAttribute("aria-pressed", String(playing));
    button.title = playing ? "Pause" : "Step through the game by itself";
    // (a line along the foot fills up until the next step: restarted for each one;
    // its length set through the CSSOM, which the page's CSP allows, not a style attribute)
    const progress = playing ? h("span", { class: "play-progress", "aria-hidden": "true" }, h("span")) : null;
    progress?.style.setProperty("--play-ms", `${nextDelay()}ms`);
    // (an icon drawn, not a character: a reader's fonts may lack ⏸; the words are for a screen reader)
    button.replaceChildren(...[playIcon(playing), h("span", { class: "visually-hidden" }, playing ? "Playing through" : "Play through"), progress].filter(Boolean));
  }

  /** The next step along the line shown, or null at its end. */
  function nextStep() {
    const game = gameOf();
    const replay = game?.replay;
    if (!replay) return null; // the end of the record
    if (replay.line) return replay.line.n < replay.line.length ? () => game.lineTo(replay.line.index, replay.line.n + 1) : null;
    return () => game.replayTo(replay.ply + 1);
  }

  function nextDelay() {
    const game = gameOf();
    const comment = game?.replay ? game.replay.comment : game?.current?.view.comment;
    return STEP_MS + Math.min(READ_MS_MAX, (comment?.length ?? 0) * READ_MS_PER_CHAR);
  }

  async function play() {
    const game = gameOf();
    if (!game?.current) return;
    state.playing = true;
    // at the end already: from the start again
    if (!nextStep()) await game.replayTo(0);
    label();
    schedule();
  }

  function schedule() {
    clearTimeout(state.timer);
    if (!state.playing) return;
    if (!nextStep()) {
      pause();
      return;
    }
    state.timer = setTimeout(async () => {
      const step = state.playing ? nextStep() : null;
      if (!step) return pause();
      state.stepping = true;
      try {
        await step();
      } finally {
        state.stepping = false;
      }
      // a step the reader asked for while this one was under way: taken now
      const asked = state.asked;
      state.asked = null;
      if (asked) stage.querySelector(`[data-key="${CSS.escape(asked)}"]:not(:disabled)`)?.click();
      if (!state.playing) return;
      label();
      schedule();
    }, nextDelay());
  }

  function pause() {
    clearTimeout(state.timer);
    state.playing = false;
    label();
  }

  label();
  // any step the reader takes pauses it (the step bar, a move of the list); one
  // clicked while a step of its own is under way is taken once that one is shown
  stage.addEventListener("click", (event) => {
    const target = event.target.closest?.(".embed-steps button, .move-list button");
    if (!target || target.closest(".play-through")) return;
    if (state.playing) pause();
    if (state.stepping && target.dataset.key) {
      state.asked = target.dataset.key;
      event.stopPropagation();
    }
  }, true);

  return { button, play, pause };
}

/** A small play (triangle) or pause (two bars) icon, drawn in the text's colour. */
function playIcon(playing) {
  const icon = document.createElementNS(SVG_NS, "svg");
  icon.setAttribute("viewBox", "0 0 16 16");
  icon.setAttribute("class", "play-icon");
  icon.setAttribute("aria-hidden", "true");
  const shape = document.createElementNS(SVG_NS, "path");
  shape.setAttribute("d", playing ? "M3 2h3.5v12H3zM9.5 2H13v12H9.5z" : "M4 2l10 6-10 6z");
  shape.setAttribute("fill", "currentColor");
  icon.append(shape);
  return icon;
}
