// In-page dialogs on <dialog>: a modal sheet, and a yes/no question for the
// boards (ui.confirm). Escape closes either (a question then means no); focus
// goes back to where it was. ("How to play", a sheet of its own: features/help.js.)

import { h } from "./dom.js";

/** Show `dialog` as a modal sheet and focus `first`; resolves what `answer()`
 * says once the dialog closes (by a button or Escape), when it is removed and
 * focus goes back to where it was. */
export function askInDialog(dialog, answer, first) {
  const before = document.activeElement;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      dialog.remove();
      if (before instanceof HTMLElement && before.isConnected) before.focus();
      resolve(answer());
    });
    document.body.append(dialog);
    dialog.showModal();
    first?.focus();
  });
}

/** Ask a yes/no question in the page; resolves true only for "Yes". */
export function confirmDialog(text, { yes = "Yes", no = "No" } = {}) {
  const noButton = h("button", { type: "button", class: "secondary", value: "no" }, no);
  const yesButton = h("button", { type: "button", value: "yes" }, yes);
  const dialog = h("dialog", { class: "confirm", "aria-labelledby": "confirm-text" },
    h("div", { class: "sheet" },
      h("p", { id: "confirm-text" }, text),
      h("div", { class: "dialog-buttons" }, noButton, yesButton)));
  let answer = false;
  noButton.addEventListener("click", () => dialog.close());
  yesButton.addEventListener("click", () => { answer = true; dialog.close(); });
  return askInDialog(dialog, () => answer, yesButton);
}
