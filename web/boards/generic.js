// The fallback board: every legal move as a button, so any game is playable
// before its own board exists. It also shows the raw board data for checking.

export function render(view, ui) {
  const wrap = document.createElement("div");
  wrap.className = "generic-board";

  const moves = document.createElement("div");
  moves.className = "legal-moves";
  moves.setAttribute("role", "group");
  moves.setAttribute("aria-label", "Legal moves");
  for (const notation of view.legal_moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.dataset.move = notation;
    button.textContent = notation;
    moves.append(button);
  }
  if (view.legal_moves.length === 0) {
    const none = document.createElement("p");
    none.textContent = view.is_over ? "The game is over." : "No move for you here right now.";
    moves.append(none);
  }

  const raw = document.createElement("details");
  raw.className = "raw-board";
  const summary = document.createElement("summary");
  summary.textContent = "Board data";
  const pre = document.createElement("pre");
  pre.textContent = JSON.stringify(view.board, null, 1);
  raw.append(summary, pre);

  wrap.append(moves, raw);
  return wrap;
}
