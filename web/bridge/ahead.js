// Answers worked out before the click.
//
// While a person looks at the board, the engine plays each move target the
// board shows (what a click can send), one request at a time, and the page
// keeps the answers for that one position. A click whose answer is here is
// drawn in the click's own task, with no trip to the worker and back. The
// answer is the engine's own, to the very request the click makes; the page
// still holds no rule.
//
// Only for a board with few targets (MOST_MOVES), on which nothing else plays
// first: no computer, no secret pick, no seal (gameview.js decides). One
// request at a time, so a click the answers do not cover waits behind one
// move's work at most. docs/BENCH.md says what it saves.

export const MOST_MOVES = 48;

export class LookAhead {
  #record = null; // the position the answers are for (the record the click plays from)
  #answers = new Map(); // move -> Promise of the engine's answer to {record, move}
  #ask;

  /** ask({record, move}) -> Promise of the engine's answer (not retried). */
  constructor(ask) {
    this.#ask = ask;
  }

  get record() {
    return this.#record;
  }

  /** Work out the answers to `moves` from `record`, dropping any older ones. */
  start(record, moves) {
    this.stop();
    this.#record = record;
    if (moves.length > MOST_MOVES) return;
    const answers = this.#answers;
    setTimeout(async () => { // after this task: the board on screen first
      for (const move of moves) {
        if (this.#answers !== answers) return; // another position since
        const answer = this.#ask({ record, move });
        answers.set(move, answer);
        try {
          await answer;
        } catch {
          answers.delete(move); // the click asks again and shows the engine's words
        }
      }
    });
  }

  stop() {
    this.#record = null;
    this.#answers = new Map();
  }

  /** The engine's answer to play `args` if worked out or under way, else null. */
  take(args) {
    const { record, move, ...more } = args;
    if (record !== this.#record || Object.keys(more).length) return null;
    return this.#answers.get(move) ?? null;
  }
}
