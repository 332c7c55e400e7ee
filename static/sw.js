/* 牌局 Paiju's service worker, served at /sw.js by webapp/pwa.py, which puts one line in front of this
   file: self.PAIJU = {build, precache: [URLs], offline: {zh: URL, en: URL}}.

   - static files (hashed, immutable names): from the cache, else the network (and kept);
   - pages: the network first; a rules page that answers is kept for reading offline, and so is a table
     page (it says so: <meta name="paiju-offline" content="keep">) with the time it was kept; with no
     network a kept copy of the page (a table page marked with that time: <html data-offline-at>), else
     the offline notice in the player's language;
   - the offline engine (/offline-engine/…): from the cache "paiju-engine" when the player turned offline mode
     on (the page makes and deletes that cache, static/offline-engine.js; a file it lacks is kept in it as it
     comes to the engine), else the network untouched;
   - a game tab opened without a page load (htmx's boost): the network, else the page as kept;
   - everything else (the API, the live polls, form posts) goes to the network untouched. */
"use strict";

var CONFIG = self.PAIJU;
var CACHE = "paiju-" + CONFIG.build;
var META = "paiju-meta";
var ENGINE = "paiju-engine";
var TABLES = "paiju-tables";  // the table pages seen, kept across new builds
var TABLES_KEPT = 30;  // the most recently seen ones
var KEEP_MARK = /<meta name="paiju-offline" content="keep">/;
var KEPT_AT = "X-Paiju-Kept-At";
// what a kept page carries of its answer's headers: its protections (webapp/security.py)
var KEPT_HEADERS = ["Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy",
  "Permissions-Policy", "Cross-Origin-Opener-Policy"];
var LANG_KEY = "/__paiju/lang";
var RULES_PAGE = /^\/[a-z0-9_-]+\/rules$/;
var lang = null;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(CONFIG.precache);
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("paiju-") === 0 && name !== CACHE && name !== META && name !== ENGINE;
    }).filter(function (name) { return name !== TABLES; }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("message", function (event) {
  if (event.origin && event.origin !== self.location.origin) return;
  var shown = event.data && event.data.lang;
  if (shown === "zh" || shown === "en") saveLang(shown);
  if (event.data && event.data.keep) event.waitUntil(keepAgain(event.data.keep));
});

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "GET" && url.pathname.indexOf("/offline-engine/") === 0) {
    event.respondWith(engineFile(event));
  } else if (request.method === "GET" && url.pathname.indexOf("/static/") !== -1) {
    event.respondWith(fromCache(request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  } else if (request.method === "GET" && (request.headers.get("HX-Boosted") || request.headers.get("HX-History-Restore-Request"))) {
    event.respondWith(boosted(request, url));
  }
});

/* a game tab opened without a page load (htmx's boost, issue 42) or put back by Back: the network, else the page
   kept for offline mode; else an error, and the page opens it as a page (static/pwa.js), which the offline
   notice answers */
function boosted(request, url) {
  return fetch(request).catch(function () {
    return keptPage(request, url).then(function (kept) { return kept || Response.error(); });
  });
}

function fromCache(request) {
  return caches.match(request).then(function (kept) {
    return kept || fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { return cache.put(request, copy); });
      }
      return response;
    });
  });
}

/* Only what is in the engine's cache is answered from it, and only while that cache exists (offline mode on: the
   page makes it and deletes it) is a copy kept of an engine file it lacks, as it comes from the network to the
   engine's worker (issue 42: the switch's trial load is the download, the runtime compiled as it comes in, not
   after the last byte; webapp/pwa.py names each file's version in its address, so a copy is never stale; the
   manifest, which names none, is never kept). The bytes kept are told to the page (the channel "paiju-engine"),
   which shows them. A player who never turned offline mode on downloads nothing more. */
var VERSIONED = /\/offline-engine\/pyodide\/[^/]+\/[^/]+$/;

function engineFile(event) {
  var request = event.request, url = new URL(request.url);
  return caches.match(request, {cacheName: ENGINE}).then(function (kept) {
    if (kept) return kept;
    if (!url.searchParams.has("v") && !VERSIONED.test(url.pathname)) return fetch(request);
    return caches.has(ENGINE).then(function (on) {
      return on ? fetchAndKeep(event) : fetch(request);
    });
  });
}

/* the file to the engine as it comes, and a copy (decoded, of its own headers) into the engine's cache */
function fetchAndKeep(event) {
  return fetch(event.request, {cache: "no-store"}).then(function (response) {
    if (response.status !== 200 || !response.body) return response;
    var branches = response.body.tee(), headers = new Headers(response.headers);
    headers.delete("Content-Encoding");  // the bytes as decoded: kept and handed on as they are
    headers.delete("Content-Length");
    event.waitUntil(keepEngineFile(event.request, branches[1], headers));
    return new Response(branches[0], {status: 200, statusText: response.statusText, headers: headers});
  });
}

function keepEngineFile(request, body, headers) {
  var reader = body.getReader(), chunks = [];
  var told = typeof BroadcastChannel === "function" ? new BroadcastChannel(ENGINE) : null;
  function pump() {
    return reader.read().then(function (step) {
      if (step.done) return;
      chunks.push(step.value);
      if (told) told.postMessage({kept: step.value.length});
      return pump();
    });
  }
  return pump().then(function () { return caches.has(ENGINE); }).then(function (on) {
    // turned off meanwhile: nothing kept (opening the cache would make it again)
    return on && caches.open(ENGINE).then(function (cache) {
      return cache.put(request, new Response(new Blob(chunks), {headers: headers}));
    });
  }).catch(function () { /* not kept: the page fetches what its cache lacks */ }).then(function () {
    if (told) told.close();
  });
}

function page(request, url) {
  var body = request.method === "POST" ? request.clone().text() : Promise.resolve("");
  return fetch(request).then(function (response) {
    if (request.method === "GET" && response.ok) remember(url, response.clone());
    if (request.method === "GET" && (response.status === 404 || response.status === 410)) forget(url);
    return response;
  }).catch(function () {
    return body.then(function (sent) { return offlineAnswer(request, url, heldHand(request, sent)); });
  });
}

/* with no network: the page as last seen, else the offline notice; a hand form that could not be sent
   comes back on its table's page as last seen (the form posts to the page's own address) */
function offlineAnswer(request, url, held) {
  var seen = held ? caches.match(url.href, {ignoreVary: true}) : keptPage(request, url);
  return seen.then(function (kept) {
    if (kept && kept.headers.has(KEPT_AT)) return asLastSeen(kept, held);
    return kept && !held ? kept : offlineNotice(held);
  });
}

/* a kept table page says when it was kept (outbox.js shows "offline: as last seen at HH:MM") and carries
   the hand it could not send, if any */
function asLastSeen(kept, held) {
  return kept.text().then(function (html) {
    var marks = "<html data-offline-at=\"" + attribute(kept.headers.get(KEPT_AT)) + "\"" + heldMarks(held);
    html = html.replace("<html", function () { return marks; });
    return new Response(html, {headers: kept.headers});
  });
}

function heldMarks(held) {
  if (!held) return "";
  return " data-held-action=\"" + attribute(held.action) + "\" data-held-body=\"" + attribute(held.body) + "\"";
}

/* A hand form posted while the phone believed it had a signal: its table page as last seen (else the
   offline notice) hands it to outbox.js,
   which holds it like any hand saved offline (it carries its idempotency key: sent twice, recorded once). */
function heldHand(request, sent) {
  return /(^|&)idempotency_key=/.test(sent) ? {action: request.url, body: sent} : null;
}

function attribute(value) {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function withHeldHand(notice, held) {
  return notice.text().then(function (html) {
    var marked = "data-offline-notice" + heldMarks(held);
    html = html.replace("data-offline-notice", function () { return marked; });
    return new Response(html, {status: notice.status, headers: notice.headers});
  });
}

/* A page that answered says its language (<html lang>): remember it, keep a table page as last seen,
   and keep a rules page under the address of that language, where keptPage looks for it. */
function remember(url, response) {
  return response.text().then(function (html) {
    var found = /<html[^>]*\blang="(\w+)/.exec(html.slice(0, 400));
    if (!found) return;
    var shown = found[1].toLowerCase() === "en" ? "en" : "zh";
    saveLang(shown);
    if (KEEP_MARK.test(html)) return keepTable(url, html, keptHeaders(response.headers));
    if (!RULES_PAGE.test(url.pathname)) return;
    var key = new URL(url.pathname + "?lang=" + shown, url.origin);
    return caches.open(CACHE).then(function (cache) {
      return cache.put(key, new Response(html, {headers: keptHeaders(response.headers)}));
    });
  });
}

function keptHeaders(answered) {
  var headers = new Headers({"Content-Type": "text/html; charset=utf-8"});
  KEPT_HEADERS.forEach(function (name) { if (answered.has(name)) headers.set(name, answered.get(name)); });
  return headers;
}

function keepTable(url, html, headers) {
  headers.set(KEPT_AT, String(Date.now()));
  return caches.open(TABLES).then(function (cache) {
    return cache.delete(url.href).then(function () {  // the newest last: the oldest go first
      return cache.put(url.href, new Response(html, {headers: headers}));
    }).then(function () { return cache.keys(); }).then(function (keys) {
      return Promise.all(keys.slice(0, Math.max(0, keys.length - TABLES_KEPT)).map(function (key) {
        return cache.delete(key);
      }));
    });
  });
}

/* a table gone (deleted, or its link no longer valid) is no longer shown offline */
function forget(url) {
  return caches.open(TABLES).then(function (cache) { return cache.delete(url.href); });
}

/* the table page changed while it was open (a hand recorded on another phone): keep it as it is now */
function keepAgain(address) {
  var url = new URL(address, self.location.origin);
  if (url.origin !== self.location.origin) return Promise.resolve();
  return fetch(url.href, {credentials: "same-origin"}).then(function (response) {
    if (response.ok && !response.redirected) return remember(url, response);
  }).catch(function () { /* no signal: the copy kept stays */ });
}

function keptPage(request, url) {
  if (request.method !== "GET") return Promise.resolve(null);
  return caches.match(request, {ignoreVary: true}).then(function (kept) {
    if (kept || url.searchParams.has("lang")) return kept;
    return currentLang().then(function (shown) {
      return caches.match(url.pathname + "?lang=" + shown, {ignoreVary: true});
    });
  });
}

function offlineNotice(held) {
  return currentLang().then(function (shown) {
    return caches.match(CONFIG.offline[shown] || CONFIG.offline.zh, {ignoreVary: true});
  }).then(function (kept) {
    if (kept && held) return withHeldHand(kept, held);
    return kept || new Response("<!doctype html><meta charset=utf-8><title>没有网络 · Offline</title>" +
      "<h1>没有网络 · You are offline</h1>", {status: 503, headers: {"Content-Type": "text/html; charset=utf-8"}});
  });
}

/* the language of the last page shown: the pages choose it by a cookie this worker cannot read */
function saveLang(shown) {
  if (shown === lang) return;
  lang = shown;
  caches.open(META).then(function (cache) { return cache.put(LANG_KEY, new Response(shown)); });
}

function currentLang() {
  if (lang) return Promise.resolve(lang);
  return caches.open(META).then(function (cache) { return cache.match(LANG_KEY); }).then(function (kept) {
    return kept ? kept.text() : "zh";
  }).then(function (shown) { lang = shown === "en" ? "en" : "zh"; return lang; });
}
