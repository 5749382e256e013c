// Offline and install, page side: registers the service worker (sw.js), and
// when a new build is waiting tells the player "A new version is ready" with a
// Reload button. Nothing reloads by itself: the game is in the fragment, but a
// player mid-move decides when.
//
// Hooks for tests: #update-banner (with data-kind="waiting" | "elsewhere") and
// its #update-reload button.

import { engine } from "../bridge/engine.js";

const SCOPE = new URL("../", import.meta.url);
const SW_URL = new URL("sw.js", SCOPE);
const UPDATE_CHECK_MS = 60 * 60 * 1000; // an app left open asks for a new build at most hourly

let banner = null;
let reloading = false; // set when the player asked for the new version

function showBanner(kind, text, onReload) {
  banner?.remove();
  const reload = Object.assign(document.createElement("button"), { type: "button", id: "update-reload", textContent: "Reload" });
  const later = Object.assign(document.createElement("button"), { type: "button", className: "secondary", textContent: "Not now" });
  reload.addEventListener("click", onReload);
  later.addEventListener("click", () => banner.remove());
  const buttons = Object.assign(document.createElement("div"), { className: "update-buttons" });
  buttons.append(reload, later);
  banner = Object.assign(document.createElement("div"), { id: "update-banner", className: "update-banner", role: "status" });
  banner.dataset.kind = kind;
  banner.append(Object.assign(document.createElement("p"), { textContent: text }), buttons);
  document.body.append(banner);
}

function offerUpdate(waiting) {
  showBanner("waiting", "A new version of Quet Games is ready.", () => {
    reloading = true;
    waiting.postMessage({ type: "skip-waiting" }); // then controllerchange reloads
  });
}

/** Call `then` once the engine has settled (ready or failed), so the service
 * worker's download of the whole build does not compete with the first load.
 * (The engine's own promise, not <html data-engine>: the page is in use, and
 * says "busy", well before the engine is there.) */
function afterEngineSettles(then) {
  engine.ready.then(then, then);
}

async function register() {
  const hadController = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading) {
      location.reload(); // same address, fragment and all: the game reopens where it was
    } else if (hadController) {
      // Another tab took the new version: this page's code is the old build's,
      // and its next lazy import would come from the new one. Say so.
      showBanner("elsewhere", "Quet Games was updated in another tab; reload to use the new version.", () => location.reload());
    }
  });

  const registration = await navigator.serviceWorker.register(SW_URL, { scope: SCOPE.href, updateViaCache: "none" });
  if (registration.waiting && navigator.serviceWorker.controller) offerUpdate(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => {
      // no controller yet means first install: nothing to replace, nothing to say
      if (installing.state === "installed" && navigator.serviceWorker.controller) offerUpdate(installing);
    });
  });

  let lastCheck = Date.now();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && Date.now() - lastCheck > UPDATE_CHECK_MS) {
      lastCheck = Date.now();
      registration.update().catch(() => {}); // offline: try again next time
    }
  });
}

if ("serviceWorker" in navigator) {
  afterEngineSettles(() => register().catch((err) => console.warn(`Offline copy not available: ${err.message}`)));
}
