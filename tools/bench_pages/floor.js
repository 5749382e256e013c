// A worker that answers each message at once (floor-worker.js), and a page
// that puts the answer in the document and counts it in <html data-answers>.
const worker = new Worker(new URL("floor-worker.js", import.meta.url));
const shown = document.getElementById("shown");
let answers = 0;
worker.onmessage = ({ data }) => {
  const text = document.createElement("span");
  text.textContent = `${data.n}: ${data.pad.length}`;
  shown.replaceChildren(text);
  document.documentElement.dataset.answers = String(++answers);
};
document.getElementById("move").addEventListener("click", () => worker.postMessage(answers));
document.documentElement.dataset.answers = "0";
