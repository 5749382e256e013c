// Classic script, so the observer runs before anything else: long tasks of
// this page's main thread (its own, and a same-origin iframe's) from the start.
window.__longtasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__longtasks.push({ start: entry.startTime, duration: entry.duration });
}).observe({ type: "longtask", buffered: true });
addEventListener("DOMContentLoaded", () => {
  const frame = document.createElement("iframe");
  frame.src = new URLSearchParams(location.search).get("src");
  frame.width = "800";
  frame.height = "700";
  document.getElementById("slot").append(frame);
});
