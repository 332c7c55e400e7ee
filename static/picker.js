/* Card picker: tap cards to build a play or a hand; it and the text field
   stay in sync both ways (typing updates the chips, tapping updates the text). */
(function () {
  "use strict";
  var SUIT = { "♠": "♠", "♤": "♠", "S": "♠", "黑桃": "♠", "♥": "♥", "♡": "♥", "H": "♥", "红桃": "♥", "红心": "♥",
    "♣": "♣", "♧": "♣", "C": "♣", "梅花": "♣", "草花": "♣", "♦": "♦", "♢": "♦", "D": "♦", "方块": "♦", "方片": "♦" };
  var JOKER = { "大王": "大王", "BJ": "大王", "大鬼": "大王", "小王": "小王", "LJ": "小王", "小鬼": "小王" };
  var TOKEN = /^(?:(大王|小王|大鬼|小鬼|BJ|LJ)|([♠♤♥♡♣♧♦♢SHCD]|黑桃|红桃|红心|梅花|草花|方块|方片)?(10|[2-9TJQKA]))/i;
  var SEP = /^[\s,，、;；]+/;

  function parse(text) {
    var out = [], rest = (text || "").normalize("NFKC").replace(/\uFE0F|\uFE0E/g, ""), ok = true;
    while (rest.length) {
      var s = SEP.exec(rest);
      if (s) { rest = rest.slice(s[0].length); continue; }
      var m = TOKEN.exec(rest);
      if (!m) { ok = false; break; }
      if (m[1]) out.push(JOKER[m[1].toUpperCase()]);
      else {
        var rank = m[3].toUpperCase(); if (rank === "T") rank = "10";
        out.push((m[2] ? SUIT[m[2].toUpperCase()] : "") + rank);
      }
      rest = rest.slice(m[0].length);
    }
    return { cards: out, ok: ok };
  }
  function isRed(card) { return card.indexOf("♥") === 0 || card.indexOf("♦") === 0 || card === "大王"; }
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text; return e; }

  function attach(input) {
    if (input.dataset.pickerReady) return;
    input.dataset.pickerReady = "1";
    var cfg; try { cfg = JSON.parse(input.dataset.picker); } catch (e) { return; }
    var zh = (document.documentElement.lang || "zh").indexOf("zh") === 0;
    var box = el("div", "picker"); box.setAttribute("data-for", input.id);
    var toggle = el("button", "btn picker-toggle", zh ? "🂠 选牌" : "🂠 Pick cards");
    toggle.type = "button"; toggle.setAttribute("aria-expanded", "false");
    var chips = el("div", "chips"); chips.setAttribute("role", "group"); chips.setAttribute("aria-label", zh ? "已选的牌（点一下去掉）" : "Picked cards (tap to remove)");
    var pad = el("div", "pad"); pad.hidden = true;
    var suitsRow = el("div", "suits"), ranksRow = el("div", "ranks");
    var suits = cfg.suits.slice(); if (cfg.bare) suits.unshift("");
    var current = suits[0];
    suits.forEach(function (s) {
      var b = el("button", "suit" + (s === "♥" || s === "♦" ? " red" : ""), s || (zh ? "不限" : "any"));
      b.type = "button"; b.dataset.suit = s;
      b.addEventListener("click", function () { current = s; refreshSuits(); });
      suitsRow.appendChild(b);
    });
    function refreshSuits() { Array.prototype.forEach.call(suitsRow.children, function (b) {
      b.classList.toggle("on", b.dataset.suit === current); b.setAttribute("aria-pressed", b.dataset.suit === current); }); }
    cfg.ranks.forEach(function (r) {
      var b = el("button", "rank", r); b.type = "button"; b.dataset.rank = r;
      b.addEventListener("click", function () { add(current + r); });
      ranksRow.appendChild(b);
    });
    cfg.jokers.forEach(function (j) {
      var b = el("button", "rank joker" + (j === "大王" ? " red" : ""), j); b.type = "button"; b.dataset.card = j;
      b.addEventListener("click", function () { add(j); });
      ranksRow.appendChild(b);
    });
    var back = el("button", "rank", "⌫"); back.type = "button"; back.title = zh ? "删去最后一张" : "Remove the last card";
    back.addEventListener("click", function () { var p = parse(input.value); if (p.ok && p.cards.length) {
      p.cards.pop(); setText(p.cards); } });
    var clear = el("button", "rank", zh ? "清空" : "Clear"); clear.type = "button";
    clear.addEventListener("click", function () { setText([]); });
    ranksRow.appendChild(back); ranksRow.appendChild(clear);
    pad.appendChild(suitsRow); pad.appendChild(ranksRow);
    toggle.addEventListener("click", function () { pad.hidden = !pad.hidden;
      toggle.setAttribute("aria-expanded", String(!pad.hidden)); });
    box.appendChild(chips); box.appendChild(toggle); box.appendChild(pad);
    input.insertAdjacentElement("afterend", box);

    function setText(cards) { input.value = cards.join(" "); input.dispatchEvent(new Event("input", { bubbles: true })); }
    function add(card) { var p = parse(input.value);
      var base = p.ok ? p.cards : [input.value.trim()].filter(Boolean);
      base.push(card); input.value = base.join(" "); render(); }
    function render() {
      var p = parse(input.value); chips.innerHTML = "";
      p.cards.forEach(function (c, i) {
        var b = el("button", "chip" + (isRed(c) ? " red" : ""), c); b.type = "button";
        b.title = zh ? "去掉这张" : "Remove this card";
        b.addEventListener("click", function () { var q = parse(input.value); if (!q.ok) return;
          q.cards.splice(i, 1); setText(q.cards); });
        chips.appendChild(b);
      });
      if (!p.ok) chips.appendChild(el("span", "muted", zh ? "（有写法不认识，提交后会提示）" : "(some text is not a card; submit to see why)"));
    }
    input.addEventListener("input", render);
    refreshSuits(); render();
  }

  function init(root) { (root || document).querySelectorAll("[data-picker]").forEach(attach); }
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (e) { init(e.target); });
  // Changing the preset re-renders the form for the new deck and seat count.
  document.addEventListener("change", function (e) {
    var t = e.target;
    if (t.matches && t.matches("select[data-refresh]") && t.form) withHtmx(function () { refresh(t.form); });
  });
  function refresh(form) {
    var fd = new FormData(form); fd.set("action", "refresh");
    refreshSent = Object.fromEntries(fd.entries());
    // the form as its source: with no signal, offline mode's engine answers it (static/offline-engine.js)
    window.htmx.ajax("POST", form.getAttribute("action"), { source: form, target: "#panel", swap: "outerHTML",
      values: refreshSent });
  }
  // htmx comes once the page is idle (static/pwa.js, issue 42): a choice made before then waits for it
  function withHtmx(then) {
    if (window.htmx) then();
    else if (window.PaijuLater) window.PaijuLater().then(function () { if (window.htmx) then(); });
  }
  // What was typed while the refresh was on its way is kept: the new form gets it back.
  var refreshSent = null, typedMeanwhile = null;
  function typedBoxes(panel) {
    return Array.prototype.filter.call(panel.querySelectorAll("input[name], select[name], textarea[name]"),
      function (el) { return el.type !== "radio" && el.type !== "checkbox" && el.type !== "hidden"; });
  }
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (!refreshSent || !e.detail.target || e.detail.target.id !== "panel") return;
    typedMeanwhile = {};
    typedBoxes(e.detail.target).forEach(function (el) {
      if (el.value !== (refreshSent[el.name] || "")) typedMeanwhile[el.name] = el.value;
    });
    refreshSent = null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    var panel = document.getElementById("panel");
    if (!typedMeanwhile || !panel) return;
    typedBoxes(panel).forEach(function (el) {
      if (Object.prototype.hasOwnProperty.call(typedMeanwhile, el.name)) el.value = typedMeanwhile[el.name];
    });
    typedMeanwhile = null;
  });
  window.PaijuPicker = { parse: parse, init: init };
})();
