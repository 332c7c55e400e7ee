/* 牌局 Paiju's service worker, served at /sw.js by webapp/pwa.py, which puts one line in front of this
   file: self.PAIJU = {build, precache: [URLs], offline: {zh: URL, en: URL}}.

   - static files (hashed, immutable names): from the cache, else the network (and kept);
   - pages: the network first; a rules page that answers is kept for reading offline; with no network a
     kept copy of the page, else the offline notice in the player's language;
   - the offline engine (/offline-engine/…): from the cache "paiju-engine" when the player turned offline mode
     on (the page fills and empties that cache itself, see static/offline-engine.js), else the network untouched;
   - everything else (the API, the live polls, form posts) goes to the network untouched. */
"use strict";

var CONFIG = self.PAIJU;
var CACHE = "paiju-" + CONFIG.build;
var META = "paiju-meta";
var ENGINE = "paiju-engine";
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
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("message", function (event) {
  if (event.origin && event.origin !== self.location.origin) return;
  var shown = event.data && event.data.lang;
  if (shown === "zh" || shown === "en") saveLang(shown);
});

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "GET" && url.pathname.indexOf("/offline-engine/") === 0) {
    event.respondWith(engineFile(request));
  } else if (request.method === "GET" && url.pathname.indexOf("/static/") !== -1) {
    event.respondWith(fromCache(request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  }
});

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

/* Only what the page put in the engine's cache (offline mode on) is answered from it: a player who never
   turned offline mode on downloads nothing more, and nothing here keeps a copy on its own. */
function engineFile(request) {
  return caches.open(ENGINE).then(function (cache) { return cache.match(request); }).then(function (kept) {
    return kept || fetch(request);
  });
}

function page(request, url) {
  var body = request.method === "POST" ? request.clone().text() : Promise.resolve("");
  return fetch(request).then(function (response) {
    if (request.method === "GET" && response.ok) remember(url, response.clone());
    return response;
  }).catch(function () {
    return keptPage(request, url).then(function (kept) {
      return kept || body.then(function (sent) { return offlineNotice(heldHand(request, sent)); });
    });
  });
}

/* A hand form posted while the phone believed it had a signal: the offline notice hands it to pwa.js,
   which holds it like any hand saved offline (it carries its idempotency key: sent twice, recorded once). */
function heldHand(request, sent) {
  return /(^|&)idempotency_key=/.test(sent) ? {action: request.url, body: sent} : null;
}

function attribute(value) {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function withHeldHand(notice, held) {
  return notice.text().then(function (html) {
    var marked = "data-offline-notice data-held-action=\"" + attribute(held.action) +
      "\" data-held-body=\"" + attribute(held.body) + "\"";
    html = html.replace("data-offline-notice", function () { return marked; });
    return new Response(html, {status: notice.status, headers: notice.headers});
  });
}

/* A page that answered says its language (<html lang>): remember it, and keep a rules page under the
   address of that language, where keptPage looks for it. */
function remember(url, response) {
  return response.text().then(function (html) {
    var found = /<html[^>]*\blang="(\w+)/.exec(html.slice(0, 400));
    if (!found) return;
    var shown = found[1].toLowerCase() === "en" ? "en" : "zh";
    saveLang(shown);
    if (!RULES_PAGE.test(url.pathname)) return;
    var key = new URL(url.pathname + "?lang=" + shown, url.origin);
    return caches.open(CACHE).then(function (cache) {
      return cache.put(key, new Response(html, {headers: {"Content-Type": "text/html; charset=utf-8"}}));
    });
  });
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
