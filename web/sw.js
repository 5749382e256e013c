// The offline copy: a service worker that keeps every file of one build in one
// cache and answers from it, so after one visit the site (Pyodide included)
// works with the network off.
//
// - build.py (write_precache) writes the list below: every file in dist/ with
//   its sha256, and a version that hashes them all. So sw.js changes whenever
//   any file does, which is what makes the browser install the new worker.
// - install: fetch every file, each checked against its hash (fetch's
//   `integrity`), into a new cache named after the version; one failure fails
//   the install and the old worker keeps serving the old build, whole. A file
//   whose bytes the old cache already holds (same hash) is copied, not fetched.
// - activate (after the page's "reload", or once no tab uses the old one):
//   delete this site's other caches.
// - fetch: a listed URL (relative to the scope, fragment ignored; a navigation
//   also ignores ?query, and the scope itself means index.html) comes from the
//   cache; anything else goes to the network as usual.

const PRECACHE = /* precache */ { version: "", files: {} } /* end precache */;

const SCOPE = new URL(self.registration.scope);
// Caches are per origin, not per path: name ours after the scope so two copies
// of the site on one origin (say /a/ and /b/) never delete each other's.
const PREFIX = `quet-games ${SCOPE.pathname} `;
const CACHE = PREFIX + PRECACHE.version;
const FILES = PRECACHE.files; // path relative to the scope (URL-encoded) -> "sha256-<base64>"

self.addEventListener("install", (event) => {
  if (!PRECACHE.version) return; // web/ served unbuilt: nothing to keep
  event.waitUntil(fillCache());
});

async function fillCache() {
  // Fetch everything first and store only when all arrived intact: the cache is
  // never seen half full (and a failed attempt leaves none behind).
  try {
    const older = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
    const responses = await Promise.all(Object.entries(FILES).map(async ([path, integrity]) => {
      const kept = await keptCopy(older, path, integrity);
      if (kept) return [path, kept];
      const response = await fetchChecked(new URL(path, SCOPE), integrity);
      if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
      return [path, await storable(response)];
    }));
    const cache = await caches.open(CACHE);
    await Promise.all(responses.map(([path, response]) => cache.put(new URL(path, SCOPE), response)));
  } catch (err) {
    await caches.delete(CACHE);
    throw err; // the install fails; the browser tries again at its next update check
  }
}

/** The file with the listed bytes: the browser's HTTP cache first, however
 * old, without asking the server (on a first visit the page has just fetched
 * most of the files: asking again would cost a request each for nothing),
 * and from the server if that copy is missing or not the one listed (the
 * integrity check refuses it). */
async function fetchChecked(url, integrity) {
  try {
    return await fetch(new Request(url, { cache: "force-cache", integrity }));
  } catch {
    return fetch(new Request(url, { cache: "no-cache", integrity }));
  }
}

/** The file from an older build's cache if its bytes are the ones listed
 * (a new build usually changes a few kB of our files, not Pyodide's 13 MB). */
async function keptCopy(cacheNames, path, integrity) {
  for (const name of cacheNames) {
    const response = await (await caches.open(name)).match(new URL(path, SCOPE));
    if (response && (await integrityOf(response.clone())) === integrity) return response;
  }
  return null;
}

async function integrityOf(response) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await response.arrayBuffer()));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return "sha256-" + btoa(binary);
}

/** A response a navigation may be answered with: a redirected one may not. */
async function storable(response) {
  if (!response.redirected) return response;
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers: response.headers });
}

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)));
    // First install: take the open page at once, so it works offline without a reload.
    await self.clients.claim();
  })());
});

// The page's "A new version is ready — reload" button.
self.addEventListener("message", (event) => {
  if (event.data?.type === "skip-waiting") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const path = cachedPath(event.request);
  if (path !== null) event.respondWith(fromCache(path, event.request));
});

/** The precache key that answers `request`, or null to leave it to the network. */
function cachedPath(request) {
  if (request.method !== "GET" || !PRECACHE.version) return null;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return null;
  let path = url.pathname.slice(SCOPE.pathname.length);
  if (request.mode === "navigate") {
    if (path === "") path = "index.html";
  } else if (url.search) {
    return null; // e.g. worker.js?diagnostics, for measuring: not a file of the build
  }
  return Object.hasOwn(FILES, path) ? path : null;
}

async function fromCache(path, request) {
  const cached = await (await caches.open(CACHE)).match(new URL(path, SCOPE));
  // Missing only if the browser evicted the cache: then the network, as without us.
  return cached ?? fetch(request);
}
