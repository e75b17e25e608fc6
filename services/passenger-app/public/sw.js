/*
 * The passenger app's service worker: the offer screen's shell (the page and its hashed assets) and
 * the passenger's own reads (profile, offer with the voucher's QR code, printable voucher) stay
 * available when the phone loses the network, at the hotel desk for instance. Reads go to the
 * network first and fall back to the last answer kept; nothing else is cached (the event stream,
 * writes and login never are). Served with `Cache-Control: no-cache` so a new build replaces it.
 */
const SHELL_CACHE = "passenger-shell-v1";
const READS_CACHE = "passenger-reads-v1";
const KEPT_READS = ["/v1/me", "/v1/me/offer", "/v1/me/voucher"];
const SHELL_FILES = ["/manifest.webmanifest", "/icon.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(cacheShell().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((n) => n !== SHELL_CACHE && n !== READS_CACHE).map((n) => caches.delete(n))),
      )
      .then(pruneShell)
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(networkFirst(request, SHELL_CACHE, "/"));
  } else if (url.pathname.startsWith("/assets/")) {
    event.respondWith(cacheFirst(request));
  } else if (KEPT_READS.includes(url.pathname)) {
    event.respondWith(networkFirst(request, READS_CACHE, url.pathname));
  }
});

/** The page and the assets it names (hashed file names, known only from the built page). */
async function cacheShell() {
  const cache = await caches.open(SHELL_CACHE);
  const page = await fetch("/", { cache: "no-cache" });
  if (!page.ok) return;
  const assets = assetsOf(await page.clone().text());
  await cache.put("/", page);
  await cache.addAll([...new Set([...assets, ...SHELL_FILES])]);
}

/** Drops the assets of earlier builds: those the kept page no longer names. */
async function pruneShell() {
  const cache = await caches.open(SHELL_CACHE);
  const page = await cache.match("/");
  if (!page) return;
  const named = new Set(assetsOf(await page.text()));
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (path.startsWith("/assets/") && !named.has(path)) await cache.delete(request);
  }
}

function assetsOf(html) {
  return [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
}

/** The network's answer (kept when it is a success), else the last one kept under `key`. */
async function networkFirst(request, cacheName, key) {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw error;
  }
}

/** Hashed assets never change: the kept copy, else the network's (kept for next time). */
async function cacheFirst(request) {
  const cache = await caches.open(SHELL_CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}
