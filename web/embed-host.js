// Quet Games: the optional host script for embedded games. A blog that adds
//
//   <script src="SITE/embed-host.js" async></script>     (SITE: where Quet Games is hosted)
//
// beside its Quet Games frames lets each frame take the height its content
// asks for, more (a panel opened under the board, the analysis drawn, a big
// grid kept at its tappable size) or less (a poster, a short game), instead of
// scrolling inside a frame of fixed height or leaving a blank band. Without it
// every frame keeps the height its snippet gives it and fits its content to it.
//
// The protocol (docs/EMBED.md, "A frame that can grow"), by postMessage:
//   frame -> host  {type: "quetgames:ready"}              (to any origin: it says nothing)
//   host -> frame  {type: "quetgames:hello"}              (to this site's origin only)
//   frame -> host  {type: "quetgames:height", height: N}  (to the origin that said hello)
// This script answers only messages from this site's origin, sent by one of
// the page's frames of this site's embed.html, and takes only a whole height
// from MIN to MAX CSS pixels. It sets nothing else and reads nothing else.
(() => {
  const MIN = 150;
  const MAX = 6000;
  const site = new URL(document.currentScript?.src || "embed-host.js", location.href);
  const embed = new URL("embed.html", site);

  /** The page's frames of this site's embed. */
  const frames = () => [...document.querySelectorAll("iframe")].filter((frame) => {
    try {
      const src = new URL(frame.getAttribute("src") || "", location.href);
      return src.origin === embed.origin && src.pathname === embed.pathname;
    } catch {
      return false;
    }
  });
  const hello = (frame) => frame.contentWindow?.postMessage({ type: "quetgames:hello" }, embed.origin);

  window.addEventListener("message", (event) => {
    if (event.origin !== embed.origin) return;
    const frame = frames().find((f) => f.contentWindow === event.source);
    const data = event.data;
    if (!frame || !data || typeof data !== "object") return;
    if (data.type === "quetgames:ready") hello(frame);
    else if (data.type === "quetgames:height" && Number.isInteger(data.height) && data.height >= MIN && data.height <= MAX) {
      frame.style.height = `${data.height}px`;
    }
  });
  // frames loaded before this script ran said "ready" to nobody: greet them now
  for (const frame of frames()) hello(frame);
})();
