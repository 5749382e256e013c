// A lesson (docs/LEARN.md): learn a game by playing it, one small position and
// one task a step, the last step a short game against the computer. Used by
// the site's page (#learn=<game>, app.js) and, with the same arguments, by the
// embed. Every word about a move is the engine's (bridge call "lesson", which
// judges a move by the step's id); the board is the game's own board module
// drawing the engine's view. No rule lives here.
//
// Per step: "Step n of N", the task, the answer line, the board, the buttons; a
// move is sent to the engine and answered in words. Right: the board after it,
// and Next (in place of Skip). Refused: the engine's reason, the board as it
// was. Legal but not the task: the board after it, still, with Try again and
// Show the answer. The last step is a real small game: each move goes with the
// record of the game so far, the computer's answers come back played, until
// the game is over; then Play again, Play a full game and Finish. The caller
// puts the game's name and inventor around `el` (the answer has both).
//
// Screen readers: the task and every answer are in one live region
// (#lesson-said, role=status, aria-live=polite, not atomic: a new answer is
// read without the task again). The task is written into it once the region is
// on the page, so it is read out, not only shown.
//
// Nothing over the board, nothing moves under the finger (issue 56): the
// answer has its own room, the same region, between the task and the board,
// of one height for the whole lesson (style.css), so it covers neither the
// board nor the task and is on a phone's first screen with them (under the
// board it fell below a 390 x 844 screen's foot, under Enumeration's legend);
// a longer answer scrolls inside its box, reached by Tab. In a frame it takes
// the task's place instead (embed.css). The task's room is as tall as the lesson's
// longest task (every task is laid in it, only the step's own seen; in a frame
// at least three lines of an answer), so the board's top is at one place in
// every step, on a page and in a frame; and the step's box never gets
// shorter while the lesson is on screen (keepRoom), so that a page scrolled
// to its foot is never pulled up when an answer goes. The page is never
// scrolled for the learner. Where the page is wide, or a phone is held
// sideways, the task and the answer stand beside the board (style.css).
//
// Progress on this device (localStorage STORE, {<game>: {total, done: [step
// ids answered right], finished}}): read and written defensively, a refused
// storage only means nothing is kept.

import { h, playsDataMoves } from "../ui/dom.js";

const STORE = "quetgames.lessons";

/** Every lesson's progress on this device: {<game id>: {total, done, finished}}. */
export function lessonProgress() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE) ?? "null");
    // (read from storage, so checked: anything not of the shape is left out)
    if (kept && typeof kept === "object" && !Array.isArray(kept)) {
      const clean = {};
      for (const [game, entry] of Object.entries(kept)) {
        if (!entry || typeof entry !== "object" || !Array.isArray(entry.done)) continue;
        clean[game] = {
          total: Number.isInteger(entry.total) ? entry.total : 0,
          done: entry.done.filter((id) => typeof id === "string"),
          finished: entry.finished === true,
        };
      }
      return clean;
    }
  } catch {
    // unreadable, or storage refused: nothing kept
  }
  return {};
}

/** One game's progress, as lessonProgress() gives it, or an empty one. */
export function lessonState(game) {
  return lessonProgress()[game] ?? { total: 0, done: [], finished: false };
}

function keepProgress(game, change) {
  const all = lessonProgress();
  all[game] = change(all[game] ?? { total: 0, done: [], finished: false });
  try {
    localStorage.setItem(STORE, JSON.stringify(all));
  } catch {
    // storage refused: the progress lasts this visit
  }
}

/** The words for a lesson's progress, for a game card: "" before any step. */
export function progressWords(state) {
  if (state.finished) return "Learned: lesson finished";
  if (state.done.length && state.total) return `Lesson: ${state.done.length} of ${state.total} steps done`;
  return "";
}

/** The default keeper of progress (the site's): this device's storage. */
export const deviceProgress = {
  read: (game) => lessonState(game),
  step: (game, total, id) => keepProgress(game, (p) => ({ ...p, total, done: p.done.includes(id) ? p.done : [...p.done, id] })),
  finish: (game, total) => keepProgress(game, (p) => ({ ...p, total, finished: true })),
};

const noProgress = { read: () => ({ total: 0, done: [], finished: false }), step: () => {}, finish: () => {} };

/**
 * Play the lesson of `game` into `el` (its contents are replaced).
 * ask(call, args) -> Promise: the engine, once it is up (a refusal rejects with the engine's message).
 * boardFor(gameId) -> Promise of the game's board module (render(view, ui)).
 * progress: where steps done are kept ({read(game), step(game, total, id), finish(game, total)});
 *   deviceProgress (the default) is this device's storage; null keeps nothing.
 * fullGame: the href of "Play a full game" (default "#setup=<game>"); linkTarget: its target ("_blank" in a frame).
 * onStep(step, index): after each step is drawn. onFinish(won): once the last step's game is over.
 * afterDraw(): after each board drawing (an embed fits its board to the frame).
 * Resolves, once the first step is drawn, to {lesson (the bridge's answer), go(index)}.
 */
export async function lessonPlay(el, {
  ask, boardFor, game, progress = deviceProgress, fullGame = null, linkTarget = null,
  onStep = () => {}, onFinish = () => {}, afterDraw = () => {},
}) {
  const keeper = progress ?? noProgress;
  const lesson = await ask("lesson", { game });
  const renderer = await boardFor(lesson.game);
  const steps = lesson.steps;
  const total = steps.length;
  const setupHref = fullGame ?? `#setup=${lesson.game}`;
  // "Play a full game": a new game with the default settings, Player 2 (and
  // any other seat) the computer at the level of the lesson's game; until the
  // engine has made it (or if it cannot), the setup page.
  const fullLinks = [];
  const playLevel = steps.find((s) => s.check === "play")?.computer ?? "random";
  let fullHref = setupHref;
  ask("new", { game: lesson.game, seats: [{ name: "", kind: "human" }, { name: "", kind: playLevel }] })
    .then((created) => {
      fullHref = `${setupHref.split("#")[0]}#${created.record}`;
      for (const link of fullLinks) link.href = fullHref;
    })
    .catch(() => {}); // (the setup page stays: it starts a game too)

  const heading = h("h2", { class: "lesson-step-title", id: "lesson-step-title", tabindex: "-1" });
  // The task over the board, for the eye; the live region under the board has
  // it too (hidden there), so that it is read out with the step. It is as
  // tall as the lesson's longest task (keepRoom).
  const taskShown = h("p", { class: "lesson-task", "aria-hidden": "true" });
  const task = h("p", { class: "lesson-task visually-hidden" });
  const said = h("p", { class: "lesson-said" });
  const answer = h("p", { class: "lesson-answer" });
  // (one region: the task, each answer, the answer asked for; not atomic, so only what changed is read)
  const region = h("div", { class: "lesson-region", id: "lesson-said", role: "status", "aria-live": "polite" }, task, said, answer);
  // (the answer's room, between the task and the board; in a frame a box that may scroll: Tab reaches it)
  const anchor = h("div", { class: "lesson-anchor", tabindex: "-1" }, region);
  const board = h("div", { class: "board lesson-board", id: "board" }); // (.board and #board: the boards' own styles apply, as in a game)
  const button = (text, key, cls = "secondary") => h("button", { type: "button", class: cls, dataset: { key } }, text);
  const next = button("Next step", "next", "lesson-next");
  const retry = button("Try again", "retry");
  const show = button("Show the answer", "answer");
  const skip = button("Skip this step", "skip");
  const again = button("Play again", "again", "lesson-next");
  const full = h("a", { class: "button secondary", href: fullHref, target: linkTarget, dataset: { key: "full" } }, "Play a full game");
  fullLinks.push(full);
  const restart = button("Start the lesson again", "restart");
  // (one row: a frame's height goes to the board)
  const buttons = h("div", { class: "lesson-buttons" }, next, again, retry, show, skip, full, restart);
  // The board's top never moves under the pointer: above it only the title,
  // the task's room and the answer's, each of one height; the buttons under it.
  const stepBox = h("section", { class: "lesson-step", "aria-labelledby": "lesson-step-title" }, heading, taskShown, anchor, board, buttons);
  el.replaceChildren(stepBox);
  el.classList.add("lesson");
  el.dataset.game = lesson.game;

  let index = 0;
  let step = null;
  let record = ""; // the position's record (the game step's grows with each answer)
  let view = null; // the position on the board, for the learner's seat
  let phase = "ask"; // ask | right | wrong | over | ended
  let busy = false;
  let shownAt = 0; // counts the steps shown (and shown again): an answer for one shown before is dropped

  const shown = (which) => {
    for (const [b, on] of [[next, which.includes("next")], [again, which.includes("again")], [retry, which.includes("retry")],
      [show, which.includes("answer")], [skip, which.includes("skip")], [full, which.includes("full")]]) b.hidden = !on;
  };

  const setSaid = (text, kind = null) => {
    said.textContent = text;
    if (kind) said.dataset.answer = kind;
    else delete said.dataset.answer;
    stepBox.dataset.answer = kind ?? "";
    keepRoom();
  };

  /** The step's box never gets shorter while on screen: an answer that goes,
   * or a shorter row of buttons, leaves its room, so a page scrolled to its
   * foot is not pulled up under the finger. (A new width starts it afresh.) */
  let roomWidth = 0;
  new ResizeObserver(() => keepRoom()).observe(taskShown); // (a phone turned: measured again at its new width)
  // (the fonts in, the lines may break elsewhere: measured again)
  document.fonts?.ready.then(() => { roomWidth = 0; keepRoom(); });
  function keepRoom() {
    const width = taskShown.clientWidth;
    if (width === 0) return; // (not on the page yet)
    if (width !== roomWidth) {
      stepBox.style.minHeight = "";
      // the task's room, --task-room (style.css, embed.css): the height of the
      // longest task at this width, each written in and measured with no room
      // held (its own lines' height), before the page is painted again
      const shown = taskShown.textContent;
      taskShown.style.minHeight = "0px";
      let tallest = 0;
      for (const s of steps) {
        taskShown.textContent = s.task;
        tallest = Math.max(tallest, taskShown.getBoundingClientRect().height);
      }
      taskShown.textContent = shown;
      taskShown.style.minHeight = "";
      stepBox.style.setProperty("--task-room", `${Math.ceil(tallest)}px`);
    }
    roomWidth = width;
    stepBox.style.minHeight = `${Math.ceil(stepBox.getBoundingClientRect().height)}px`;
    // (a box scrolled inside, the room's in a frame or an answer's in it on a page: reached by Tab then)
    for (const box of [anchor, said, answer]) box.tabIndex = box.scrollHeight > box.clientHeight + 1 ? 0 : -1;
  }

  function draw(position, still) {
    board.classList.toggle("still", still); // (dashed, as a replay; not faded: its words keep their contrast)
    board.replaceChildren(renderer.render(position, {
      seat: step.seat,
      replaying: still,
      play: (move) => tryMove(move),
      explain: (text) => { said.textContent = text; },
      preview: (move) => ask("preview", { record, move: String(move), seat: step.seat }),
      confirm: async () => true, // no warnings in a lesson: the answer says what a move does
      // (a board that marks which moves score would show the answer before the try; the game step may)
      hints: step.check === "play",
    }));
    board.dataset.still = String(still);
    board.dataset.record = record; // (the position's record: the page's tests ask the engine about it)
    afterDraw();
    keepRoom();
  }

  /** Focus the board's first target (a keyboard player starts there), else `fallback`. */
  function focusBoard(fallback = null) {
    // (in this order: a selector list would give the first match in the page's order, such as a hidden Zoom in)
    const visible = (el) => el.getClientRects().length > 0;
    const target = ["[data-move][tabindex='0']", "[data-move]", "[data-try][tabindex='0']", "[tabindex='0']", "input", "button"]
      .map((selector) => [...board.querySelectorAll(selector)].find(visible)).find(Boolean);
    (target ?? fallback)?.focus({ preventScroll: true });
  }

  function go(i) {
    index = Math.max(0, Math.min(i, total - 1));
    step = steps[index];
    shownAt += 1;
    busy = false;
    record = step.record;
    view = step.view;
    phase = "ask";
    delete stepBox.dataset.busy;
    stepBox.dataset.step = step.id;
    stepBox.dataset.check = step.check;
    stepBox.dataset.phase = phase;
    stepBox.dataset.replies = "0";
    delete stepBox.dataset.won;
    heading.textContent = `Step ${index + 1} of ${total}`;
    skip.textContent = step.check === "play" ? "Skip the game" : "Skip this step";
    show.textContent = step.check === "play" ? "Suggest a move" : "Show the answer";
    next.textContent = index + 1 < total ? "Next step" : "Finish";
    // (at the end Play again is the one main button: Finish only leaves)
    next.classList.toggle("secondary", index + 1 === total);
    restart.hidden = index === 0;
    task.textContent = "";
    taskShown.textContent = step.task;
    answer.textContent = "";
    setSaid("");
    shown(["answer", "skip"]);
    draw(view, false);
    // (the step's title, not the board: a mark on one of the board's targets would read as a hint)
    heading.focus({ preventScroll: true });
    // written once the region is on the page (and after this step's old words went), so that it is read out
    requestAnimationFrame(() => {
      if (steps[index] === step) task.replaceChildren(h("span", { class: "visually-hidden" }, `Step ${index + 1} of ${total}. `), step.task);
    });
    onStep(step, index);
  }

  async function tryMove(move) {
    // (a tap is answered at once: while the last move is still with the engine, in words)
    if (busy) return setSaid("One moment: the engine is still answering your last move.", "wait");
    if (phase !== "ask") return;
    busy = true;
    stepBox.dataset.busy = "true";
    const at = shownAt;
    try {
      const play = step.check === "play";
      const reply = await ask("lesson", { game: lesson.game, step: step.id, move: String(move), ...(play ? { record } : {}) });
      if (at !== shownAt) return; // the learner went on meanwhile
      stepBox.dataset.replies = String(Number(stepBox.dataset.replies ?? 0) + 1);
      answer.textContent = "";
      if (reply.refused) {
        // the engine's reason; the board stays as it was (and keeps the focus)
        setSaid(reply.words, "refused");
      } else if (play) {
        record = reply.record;
        view = reply.view_after ?? view;
        setSaid(reply.words, reply.over ? (reply.won ? "won" : "lost") : "played");
        if (reply.over) {
          phase = "over";
          stepBox.dataset.won = String(reply.won);
          draw(view, true);
          keeper.step(lesson.game, total, step.id);
          keeper.finish(lesson.game, total);
          shown(["next", "again", "full"]);
          again.focus({ preventScroll: true });
          onFinish(reply.won);
        } else {
          draw(view, false);
          focusBoard();
        }
      } else if (reply.right) {
        phase = "right";
        setSaid(reply.words, "right");
        if (reply.view_after) draw(reply.view_after, true);
        keeper.step(lesson.game, total, step.id);
        shown(["next"]);
        next.focus({ preventScroll: true });
      } else {
        phase = "wrong";
        setSaid(reply.words, "wrong");
        if (reply.view_after) draw(reply.view_after, true);
        shown(["retry", "answer", "skip"]);
        retry.focus({ preventScroll: true });
      }
    } catch (error) {
      if (at === shownAt) setSaid(error.message, "error");
    } finally {
      if (at === shownAt) {
        busy = false;
        stepBox.dataset.phase = phase;
        delete stepBox.dataset.busy;
      }
    }
  }

  next.addEventListener("click", () => {
    if (index + 1 < total) go(index + 1);
    else ended();
  });
  retry.addEventListener("click", () => {
    phase = "ask";
    stepBox.dataset.phase = phase;
    setSaid("");
    answer.textContent = "";
    shown(["answer", "skip"]);
    draw(view, false);
    focusBoard();
  });
  show.addEventListener("click", async () => {
    const at = shownAt;
    let shownAnswer;
    try {
      shownAnswer = await ask("lesson", { game: lesson.game, step: step.id, answer: true, ...(step.check === "play" ? { record } : {}) });
    } catch (error) {
      if (at === shownAt) setSaid(error.message, "error");
      return;
    }
    if (at !== shownAt) return; // the learner went on meanwhile
    answer.dataset.moves = shownAnswer.moves.join(" ");
    answer.textContent = step.check === "play" ? shownAnswer.words : `The answer: ${shownAnswer.words}`;
    keepRoom();
    // the answer's targets marked on a board that still plays
    if (phase === "ask") {
      for (const move of shownAnswer.moves) {
        for (const target of board.querySelectorAll(`[data-move="${CSS.escape(move)}"]`)) target.classList.add("hinted");
      }
    }
  });
  skip.addEventListener("click", () => {
    if (index + 1 < total) go(index + 1);
    else ended();
  });
  again.addEventListener("click", () => go(index));
  restart.addEventListener("click", () => go(0));

  /** The end of the lesson (the last step finished or skipped): what next. */
  function ended() {
    const state = keeper.read(lesson.game);
    phase = "ended";
    stepBox.dataset.phase = phase;
    const title = h("h2", { tabindex: "-1", id: "lesson-end-title" }, state.finished ? "Lesson finished" : "End of the lesson");
    const back = h("button", { type: "button", class: "secondary", dataset: { key: "restart" } }, "Start the lesson again");
    back.addEventListener("click", () => { el.replaceChildren(stepBox); go(0); });
    const replay = h("button", { type: "button", class: "lesson-next", dataset: { key: "again" } }, "Play the short game again");
    replay.addEventListener("click", () => { el.replaceChildren(stepBox); go(total - 1); });
    el.replaceChildren(h("section", { class: "lesson-end", "aria-labelledby": "lesson-end-title", dataset: { finished: String(state.finished) } },
      title,
      h("p", { role: "status" }, state.finished
        ? `You have played the whole lesson of ${lesson.name}: ${state.done.length} of ${total} steps answered.`
        : `You have seen the lesson of ${lesson.name}; its last step is a short game, still to play.`),
      h("div", { class: "lesson-buttons" }, replay,
        h("a", { class: "button secondary", href: fullHref, target: linkTarget, dataset: { key: "full" } }, "Play a full game"), back)));
    title.focus();
  }

  // the moves no board target plays itself (a ring's Play button, a pick), as in the game view
  playsDataMoves(board, tryMove);

  // where this device left off: the first step not answered yet (a finished lesson starts again)
  const kept = keeper.read(lesson.game);
  const first = kept.finished ? 0 : steps.findIndex((s) => !kept.done.includes(s.id));
  go(first < 0 ? 0 : first);
  return { lesson, go };
}
