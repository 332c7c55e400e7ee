/* The hand queue, the table page as last seen and its wake lock (static/pwa.js registers the service worker):
   - the hand queue: a hand saved on a table page while the phone has no signal (form[data-offline-queue])
     is held in localStorage with the form's idempotency key and sent as soon as the signal returns, so the
     ledger records it once however often it is sent; the table page lists the hands it holds beside the
     totals ([data-held-hands]) and says so by the form's save button; in offline mode static/held-in-phone.js
     settles them in the phone and compares the ledger's answer with the phone's once one is recorded;
   - a held hand the ledger refuses (403, 404, 409, 422…) is never dropped: it stays, marked with the refusal
     in words, until the player sends it to the evening as it is now (the seating the ledger says is current,
     from the form's [data-seated] fields) or discards it; only a recorded answer (or one saying its key was
     recorded: [data-already-recorded]) empties it;
   - a hand form posted online: its history entry keeps the key it went under, so the form restored by Back,
     reload or the browser's cache goes again under that key (recorded once);
   - the table page as last seen: shown by the worker with no signal (<html data-offline-at>), or left open
     when the signal went, it says when it was last updated ([data-offline-note]);
   - the screen wake lock of a table page ([data-wake-lock]): on unless this phone switched it off; unticked,
     saying why, where the browser refuses it;
   The texts come from this script's data-* attributes (templates/pwa/_outbox.html), in the page's language; a page
   that has none loads this script only to send the hands this phone holds (static/pwa.js). */
(function () {
  "use strict";
  var script = document.currentScript;
  var text = script ? script.dataset : {};
  var OUTBOX = "outbox", WAKE = "wakeLock";  // their keys: static/storage.js
  var RETRY_MS = 15000;
  var stored = window.PaijuStorage.read, store = window.PaijuStorage.write;

  function keptOffline() { return Boolean(document.querySelector("meta[name='paiju-offline'][content='keep']")); }

  /* the page changed from the server (a hand recorded on another phone): the worker keeps it as it is now */
  function keepAgain() {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker && keptOffline()) worker.postMessage({keep: location.href});
  }

  // --- the table page as last seen ----------------------------------------------------------------------

  var keptAt = Number(document.documentElement.dataset.offlineAt) || 0;  // shown by the worker, no signal
  var freshAt = Date.now();  // when what this page shows last came from the server

  function pad(number) { return (number < 10 ? "0" : "") + number; }

  function clock(ms) {
    var when = new Date(ms);
    var time = pad(when.getHours()) + ":" + pad(when.getMinutes());
    if (when.toDateString() === new Date().toDateString()) return time;
    return when.toLocaleDateString(document.documentElement.lang || "zh-CN", {month: "short", day: "numeric"}) +
      " " + time;
  }

  function offlineNote(shown) {
    var note = document.querySelector("[data-offline-note]");
    if (!note) return;
    note.textContent = (note.dataset.text || "{time}").replace("{time}", clock(keptAt || freshAt));
    note.hidden = !shown;
  }

  function backOnline() {
    offlineNote(false);
    var form = document.querySelector("form[data-offline-queue]");
    // the page as last seen, with nothing of its own to send: the page as it is now
    if (keptAt && !(form && heldHere(form).length)) location.reload();
  }

  function onLiveAnswer(event) {
    var detail = event.detail || {};
    if (!detail.successful || !detail.elt || detail.elt.id !== "live") return;
    freshAt = Date.now();
    offlineNote(false);
    if (detail.xhr && detail.xhr.status === 200) keepAgain();
  }

  /* the phone believes it has a signal, but the totals' poll does not get through: offline all the same */
  function onLiveUnsent(event) {
    var detail = event.detail || {};
    if (detail.elt && detail.elt.id === "live") offlineNote(true);
  }

  /* the page as last seen says so where it opens: the browser would put it back where it was scrolled to
     after it loaded, under the note (hidden then), so it opens where it was left or where its address
     points instead, and then the note is brought into view */
  function noteInSight() {
    var note = document.querySelector("[data-offline-note]");
    if (note && !note.hidden && !inView(note)) note.scrollIntoView({block: "nearest"});
  }

  function startLastSeen() {
    offlineNote(Boolean(keptAt) || navigator.onLine === false);
    if (keptAt && "scrollRestoration" in history) history.scrollRestoration = "manual";
    if (keptAt) whenLoaded(noteInSight);
    window.addEventListener("offline", function () { offlineNote(true); });
    window.addEventListener("online", backOnline);
    document.addEventListener("htmx:afterRequest", onLiveAnswer);
    document.addEventListener("htmx:sendError", onLiveUnsent);
  }

  // --- the hand queue -----------------------------------------------------------------------------------

  function outbox() { return stored(OUTBOX, []); }

  /* the hands held, and a cookie saying whether there are any: a page without this script loads it to send them
     (static/pwa.js), and a page that has nothing of its own to keep in this phone loads nothing of it */
  function keepOutbox(items) {
    markHeld(items.length > 0);
    return store(OUTBOX, items);
  }

  function markHeld(any) {
    window.PaijuStorage.flag("holding", any);
  }

  /* where the player saves: by the form's save button (in the bar that stays in reach), not above a
     form that may be longer than the screen */
  function statusBox(form) {
    var box = document.querySelector("[data-outbox-status]");
    if (!box && form) {
      box = document.createElement("p");
      box.className = "notice outbox-status";
      box.setAttribute("role", "status");
      box.setAttribute("data-outbox-status", "");
      var saves = form.querySelectorAll("[type=submit]:not([name]):not([hidden])");
      var save = saves[saves.length - 1];
      if (save) save.parentNode.insertBefore(box, save); else form.parentNode.insertBefore(box, form);
    }
    return box;
  }

  function say(message, reveal) {
    var box = statusBox(document.querySelector("form[data-offline-queue]"));
    if (!box) return;
    box.textContent = message;
    box.hidden = false;
    if (reveal) whenLoaded(function () { inSight(box); });
  }

  function whenLoaded(then) {
    then();
    if (document.readyState !== "complete") window.addEventListener("load", function () { then(); });
  }

  function inView(element) {
    var edges = element.getBoundingClientRect();
    return edges.top >= 0 && edges.bottom <= window.innerHeight;
  }

  /* the banner of a held hand in view where the player saved it, with the save button under it; the page
     as last seen, shown after the form was posted, opens at its top: it goes where a save lands first */
  function inSight(box) {
    var save = box.parentNode.querySelector("[type=submit]:not([name]):not([hidden])") || box;
    if (inView(box) && inView(save)) return;
    var entry = document.getElementById("entry");
    if (entry && save !== box) entry.scrollIntoView({block: "start"});
    if (!inView(save)) save.scrollIntoView({block: "end"});
    if (!inView(box)) box.scrollIntoView({block: "nearest"});
  }

  function heldHere(form) {
    var action = actionOf(form);
    return outbox().filter(function (held) { return held.action === action; });
  }

  /* the hands of this table held on this phone, in words beside the totals */
  function listHeld() {
    var list = document.querySelector("[data-held-hands]");
    var form = document.querySelector("form[data-offline-queue]");
    if (!list || !form) return;
    var items = heldHere(form);
    list.textContent = "";
    items.forEach(function (held) {
      var item = document.createElement("li");
      item.textContent = (list.dataset.item || "{time}").replace("{time}", clock(held.at));
      if (held.refused) refusedHere(list, form, item, held);
      list.appendChild(item);
    });
    list.hidden = !items.length;
    if (window.PaijuHeldHands) window.PaijuHeldHands.listed();  // in offline mode: settled in the phone
  }

  /* a held hand the ledger refused: kept and marked, with what was refused in words and what the player
     can do about it: send it to the evening as it is now (the ledger checks it against the seats now), or
     discard it */
  function refusedHere(list, form, item, held) {
    item.className = "held-refused";
    item.setAttribute("data-held-refused", "");
    var words = document.createElement("p");
    words.className = "error";
    words.setAttribute("role", "alert");
    words.textContent = (list.dataset.notRecorded || "{message}").replace("{message}", function () {
      return held.refused.message || String(held.refused.status);
    });
    item.appendChild(words);
    var seated = seatingFor(held, form).map(function (pair) { return pair[1]; });
    var choices = document.createElement("p");
    choices.className = "held-choices";
    choices.appendChild(choice(seated.length ? list.dataset.sendNowSeated.replace("{names}", function () {
      return seated.join(" · ");
    }) : list.dataset.sendNow, "data-held-send-now", function () { sendAsNow(held); }));
    choices.appendChild(choice(list.dataset.discard, "data-held-discard", function () { drop(held); showPending(); }));
    item.appendChild(choices);
  }

  function choice(label, mark, then) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "btn";
    button.setAttribute(mark, "");
    button.textContent = label;
    button.addEventListener("click", then);
    return button;
  }

  /* the seating a form is filled against (its hidden fields marked data-seated), as [name, value] pairs */
  function seatingOf(form) {
    return Array.prototype.map.call(form ? form.querySelectorAll("[data-seated]") : [], function (box) {
      return [box.name, box.value];
    });
  }

  /* the seating now: as the refusal said it (the ledger's page at that moment), else as this page shows it */
  function seatingFor(held, form) {
    return held.refused && held.refused.seated && held.refused.seated.length ? held.refused.seated : seatingOf(form);
  }

  /* the held hand as the evening is now: the seating the page shows, and sent again under its key */
  function sendAsNow(held) {
    var form = document.querySelector("form[data-offline-queue]");
    var pairs = new URLSearchParams(held.body), seated = seatingFor(held, form);
    if (seated.length) {
      pairs.delete(seated[0][0]);
      seated.forEach(function (pair) { pairs.append(pair[0], pair[1]); });
    }
    var items = outbox();
    items.forEach(function (item) {
      if (item.at !== held.at || item.body !== held.body) return;
      item.body = pairs.toString();
      delete item.refused;
      delete item.phone;  // settled again by the phone, with the seats now
    });
    keepOutbox(items);
    showPending();
    flush();
  }

  function showPending(reveal) {
    listHeld();
    var items = outbox();
    var stopped = items.filter(function (held) { return held.refused; }).length;
    var waiting = items.length - stopped;
    if (waiting) say(text.saved + " · " + (text.pending || "{n}").replace("{n}", waiting), reveal);
    else if (stopped) say((text.refused || "{n}").replace("{n}", stopped), reveal);
    else if (document.querySelector("[data-outbox-status]")) document.querySelector("[data-outbox-status]").hidden = true;
  }

  function freshKey() {
    var bytes = new Uint8Array(18);
    crypto.getRandomValues(bytes);
    return btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  // form.action would be the "add a row" button, which is named "action"
  function actionOf(form) { return new URL(form.getAttribute("action") || "", location.href).href; }

  function keep(action, body) {
    var items = outbox();
    if (items.some(function (held) { return held.body === body; })) return true;
    items.push({action: action, body: body, at: Date.now()});
    return keepOutbox(items);
  }

  function hold(form, submitter) {
    if (!keep(actionOf(form), new URLSearchParams(new FormData(form, submitter)).toString())) return false;
    form.reset();
    if (form.elements.idempotency_key) form.elements.idempotency_key.value = freshKey();  // the next hand
    showPending(true);
    return true;
  }

  // --- a form sent once, restored by Back or reload ------------------------------------------------------

  /* the form is posted: this page's history entry remembers the key it went under, so that the same form
     restored by Back, reload or the browser's cache goes again under that key: the ledger records it once
     (changed since, it is refused as already recorded, and saved again it is a new hand) */
  function sendUnderOneKey(form) {
    var keyBox = form.elements.idempotency_key;
    if (!keyBox || !window.history || !history.replaceState) return;
    var state = history.state && typeof history.state === "object" ? history.state : {};
    if (state.paijuSent) { keyBox.value = state.paijuSent; return; }
    var copy = {};
    Object.keys(state).forEach(function (name) { copy[name] = state[name]; });
    copy.paijuSent = keyBox.value;
    try { history.replaceState(copy, ""); } catch (e) { /* the form is sent all the same */ }
  }

  function onSubmit(event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-offline-queue]")) return;
    if (navigator.onLine !== false) {
      if (!event.defaultPrevented && !(event.submitter && event.submitter.name === "action")) {
        sendUnderOneKey(form);
      }
      return;
    }
    event.preventDefault();
    var submitter = event.submitter;
    if (submitter && submitter.name === "action") {  // "add a row" asks the server: it cannot wait
      say(text.needsNetwork);
      return;
    }
    if (!hold(form, submitter)) say(text.needsNetwork);
  }

  var sending = false;

  function send(item) {
    return fetch(item.action, {
      method: "POST", body: item.body, credentials: "same-origin", redirect: "follow",
      referrerPolicy: "same-origin",  // Flask-WTF checks the Referer of a form posted over HTTPS
      headers: {"Content-Type": "application/x-www-form-urlencoded"}
    });
  }

  function drop(item) {
    keepOutbox(outbox().filter(function (held) { return held.at !== item.at || held.body !== item.body; }));
    listHeld();
  }

  function nextItem() {
    return outbox().filter(function (held) { return !held.refused; })[0];
  }

  // this page shows what the ledger answers about the hand: its table's page, or the offline notice
  function onItsPage(item) {
    var form = document.querySelector("form[data-offline-queue]");
    return Boolean((form && actionOf(form) === item.action) || document.querySelector("[data-offline-notice]"));
  }

  /* what a refusal says: the page the ledger answered with, its messages in words */
  function refusalOf(response) {
    return response.text().then(function (html) {
      var page = new DOMParser().parseFromString(html, "text/html");
      var said = Array.prototype.filter.call(page.querySelectorAll(".error"), function (shown) {
        return !shown.closest("[hidden]");
      }).map(function (shown) { return shown.textContent.trim(); }).filter(function (words, i, all) {
        return words && all.indexOf(words) === i;
      });
      return {status: response.status, message: said.join(" "), seated: seatingOf(page.querySelector(
        "form[data-offline-queue]")), recorded: Boolean(page.querySelector("[data-already-recorded]"))};
    }, function () { return {status: response.status, message: "", recorded: false}; });
  }

  /* the ledger would not take the hand (403, 404, 409, 422…): nothing was recorded, the phone keeps it,
     marked, until the player sends it as the evening is now or discards it; an answer saying its key was
     recorded already empties it */
  function refused(item, response) {
    return refusalOf(response).then(function (said) {
      if (said.recorded) { drop(item); return flush(); }
      var items = outbox();
      items.forEach(function (held) {
        if (held.at !== item.at || held.body !== item.body) return;
        held.refused = {status: said.status, message: said.message, seated: said.seated};
      });
      keepOutbox(items);
      showPending(onItsPage(item));
      flush();
    });
  }

  function answered(item, response) {
    if (response.status === 429 || response.status >= 500) return showPending();  // try again later
    if (!response.redirected || !response.ok) return refused(item, response);
    var here = onItsPage(item);
    drop(item);
    if (nextItem()) return flush();
    if (here) location.replace(response.url);  // the page with the hand on it
  }

  /* a hand recorded that the phone settled too (static/held-in-phone.js): the ledger's answer compared */
  function compared(item, response) {
    var held = window.PaijuHeldHands;
    if (!held || !response.redirected || !response.ok) return Promise.resolve();
    return response.clone().text().then(function (page) {
      var named = /data-recorded-hand="(\d+)"/.exec(page);  // the hand this post became (its page says)
      return held.recorded(item, named ? Number(named[1]) : null);
    }).catch(function () {});
  }

  function flush() {
    var item = nextItem();
    if (sending || !item || navigator.onLine === false) return;
    sending = true;
    say(text.sending);
    send(item).then(function (response) {
      return compared(item, response).then(function () {
        sending = false;
        answered(item, response);
      });
    }, function () {
      sending = false;  // still no signal
      showPending();
    });
  }

  /* the offline notice, or the table page as last seen, shown for a hand form the service worker could
     not send (static/sw.js) */
  function holdFromNotice() {
    var notice = document.querySelector("[data-held-body]");
    if (notice) keep(notice.dataset.heldAction, notice.dataset.heldBody);
    return Boolean(notice);
  }

  /* a page as last seen carries the key of a hand it may have sent since: the next hand gets a new one */
  function freshenKey() {
    var form = document.querySelector("form[data-offline-queue]");
    var box = form && form.elements.idempotency_key;
    if (!box) return;
    var held = outbox().some(function (item) {
      return new URLSearchParams(item.body).get("idempotency_key") === box.value;
    });
    if (keptAt || held) box.value = freshKey();
  }

  function startQueue() {
    markHeld(outbox().length > 0);  // in step with what this phone holds (its storage or its cookies cleared alone)
    var heldNow = holdFromNotice();
    freshenKey();
    document.addEventListener("submit", onSubmit);
    window.addEventListener("online", flush);
    setInterval(flush, RETRY_MS);
    showPending(heldNow);
    flush();
  }

  // --- the screen wake lock -----------------------------------------------------------------------------

  function startWakeLock(box) {
    var toggle = box.querySelector("[data-wake-lock-switch]");
    var note = box.querySelector("[data-wake-lock-note]");
    var sentinel = null;
    toggle.checked = stored(WAKE, "on") !== "off";

    /* refused (or a page over plain http, where no browser offers it): unticked, saying why; the phone's own
       choice stays as it was, so the next visit asks again */
    function refused() {
      toggle.checked = false;
      box.dataset.state = "refused";
      if (!note) return;
      if (!window.isSecureContext && note.dataset.insecure) note.textContent = note.dataset.insecure;
      note.hidden = false;
    }

    function acquire() {
      if (!toggle.checked || document.visibilityState !== "visible" || (sentinel && !sentinel.released)) return;
      if (!("wakeLock" in navigator)) return refused();
      navigator.wakeLock.request("screen").then(function (lock) {
        sentinel = lock;
        box.dataset.state = "held";
        if (note) note.hidden = true;
      }, refused);
    }

    function release() {
      if (sentinel) sentinel.release().catch(function () {});
      sentinel = null;
    }

    toggle.addEventListener("change", function () {
      store(WAKE, toggle.checked ? "on" : "off");
      if (toggle.checked) acquire(); else release();
    });
    document.addEventListener("visibilitychange", acquire);  // the browser lets go when the page is hidden
    acquire();
  }
  startLastSeen();
  startQueue();
  var wake = document.querySelector("[data-wake-lock]");
  if (wake) startWakeLock(wake);
})();
