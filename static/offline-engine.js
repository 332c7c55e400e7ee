/* 牌局 Paiju's offline mode (issue 29): the engine in the phone.

   - On the home page, the switch 离线也能算 / Work offline: turning it on keeps what /offline-engine/manifest.json
     lists (the Pyodide runtime, the repo's scoring/ package, the page glue, the worker) in the Cache Storage
     cache "paiju-engine", which the service worker (static/sw.js) answers /offline-engine/… from, keeps a copy
     of the home page and of every game tab there (the service worker finds kept pages in any cache), tries the
     engine once, and remembers the choice (localStorage). The trial is the download (issue 42): the engine
     starts at the tap and the service worker keeps each file as it comes to it; the switch says ready once the
     engine has loaded and every file and page is kept. Turning it off deletes that cache. A player who never
     turns it on downloads none of it.
   - At every online visit with offline mode on, the manifest is asked again: its addresses name the versions
     of what they hold, so whatever changed on the server is fetched again and what is gone is dropped.
   - On a game tab, a form whose post cannot reach the server (no network) is answered in the page by the
     engine running in a worker (static/offline-engine-worker.js), marked 算于本机（离线）; a post that asks the
     server to redraw the form (a house rule, the seats, a preset, a row) is the engine's too: it says, in words,
     that redrawing needs the signal, and never answers a form drawn for other rules (webapp/offline_page.py).
   - One engine per visit (issue 42): the game tabs open without a page load (their links are boosted), so the
     worker started on one tab answers on the next; a page that does load puts the engine back from the snapshot
     of Python's memory the worker kept (static/offline-engine-worker.js).
   Where WebAssembly is missing or the engine cannot load, the switch says so and the forms behave as before. */
(function () {
  "use strict";
  var CACHE = "paiju-engine";
  var LOAD_LIMIT_MS = 120000;  // a cold load took 3 to 13 s on a busy two-core machine (bench/offline.py)
  var script = document.currentScript;
  var words = script && script.dataset.words ? JSON.parse(script.dataset.words) : {};
  var manifestUrl = script && script.dataset.manifest;

  function word(name, values) {
    var text = words[name] || name;
    Object.keys(values || {}).forEach(function (k) { text = text.split("{" + k + "}").join(values[k]); });
    return text;
  }

  function stored() { return window.PaijuStorage.read("offlineEngine", null); }

  function store(state) {
    if (state) window.PaijuStorage.write("offlineEngine", state); else window.PaijuStorage.remove("offlineEngine");
    markPages(Boolean(state && state.on));
  }

  /* a game tab brings this script only to a phone with offline mode on, which a cookie tells the server (issue 42:
     a first visit downloads none of it); set before the pages to keep are fetched, cleared when it is turned off */
  function markPages(on) {
    window.PaijuStorage.flag("offlineMode", on);
  }

  function supported() {
    return typeof WebAssembly === "object" && typeof Worker === "function" && "caches" in window &&
      typeof fetch === "function";
  }

  function mb(bytes) { return (bytes / 1048576).toFixed(1); }

  // -- the download -------------------------------------------------------------------------------------------

  function fetchManifest() {
    return fetch(manifestUrl, { cache: "no-store" }).then(function (r) {
      if (!r.ok) throw new Error("manifest " + r.status);
      return r.json();
    });
  }

  /* what a kept file says of itself: its own headers (the worker's policy, the wasm's type), but not how it came
     over the wire (the runtime comes gzip or brotli: what is kept is the file itself, of another length) */
  function keptHeaders(headers) {
    var kept = new Headers(headers);
    kept.delete("Content-Encoding");
    kept.delete("Content-Length");
    return kept;
  }

  /* one file, counted as it arrives (unpacked), kept with its own headers */
  function download(url, counted) {
    return fetch(url, { cache: "no-store" }).then(function (response) {
      if (!response.ok) throw new Error(url + ": " + response.status);
      var reader = response.body.getReader(), chunks = [];
      function pump() {
        return reader.read().then(function (step) {
          if (step.done) return new Response(new Blob(chunks), { status: 200, headers: keptHeaders(response.headers) });
          chunks.push(step.value);
          counted(step.value.length);
          return pump();
        });
      }
      return pump();
    });
  }

  /* at a later visit: fetch what the cache lacks, drop what the manifest no longer lists; the kept pages afresh */
  function fill(manifest) {
    function uncounted() { /* no one is shown these bytes */ }
    return caches.open(CACHE).then(function (cache) {
      return prune(cache, manifest).then(function () { return fetchMissing(cache, manifest, uncounted); })
        .then(function () { return keepPages(cache, manifest.pages, uncounted); });
    });
  }

  function cachedUrls(cache) {
    return cache.keys().then(function (requests) { return requests.map(function (req) { return req.url; }); });
  }

  /* drop what the manifest no longer lists */
  function prune(cache, manifest) {
    var wanted = {};
    manifest.files.concat(manifest.pages).forEach(function (u) { wanted[new URL(u, location.href).href] = 1; });
    return cachedUrls(cache).then(function (urls) {
      // the engine compiled in the phone (the worker keeps it) lives as long as the engine's address
      return Promise.all(urls.map(function (url) { return wanted[url.split("&pyc=")[0]] ? null : cache.delete(url); }));
    });
  }

  /* the engine's files the cache lacks, one after the other, counted as they arrive (unpacked) */
  function fetchMissing(cache, manifest, counted) {
    return cachedUrls(cache).then(function (urls) {
      var have = {};
      urls.forEach(function (url) { have[url] = 1; });
      return manifest.files.filter(function (u) { return !have[new URL(u, location.href).href]; })
        .reduce(function (chain, url) {
          return chain.then(function () {
            return download(url, counted).then(function (response) { return cache.put(url, response); });
          });
        }, Promise.resolve());
    });
  }

  /* the pages, ``lanes`` at a time (the switch's trial leaves the browser's other connections to the engine's
     files, which load beside them), else all at once */
  function keepPages(cache, pages, counted, lanes) {
    var queue = pages.slice();
    function next() {
      var url = queue.shift();
      if (!url) return Promise.resolve();
      return fetch(url, { credentials: "same-origin" }).then(function (r) {
        if (!r.ok) return null;
        return r.clone().blob().then(function (body) { counted(body.size); return cache.put(url, r); });
      }).then(next);
    }
    var running = [];
    for (var i = 0; i < (lanes || pages.length); i++) running.push(next());
    return Promise.all(running).then(function () {
      var state = stored();
      if (state) { state.pagesLang = document.documentElement.lang; state.pagesAt = Date.now(); store(state); }
    });
  }

  // -- the engine -------------------------------------------------------------------------------------------------

  var engine = null;  // {worker, ready: Promise, pending: {id: resolve}}

  function startEngine(manifest, compile) {
    if (engine) return engine.ready;
    var worker = new Worker(manifest.worker, { type: "module" });
    var pending = {}, settle = {};
    var ready = new Promise(function (resolve, reject) { settle.resolve = resolve; settle.reject = reject; });
    worker.onmessage = function (event) {
      var m = event.data;
      if (m.type === "ready") settle.resolve();
      else if (m.type === "failed") settle.reject(new Error(m.message));
      else if (m.type === "answer" && pending[m.id]) { pending[m.id](m.reply); delete pending[m.id]; }
    };
    worker.onerror = function (event) { event.preventDefault(); settle.reject(new Error(event.message || "worker")); };
    // a load that never ends (a phone short of memory may stall rather than fail) is a failure too
    var timer = null;
    function limit() {  // counted again from each byte of the engine that comes (a slow network is no failure)
      clearTimeout(timer);
      timer = setTimeout(function () { settle.reject(new Error("load timed out")); }, LOAD_LIMIT_MS);
    }
    limit();
    ready.then(function () { clearTimeout(timer); }, function () { clearTimeout(timer); });
    engine = { worker: worker, ready: ready, pending: pending, asked: 1, coming: limit };
    ready.catch(function () { worker.terminate(); engine = null; });
    worker.postMessage({ type: "load", manifest: manifest, compile: !!compile });
    return ready;
  }

  /* a message to the engine's worker (loaded first if need be), answered with its reply */
  function send(message) {
    return startEngine((stored() || {}).manifest).then(function () {
      return new Promise(function (resolve) {
        message.id = engine.asked++;
        engine.pending[message.id] = resolve;
        engine.worker.postMessage(message);
      });
    });
  }

  function lang() { return document.documentElement.lang === "en" ? "en" : "zh"; }

  /* a form's answer worked out by the engine: the API's answer or error, and the view the server's page draws */
  function ask(slug, action, pairs) {
    return send({ type: "answer", slug: slug, action: action, pairs: pairs, lang: lang() });
  }

  /* another of the phone's Python (webapp/offline_page.py CALLS), its arguments as JSON, the page's language
     last; a failure of the engine rejects */
  function call(name, args) {
    return send({ type: "call", name: name, args: args.concat([lang()]) }).then(function (reply) {
      if (reply && reply.failed) throw new Error(reply.failed);
      return reply;
    });
  }

  /* what the engine's worker holds: {wasm: bytes of Python's memory, js: its JavaScript heap} (bench/offline.py) */
  function memory() {
    return engine ? engine.ready.then(function () { return send({ type: "memory" }); }) : Promise.resolve(null);
  }

  window.PaijuOfflineEngine = { ask: ask, call: call, start: startEngine, stored: stored, memory: memory };

  // -- the switch on the home page ----------------------------------------------------------------------------------

  /* why the switch cannot work here, in the order a player can do something about it: the server has no engine
     (make pyodide), the page came over plain http (no Cache Storage nor service worker), the browser lacks what
     the engine needs */
  function cannotRun() {
    if (script && script.dataset.engine === "none") return "no-engine";
    if (!window.isSecureContext) return "insecure";
    return supported() ? null : "unavailable";
  }

  function initSwitch(box) {
    var toggle = box.querySelector("input[type=checkbox]"), status = box.querySelector("[data-status]");
    box.hidden = false;
    function say(text) { status.textContent = text; }
    var lacking = cannotRun();
    if (lacking) { toggle.disabled = true; say(word(lacking)); return; }
    var state = stored();
    toggle.checked = !!(state && state.on);
    if (state && state.on) say(word("ready", { mb: mb(state.manifest.bytes) }));
    toggle.addEventListener("change", function () {
      toggle.disabled = true;
      (toggle.checked ? turnOn(say) : turnOff(say)).then(function (on) {
        toggle.checked = on;
        toggle.disabled = false;
      });
    });
  }

  var PAGES_BESIDE_ENGINE = 2;

  function turnOn(say) {
    say(word("downloading", { got: "0.0", total: "…" }));
    var manifest, got = 0, pages = 0, done = false;
    function counted(n) {
      got += n;
      if (done) return;
      say(got < manifest.bytes ? word("downloading", { got: mb(got), total: mb(manifest.bytes) }) : word("trying"));
    }
    return fetchManifest().then(function (m) {
      manifest = m;
      if (!m.available) throw new Error("unavailable");
      store({ on: true, manifest: m });
      return caches.open(CACHE);
    }).then(function (cache) {
      return prune(cache, manifest).then(function () {
        return Promise.all([tryEngine(cache, manifest, counted),
                            keepPages(cache, manifest.pages, function (n) { pages += n; }, PAGES_BESIDE_ENGINE)]);
      });
    }).then(function () {
      done = true;
      box().dataset.downloaded = String(got + pages);
      say(word("ready", { mb: mb(manifest.bytes) }));
      return true;
    }).catch(function (error) {
      done = true;
      var reason = navigator.onLine ? word("unavailable") : word("no-network");
      // an engine that loaded while a page failed would go on to keep its snapshot in the cache deleted here
      if (engine) { engine.worker.terminate(); engine = null; }
      return caches.delete(CACHE).then(function () {
        store(null);
        say(reason);
        box().dataset.failed = String(error && error.message || error);
        return false;
      });
    });
  }

  /* the engine loaded once, to try it, and every file of it kept: where the service worker controls the page, the
     engine starts at once and the service worker keeps its files as they come to it (told on the channel
     "paiju-engine"; issue 42: the runtime compiles as it arrives), then whatever was not kept is fetched; else the
     files are downloaded first */
  function tryEngine(cache, manifest, counted) {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!worker || typeof BroadcastChannel !== "function") {
      return fetchMissing(cache, manifest, counted).then(function () { return startEngine(manifest, true); });
    }
    var channel = new BroadcastChannel(CACHE);
    channel.onmessage = function (event) {
      if (!event.data || !event.data.kept) return;
      counted(event.data.kept);
      if (engine) engine.coming();
    };
    function close() { channel.close(); }
    return startEngine(manifest, true).then(function () {
      close();
      return fetchMissing(cache, manifest, counted);
    }, function (error) { close(); throw error; });
  }

  function box() { return document.getElementById("offline-engine"); }

  function turnOff(say) {
    if (engine) { engine.worker.terminate(); engine = null; }
    store(null);
    return caches.delete(CACHE).then(function () { say(word("off")); return false; });
  }

  /* online with offline mode on: what changed on the server is fetched again (the addresses name versions) */
  function refresh() {
    var state = stored();
    if (!state || !state.on || !navigator.onLine || !manifestUrl) return;
    fetchManifest().then(function (m) {
      if (!m.available) return;
      var changed = JSON.stringify(m) !== JSON.stringify(state.manifest);
      var stale = state.pagesLang !== document.documentElement.lang || !state.pagesAt ||
        Date.now() - state.pagesAt > 3600 * 1000;
      if (!changed && !stale) return;
      state.manifest = m;
      store(state);
      return fill(m);
    }).catch(function () { /* the next visit tries again */ });
  }

  // -- the game tabs: a post with no network answered here ----------------------------------------------------------

  var TAB = /^\/([a-z0-9_]+)\/([a-z_]+)$/;

  function engineForm(elt) {
    var form = elt && elt.closest && elt.closest("form[hx-post]");
    if (!form || !form.closest("#panel")) return null;
    var m = TAB.exec(new URL(form.getAttribute("hx-post"), location.href).pathname);
    return m ? { form: form, slug: m[1], action: m[2] } : null;
  }

  function postedPairs(detail, form) {
    var data = detail && detail.requestConfig && detail.requestConfig.formData;
    var pairs = [];
    (data || new FormData(form)).forEach(function (value, name) {
      if (typeof value === "string") pairs.push([name, value]);
    });
    return pairs;
  }

  function onRequest(event, noNetwork) {
    var state = stored();
    if (!state || !state.on || !supported()) return;
    var found = engineForm(event.detail && event.detail.elt);
    if (!found) return;
    if (!noNetwork && navigator.onLine) return;
    if (event.type === "htmx:beforeRequest") event.preventDefault();
    answerHere(found, postedPairs(event.detail, found.form));
  }

  function answerHere(found, pairs) {
    var panel = found.form.closest("#panel");
    var out = resultBox(panel);
    out.className = "result unknown";
    out.innerHTML = "";
    out.appendChild(el("p", "verdict", word("working")));
    var started = performance.now();
    ask(found.slug, found.action, pairs).then(function (reply) {
      if (reply && reply.view === null) out.remove();  // a redraw that changes nothing: the form stays as it is
      else out.replaceWith(render(reply, performance.now() - started));
    }, function () {
      out.className = "result bad";
      out.innerHTML = "";
      out.appendChild(el("p", "verdict", word("cannot-load")));
    });
  }

  function resultBox(panel) {
    var out = panel.querySelector("#result");
    if (!out) {
      out = el("div", "result");
      out.id = "result";
      out.setAttribute("aria-live", "polite");
      panel.appendChild(out);
    }
    return out;
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  /* the tags a view may hold (scoring/result_view.py); any other is drawn as a span */
  var TAGS = /^(div|p|strong|table|thead|tbody|tr|th|td|h3|ol|ul|li)$/;

  /* one node of the view the phone's engine worked out, with its words: drawn as the server's page draws it */
  function draw(view) {
    var node = el(TAGS.test(view.tag) ? view.tag : "span", view.cls, view.text);
    (view.children || []).forEach(function (child) { node.appendChild(draw(child)); });
    return node;
  }

  function render(reply, ms) {
    var out = reply.view ? draw(reply.view) : el("div", "result bad", word("cannot-load"));
    out.id = "result";
    out.setAttribute("aria-live", "polite");
    out.dataset.offline = "1";
    out.dataset.ms = String(Math.round(ms));
    out.appendChild(el("p", "offline-mark muted", word("mark")));
    return out;
  }

  // -- start ------------------------------------------------------------------------------------------------------

  function init() {
    markPages(Boolean(stored() && stored().on));  // in step with what this phone keeps (a cookie cleared alone)
    var box = document.getElementById("offline-engine");
    if (box) initSwitch(box);
    refresh();
    var state = stored();
    // a game tab opened with no network: start the engine at once, so the first answer waits less
    if (state && state.on && !navigator.onLine && supported() && document.querySelector("#panel form[hx-post]")) {
      startEngine(state.manifest).catch(function () { /* said when a form is sent */ });
    }
  }

  document.addEventListener("htmx:beforeRequest", function (e) { onRequest(e, false); });
  document.addEventListener("htmx:sendError", function (e) { onRequest(e, true); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
