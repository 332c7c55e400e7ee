/* A hand held on a table page with no signal (static/outbox.js), settled in the phone (offline mode, issue 29):
   - with offline mode on, the hands this table holds are settled by the engine in the phone
     (window.PaijuOfflineEngine.call "held_hands": webapp/offline_page.py), each as the ledger will settle it,
     from what the one before it carries (the form's data-phone-settle: the table's game, house rules, players,
     seating and what its next hand carries); each is listed with the words the engine picks (worked out on this
     phone, or refused and why), and the totals including the held hands ([data-held-totals]);
   - the phone's answer is kept with the held hand (its outbox item's "phone"); once the hand is recorded,
     outbox.js asks recorded(item, number): the hand the post became (its page names it, data-recorded-hand), read
     from the API, is compared with it by the engine ("held_recorded") — a hand the phone refused and the ledger
     recorded counts as a difference too — and a difference is kept and shown ([data-held-disagree]) until the
     player says it was seen.
   This script knows no game and no field: it passes what the page and the phone keep to the engine, and fills
   the page's words ({name} by the values the engine gives). Offline mode off: nothing here. */
(function () {
  "use strict";
  var OUTBOX = "outbox", DISAGREE = "heldDisagree";  // their keys: static/storage.js
  var stored = window.PaijuStorage.read, store = window.PaijuStorage.write;

  /* the page's words with each {name} filled by its value, taken as it is ("$&" in a name is not a pattern) */
  function fill(text, values) {
    return Object.keys(values || {}).reduce(function (out, name) {
      return out.split("{" + name + "}").join(String(values[name]));
    }, text || "");
  }

  function form() { return document.querySelector("form[data-offline-queue][data-phone-settle]"); }

  function config() {
    var f = form();
    try { return f ? JSON.parse(f.dataset.phoneSettle) : null; } catch (e) { return null; }
  }

  function engine() {
    var e = window.PaijuOfflineEngine;
    var state = e && e.stored && e.stored();
    return state && state.on ? e : null;
  }

  function actionOf(f) { return new URL(f.getAttribute("action") || "", location.href).href; }

  function sameItem(a, b) { return a.at === b.at && a.body === b.body; }

  function heldHere() {
    var f = form();
    if (!f) return [];
    var action = actionOf(f);
    return stored(OUTBOX, []).filter(function (held) { return held.action === action; });
  }

  /* the phone's answers kept with the held hands, so that it is what the ledger's answer is compared with */
  function keepPhone(items, answers) {
    var all = stored(OUTBOX, []);
    all.forEach(function (held) {
      items.forEach(function (item, i) { if (sameItem(held, item) && !held.phone) held.phone = answers[i].kept; });
    });
    store(OUTBOX, all);
  }

  function pairsOf(item) {
    var pairs = [];
    new URLSearchParams(item.body).forEach(function (value, name) { pairs.push([name, value]); });
    return pairs;
  }

  // --- shown ------------------------------------------------------------------------------------------------

  function shownTotals() {
    return Array.prototype.map.call(document.querySelectorAll("#live td[data-total]"), function (cell) {
      return parseInt(cell.textContent.replace("\u2212", "-"), 10) || 0;  // the page writes − (U+2212)
    });
  }

  function showAnswers(list, settled) {
    Array.prototype.forEach.call(list.children, function (li, i) {
      var answer = settled.hands[i];
      if (!answer) return;
      var line = li.querySelector("[data-held-phone]") || document.createElement("div");
      line.setAttribute("data-held-phone", "");
      line.className = "held-phone" + (answer.say === "refused" ? " error" : "");
      line.textContent = fill(list.dataset[answer.say], answer.values);
      li.appendChild(line);
    });
    var box = document.querySelector("[data-held-totals]");
    if (!box) return;
    box.textContent = fill(box.dataset.text, settled.totals);
    box.hidden = !settled.totals;
  }

  var shown = 0;  // the latest listing: an older one still settling does not write over it

  /* outbox.js listed the held hands ([data-held-hands], one li per hand, in order): settle and show them */
  function listed() {
    var cfg = config(), list = document.querySelector("[data-held-hands]");
    var totalsBox = document.querySelector("[data-held-totals]");
    var items = heldHere();
    if (totalsBox && !items.length) totalsBox.hidden = true;
    if (!cfg || !list || !items.length || !engine() || list.children.length !== items.length) return;
    var mine = ++shown;
    var held = items.map(function (item) { return {pairs: pairsOf(item), phone: item.phone || null}; });
    engine().call("held_hands", [cfg, held, shownTotals()]).then(function (settled) {
      keepPhone(items, settled.hands);
      if (mine === shown) showAnswers(list, settled);
    }, function () { /* the engine could not load: the hands stay listed as held */ });
  }

  // --- the ledger's answer compared ---------------------------------------------------------------------------

  /* the hand was recorded (outbox.js, before it shows the page with it, with the number its page gave it): the
     engine compares the ledger's answer with the phone's (or with the phone's refusal) */
  function recorded(item, number) {
    var cfg = config(), f = form();
    var kept = stored(OUTBOX, []).filter(function (held) { return sameItem(held, item); })[0] || item;
    var phone = kept.phone;
    if (!cfg || !f || actionOf(f) !== item.action || !phone || !engine()) return Promise.resolve();
    return fetch(cfg.api, {credentials: "same-origin", cache: "no-store"}).then(function (response) {
      return response.ok ? response.json() : null;
    }).then(function (table) {
      return table && engine().call("held_recorded", [cfg, phone, table, number]);
    }).then(function (differs) {
      if (!differs) return;
      var found = stored(DISAGREE, []);
      found.push({api: cfg.api, say: differs.say, values: differs.values});
      store(DISAGREE, found);
      showDisagreements();
    }).catch(function () { /* not compared: the page shows the recorded hand */ });
  }

  function showDisagreements() {
    var cfg = config(), box = document.querySelector("[data-held-disagree]");
    if (!cfg || !box) return;
    var here = stored(DISAGREE, []).filter(function (d) { return d.api === cfg.api && box.dataset[d.say]; });
    box.querySelector("[data-held-disagree-text]").textContent = here.map(function (d) {
      return fill(box.dataset[d.say], d.values);
    }).join("\n");
    box.hidden = !here.length;
  }

  function seen() {
    var cfg = config();
    store(DISAGREE, stored(DISAGREE, []).filter(function (d) { return !cfg || d.api !== cfg.api; }));
    showDisagreements();
  }

  window.PaijuHeldHands = {listed: listed, recorded: recorded};

  function init() {
    var button = document.querySelector("[data-held-disagree-seen]");
    if (button) button.addEventListener("click", seen);
    showDisagreements();
    listed();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
