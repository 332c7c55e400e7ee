/* A hand held on a table page with no signal (static/pwa.js), settled in the phone (offline mode, issue 29):
   - with offline mode on, each hand this table holds is settled by the engine in the phone
     (window.PaijuOfflineEngine) with what the ledger adds to the form (the form's data-phone-settle: the
     house rules, the number of players, what the hand carries from the last one; a later held hand carries
     from the one held before it); its deltas by player are listed with it, marked as worked out on this
     phone, and the totals including the held hands are shown by the totals ([data-held-totals]); a hand
     the engine refuses shows the engine's message;
   - the phone's deltas are kept with the held hand (its outbox item's "phone"); once the hand is recorded,
     pwa.js asks recorded(item, number): the hand the post became (its page names it, data-recorded-hand),
     read from the API, is compared with them — a hand the phone refused and the ledger recorded counts as
     a difference too — and a difference is kept and shown ([data-held-disagree]) until the player says it
     was seen.
   Offline mode off: nothing here (the held hands are listed as before). */
(function () {
  "use strict";
  var OUTBOX = "paiju.outbox";
  var DISAGREE = "paiju.heldDisagree";

  /* a replacement String.replace takes as it is: "$&" or "$'" in a player's name is not a pattern */
  function literally(text) { return function () { return String(text); }; }

  function stored(key, fallback) {
    try { return JSON.parse(localStorage.getItem(key)) || fallback; } catch (e) { return fallback; }
  }

  function store(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* kept in this page only */ }
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

  /* the phone's answer kept with the held hand, so that it is what the ledger's answer is compared with */
  function keepPhone(item, phone) {
    var items = stored(OUTBOX, []);
    items.forEach(function (held) { if (sameItem(held, item)) held.phone = phone; });
    store(OUTBOX, items);
  }

  // --- settling in the phone ------------------------------------------------------------------------------

  function isCarried(cfg, name) {
    return cfg.carried.some(function (field) { return name === field || name.indexOf(field + "-") === 0; });
  }

  /* what the ledger adds to the hand: the table's pairs, with what the hand held before it carries instead
     (undefined: the first held hand, the table's own; null: a fresh start, what the form says) */
  function tablePairs(cfg, carried) {
    if (carried === undefined) return cfg.pairs.slice();
    var pairs = cfg.pairs.filter(function (pair) { return !isCarried(cfg, pair[0]); });
    Object.keys(carried || {}).forEach(function (name) {
      var value = carried[name];
      if (Array.isArray(value)) value.forEach(function (v, i) { pairs.push([name + "-" + i, String(v)]); });
      else pairs.push([name, String(value)]);
    });
    return pairs;
  }

  /* what the next hand takes from this one's result (a result that ends a series carries nothing) */
  function carriedBy(cfg, result) {
    if (!result || result.game_over || !cfg.carried.length) return null;
    var out = {}, any = false;
    cfg.carried.forEach(function (name) {
      if (result[name] !== undefined && result[name] !== null) { out[name] = result[name]; any = true; }
    });
    return any ? out : null;
  }

  function perPlayer(cfg, deltas) {
    var out = cfg.players.map(function () { return 0; });
    deltas.forEach(function (d, seat) { out[cfg.seats[seat]] += d; });
    return out;
  }

  function messageOf(reply) {
    var each = reply.errors || (reply.error ? [reply.error] : []);
    return each.map(function (e) { return e.message; }).join(document.documentElement.lang === "en" ? "; " : "；");
  }

  function settleOne(cfg, item, carried) {
    var pairs = tablePairs(cfg, carried);
    new URLSearchParams(item.body).forEach(function (value, name) { pairs.push([name, value]); });
    return engine().ask(cfg.slug, "settle", pairs).then(function (reply) {
      if (!reply || !reply.result) return {error: messageOf(reply || {})};
      return {deltas: perPlayer(cfg, reply.result.deltas || []), carried: carriedBy(cfg, reply.result)};
    });
  }

  /* each held hand in turn, each from what the one before carries; a hand settled before keeps its answer */
  function settleAll(cfg, items) {
    var answers = [];
    return items.reduce(function (chain, item) {
      return chain.then(function (carried) {
        var known = item.phone ? Promise.resolve(item.phone) : settleOne(cfg, item, carried);
        return known.then(function (phone) {
          if (!item.phone) keepPhone(item, phone);
          answers.push(phone);
          return phone.error ? carried : phone.carried;
        });
      });
    }, Promise.resolve(undefined)).then(function () { return answers; });
  }

  // --- shown ------------------------------------------------------------------------------------------------

  function signed(n) { return n > 0 ? "+" + n : (n < 0 ? "\u2212" + (-n) : "0"); }  // as the pages write it (−, U+2212)

  function byName(cfg, values) {
    return values.map(function (v, i) { return cfg.players[i] + " " + signed(v); }).join(" · ");
  }

  function shownTotals() {
    return Array.prototype.map.call(document.querySelectorAll("#live td[data-total]"), function (cell) {
      return parseInt(cell.textContent.replace("\u2212", "-"), 10) || 0;  // the page writes − (U+2212)
    });
  }

  function showAnswers(cfg, list, answers) {
    var totals = shownTotals(), counted = false;
    Array.prototype.forEach.call(list.children, function (li, i) {
      var phone = answers[i];
      if (!phone) return;
      var line = li.querySelector("[data-held-phone]") || document.createElement("div");
      line.setAttribute("data-held-phone", "");
      line.className = "held-phone" + (phone.error ? " error" : "");
      line.textContent = phone.error ? list.dataset.refused.replace("{message}", literally(phone.error))
        : list.dataset.phone.replace("{deltas}", literally(byName(cfg, phone.deltas)));
      li.appendChild(line);
      if (phone.error) return;
      counted = true;
      phone.deltas.forEach(function (d, p) { totals[p] = (totals[p] || 0) + d; });
    });
    var box = document.querySelector("[data-held-totals]");
    if (!box) return;
    box.textContent = box.dataset.text.replace("{totals}", literally(byName(cfg, totals)));
    box.hidden = !counted;
  }

  var shown = 0;  // the latest listing: an older one still settling does not write over it

  /* pwa.js listed the held hands ([data-held-hands], one li per hand, in order): settle and show them */
  function listed() {
    var cfg = config(), list = document.querySelector("[data-held-hands]");
    var totalsBox = document.querySelector("[data-held-totals]");
    var items = heldHere();
    if (totalsBox && !items.length) totalsBox.hidden = true;
    if (!cfg || !list || !items.length || !engine() || list.children.length !== items.length) return;
    var mine = ++shown;
    settleAll(cfg, items).then(function (answers) {
      if (mine === shown) showAnswers(cfg, list, answers);
    }, function () { /* the engine could not load: the hands stay listed as held */ });
  }

  // --- the ledger's answer compared ---------------------------------------------------------------------------

  function sameDeltas(a, b) {
    return a.length === b.length && a.every(function (d, i) { return d === b[i]; });
  }

  /* the hand the post became (its page named it), else the table's last one */
  function handRecorded(table, number) {
    var hands = table.hands || [];
    var named = hands.filter(function (hand) { return hand.number === number; })[0];
    return named || hands.reduce(function (last, hand) {
      return !last || hand.number > last.number ? hand : last;
    }, null);
  }

  /* the hand was recorded (pwa.js, before it shows the page with it, with the number its page gave it): the
     ledger's deltas against the phone's, or against the phone's refusal */
  function recorded(item, number) {
    var cfg = config(), f = form();
    var kept = stored(OUTBOX, []).filter(function (held) { return sameItem(held, item); })[0] || item;
    var phone = kept.phone;
    if (!cfg || !f || actionOf(f) !== item.action || !phone || !(phone.deltas || phone.error)) {
      return Promise.resolve();
    }
    return fetch(cfg.api, {credentials: "same-origin", cache: "no-store"}).then(function (response) {
      return response.ok ? response.json() : null;
    }).then(function (table) {
      var hand = table && handRecorded(table, number);
      if (!hand || (phone.deltas && sameDeltas(hand.deltas, phone.deltas))) return;
      var found = stored(DISAGREE, []);
      found.push({api: cfg.api, number: hand.number, server: hand.deltas, phone: phone.deltas || null,
                  refused: phone.error || null});
      store(DISAGREE, found);
      showDisagreements();
    }).catch(function () { /* not compared: the page shows the recorded hand */ });
  }

  function disagreement(cfg, box, d) {
    var text = d.refused ? box.dataset.refused : box.dataset.text;
    return text.replace("{n}", literally(d.number)).replace("{server}", literally(byName(cfg, d.server)))
      .replace("{phone}", literally(d.refused || byName(cfg, d.phone)));
  }

  function showDisagreements() {
    var cfg = config(), box = document.querySelector("[data-held-disagree]");
    if (!cfg || !box) return;
    var here = stored(DISAGREE, []).filter(function (d) { return d.api === cfg.api; });
    box.querySelector("[data-held-disagree-text]").textContent = here.map(function (d) {
      return disagreement(cfg, box, d);
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
