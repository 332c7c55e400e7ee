/* A web app a phone keeps (the service worker is static/sw.js), on every page:
   - registers the service worker once the page has loaded and is idle (issue 42);
   - over plain http from another address (not a secure context: no service worker, wake lock, one-tap copy nor
     offline mode), the page's [data-insecure-note] says so;
   - a boosted link that neither the network nor a kept copy answers is opened as a page;
   - the hands this phone holds for want of a signal are sent from whatever page is open: a page without
     static/outbox.js (the hand queue, the table page as last seen and its wake lock, on the pages that show
     them) loads it when this phone holds one (a first visit downloads none of it);
   - what a page needs only once a player acts (its <script type="paiju/later" data-src>: htmx, the hand queue) is
     loaded after the page's load, when it is idle or at the first touch or key (issue 42: first visit ≤ 30 KB); a
     form sent before that waits for them, then goes as they would have sent it. */
(function () {
  "use strict";
  var script = document.currentScript;
  var text = script ? script.dataset : {};

  // --- the service worker -------------------------------------------------------------------------------

  /* registered once the page has loaded and is idle (issue 42): what the worker keeps for offline use (the static
     files, the rules pages, the offline notices) is fetched after what the page itself needs, never beside it */
  function whenIdle(then) {
    function idle() {
      if (window.requestIdleCallback) window.requestIdleCallback(then, {timeout: 3000}); else setTimeout(then, 0);
    }
    if (document.readyState === "complete") idle(); else window.addEventListener("load", idle);
  }

  // --- what a page needs only once a player acts: loaded after the page's load (issue 42) ------------------------

  var LATER = "script[type='paiju/later']";
  var later = null, laterDone = false;

  /* each marked script, in the page's order, as the page would have run it (its data-* marks kept) */
  function loadLater() {
    if (!later) {
      later = Promise.all(Array.prototype.map.call(document.querySelectorAll(LATER), loadMarked))
        .then(function () { laterDone = true; });
    }
    return later;
  }

  function loadMarked(mark) {
    return new Promise(function (done) {
      var added = document.createElement("script");
      Array.prototype.forEach.call(mark.attributes, function (a) {
        if (a.name !== "type" && a.name !== "data-src") added.setAttribute(a.name, a.value);
      });
      added.async = false;  // in the page's order
      added.onload = added.onerror = function () { done(); };
      added.src = mark.dataset.src;
      mark.parentNode.replaceChild(added, mark);
    });
  }

  /* the later scripts, loaded now (once the page has loaded): for a choice that needs htmx at once (static/picker.js) */
  window.PaijuLater = function () {
    return new Promise(function (done) { whenLoaded(function () { loadLater().then(done); }); });
  };

  function whenLoaded(then) {
    if (document.readyState === "complete") then(); else window.addEventListener("load", function () { then(); });
  }

  /* a form sent before the later scripts ran (htmx sends it in place, the queue keeps it with no signal): held back,
     then sent again by the same button once they have */
  function holdForm(event) {
    if (laterDone || event.defaultPrevented) return;
    var form = event.target, by = event.submitter;
    event.preventDefault();
    event.stopImmediatePropagation();
    whenLoaded(function () {
      loadLater().then(function () {
        if (by && by.form === form) form.requestSubmit(by); else form.requestSubmit();
      });
    });
  }

  function startLater() {
    if (!document.querySelector(LATER)) { laterDone = true; return; }
    window.addEventListener("submit", holdForm, true);
    ["pointerdown", "keydown", "focusin"].forEach(function (type) {
      window.addEventListener(type, function () { whenLoaded(loadLater); }, {capture: true, once: true});
    });
  }

  function registerWorker() {
    if (!("serviceWorker" in navigator) || !text.worker) return;
    // a page the worker did not fetch (the first visit) is not kept yet: the worker fetches it once more
    var keep = !navigator.serviceWorker.controller && keptOffline();
    navigator.serviceWorker.register(text.worker).catch(function () { /* the site works without it */ });
    // the worker keeps the offline pages in the language this page is in (the cookie is out of its reach)
    var lang = document.documentElement.lang === "en" ? "en" : "zh";
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage(keep ? {lang: lang, keep: location.href} : {lang: lang});
    });
  }

  function keptOffline() { return Boolean(document.querySelector("meta[name='paiju-offline'][content='keep']")); }

  /* hands held on this phone (outbox.js keeps the cookie paiju_held in step), and no outbox.js on this page: it is
     loaded to send them, after storage.js, which it keeps them by (a game tab may have none) */
  function sendHeldHands() {
    if (!text.outboxSrc || document.querySelector("script[data-outbox]")) return;
    if (!/(^|;\s*)paiju_held=1(;|$)/.test(document.cookie)) return;
    if (!window.PaijuStorage) load(text.storageSrc, {});
    load(text.outboxSrc, {"data-outbox": ""});
  }

  function load(src, marks) {
    var added = document.createElement("script");
    added.src = src;
    added.async = false;  // in the order they are added
    Object.keys(marks).forEach(function (name) { added.setAttribute(name, marks[name]); });
    document.head.appendChild(added);
  }

  // --- a page opened over plain http (not a secure context): what it lacks, said once at the top --------------

  function sayWhatHttpLacks() {
    var note = document.querySelector("[data-insecure-note]");
    if (note && !window.isSecureContext) note.hidden = false;
  }

  /* a boosted link (a game tab, issue 42) that neither the network nor a kept copy answers: opened as a page, as
     it is without JavaScript (the service worker then answers it with the offline notice) */
  function openAsPage(event) {
    var detail = event.detail || {};
    if (detail.boosted && detail.pathInfo && detail.pathInfo.requestPath) location.assign(detail.pathInfo.requestPath);
  }

  sayWhatHttpLacks();
  document.addEventListener("htmx:load", sayWhatHttpLacks);  // a boosted page's new body
  document.addEventListener("htmx:sendError", openAsPage);
  startLater();
  whenIdle(function () { loadLater().then(registerWorker); });
  sendHeldHands();
})();
