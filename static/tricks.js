/* Follow a 红五 / 二七王 hand trick by trick (templates/settle/_trick_counter.html): tap who won each trick
   and the points in it (and whose red fives fell in it), then the last trick and the bottom. The running
   庄家 / 闲家 points show as numbers and a bar; "fill" writes the settle form's own fields, whose names
   and rules (how the bottom counts, who the 庄家's partner is) the server gives in data-trick-counter.
   The engine settles what the form then holds: this only adds up points. State lives in sessionStorage,
   so a reload or an htmx swap of the form keeps the hand being followed. */
(function () {
  "use strict";
  var SIDES = ["declarer", "defenders"];

  function fire(el) {
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  }
  function fmt(text, values) {
    return String(text || "").replace(/\{(\w+)\}/g, function (_, k) { return values[k] === undefined ? "" : values[k]; });
  }
  function part(root, name) { return root.querySelector("[data-tc='" + name + "']"); }

  // -- the state of the hand being followed ---------------------------------------------------------------
  function blank() { return { tricks: [], current: { winner: null, points: 0, fives: [] }, last: false, bottom: 0, outcome: null }; }
  function storageKey(root) {
    var form = root.closest("form"), key = form && form.querySelector("input[name=idempotency_key]");
    return "paiju-tricks:" + location.pathname + ":" + (key ? key.value : "");
  }
  function load(root) {
    try {
      var s = JSON.parse(sessionStorage.getItem(storageKey(root)) || "null");
      if (s && Array.isArray(s.tricks) && s.current) return s;
    } catch (e) { /* a broken entry: start afresh */ }
    return blank();
  }
  function save(root, state) {
    try { sessionStorage.setItem(storageKey(root), JSON.stringify(state)); } catch (e) { /* private mode */ }
  }

  // -- sides and sums ---------------------------------------------------------------------------------------
  function seatCount(root) { return root.querySelectorAll("[data-tc-winner]").length; }
  function declarerSeat(root, cfg) {
    var form = root.closest("form"), picked = form && form.querySelector("input[name='" + cfg.declarer + "']:checked");
    return picked ? parseInt(picked.value, 10) : null;
  }
  function sideOf(seat, declarer, cfg, n) {
    if (seat === declarer) return "declarer";
    if (cfg.partner !== null && seat === (declarer + cfg.partner) % n) return "declarer";
    return "defenders";
  }
  function outcomesFor(cfg, side) {
    return cfg.last.filter(function (o) { return o.won_by === side || o.won_by === "either"; });
  }
  function chosenOutcome(cfg, state, lastSide) {
    var fit = outcomesFor(cfg, lastSide);
    if (fit.length === 1) return fit[0];
    return fit.filter(function (o) { return o.value === state.outcome; })[0] || null;
  }
  function tally(root, cfg, state) {
    var d = declarerSeat(root, cfg), n = seatCount(root), sums = { declarer: 0, defenders: 0 }, captured = [];
    state.tricks.forEach(function (tr) {
      var side = sideOf(tr.winner, d, cfg, n);
      sums[side] += tr.points;
      tr.fives.forEach(function (owner) {
        if (sideOf(owner, d, cfg, n) !== side) captured.push({ owner: owner, by: tr.winner });
      });
    });
    var swing = captured.reduce(function (n, c) { return n + (c.owner === d ? -1 : 1); }, 0) * (cfg.red_fives ? cfg.red_fives.swing : 0);
    var out = { declarer: d, sums: sums, tricksPoints: sums[cfg.side], captured: captured, swing: swing, outcome: null,
                bottomAdded: 0 };
    var lastTrick = state.last && state.tricks[state.tricks.length - 1];
    if (lastTrick && cfg.bottom) {
      out.outcome = chosenOutcome(cfg, state, sideOf(lastTrick.winner, d, cfg, n));
      if (out.outcome) out.bottomAdded = state.bottom * out.outcome.times;
    }
    return out;
  }

  // -- drawing ----------------------------------------------------------------------------------------------
  function seatWords(root, seat) {
    var b = root.querySelector("[data-tc-winner='" + seat + "']");
    return b ? b.textContent.trim() : String(seat);
  }
  function drawScore(root, cfg, state, t) {
    var shown = { declarer: t.sums.declarer, defenders: t.sums.defenders };
    if (t.bottomAdded) shown[cfg.bottom.side] += t.bottomAdded;
    var whole = Math.max(cfg.total, shown.declarer + shown.defenders) || 1;
    SIDES.forEach(function (side) {
      part(root, side).textContent = String(shown[side]);
      part(root, "bar-" + side).style.width = (100 * shown[side] / whole) + "%";
    });
    var notes = [];
    if (t.bottomAdded || (t.outcome && state.bottom)) {
      notes.push(fmt(root.dataset.msgBottom, { b: state.bottom, m: t.outcome.times, x: t.bottomAdded,
        side: root.dataset["msg" + (cfg.bottom.side === "declarer" ? "Declarer" : "Defenders")] }));
    }
    if (cfg.red_fives && t.captured.length) {
      notes.push(fmt(root.dataset.msgSwing, { sign: t.swing < 0 ? "−" : "+", n: Math.abs(t.swing) }));
    }
    if (t.sums.declarer + t.sums.defenders > cfg.total) {
      notes.push(fmt(root.dataset.msgOver, { n: t.sums.declarer + t.sums.defenders, total: cfg.total }));
    }
    part(root, "note").textContent = notes.join(" · ");
    drawGoal(root, cfg, shown, t);
  }
  // what the bid asks of its side, in words (the settlement alone decides the hand)
  function drawGoal(root, cfg, shown, t) {
    var el = part(root, "goal"), goal = cfg.goal, form = root.closest("form");
    var box = goal && form && form.querySelector("[name='" + goal.field + "']");
    var bid = box ? parseInt(box.value, 10) : NaN;
    el.hidden = isNaN(bid) || t.declarer === null;
    if (el.hidden) return;
    var have = shown[goal.side] + (goal.swing ? t.swing : 0), need = bid + (goal.beyond ? 5 : 0) - have;
    var side = root.dataset[goal.side === "declarer" ? "msgDeclarer" : "msgDefenders"];
    el.textContent = fmt(need > 0 ? root.dataset.msgNeed : root.dataset.msgMade, { side: side, n: need, bid: bid });
  }
  function drawTrick(root, cfg, state) {
    var cur = state.current;
    part(root, "title").textContent = fmt(root.dataset.msgTrick, { k: state.tricks.length + 1 });
    part(root, "points").textContent = String(cur.points);
    root.querySelectorAll("[data-tc-winner]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(parseInt(b.dataset.tcWinner, 10) === cur.winner));
    });
    part(root, "fives-box").hidden = !cfg.red_fives;
    part(root, "fives").textContent = cur.fives.map(function (s) { return "♥5·" + seatWords(root, s); }).join(" ");
  }
  function drawEnd(root, cfg, state, t) {
    part(root, "end").hidden = !state.last || !cfg.bottom;
    part(root, "bottom-box").hidden = !cfg.bottom;
    root.querySelector("[data-tc-act=last]").hidden = !cfg.bottom;  // without a bottom the last trick is like any other
    if (!state.last || !cfg.bottom) return;
    part(root, "bottom").textContent = String(state.bottom);
    var last = state.tricks[state.tricks.length - 1], box = part(root, "outcomes");
    var fit = outcomesFor(cfg, sideOf(last.winner, t.declarer, cfg, seatCount(root)));
    box.textContent = "";
    fit.forEach(function (o) {
      var b = document.createElement("button");
      b.type = "button"; b.className = "chip-btn tc-outcome"; b.dataset.tcOutcome = o.value; b.textContent = o.label;
      b.setAttribute("aria-pressed", String(t.outcome !== null && t.outcome.value === o.value));
      box.appendChild(b);
    });
  }
  function drawLog(root, state) {
    var log = part(root, "log");
    log.textContent = "";
    state.tricks.forEach(function (tr, i) {
      var li = document.createElement("li"), words = [fmt(root.dataset.msgLog, { seat: seatWords(root, tr.winner), p: tr.points })];
      tr.fives.forEach(function (o) { words.push("♥5·" + seatWords(root, o)); });
      if (state.last && i === state.tricks.length - 1) words.push(root.dataset.msgLast);
      li.textContent = words.join(" · ");
      log.appendChild(li);
    });
  }
  function draw(root) {
    var cfg = root._cfg, state = root._state, t = tally(root, cfg, state);
    part(root, "need").hidden = t.declarer !== null;
    part(root, "trick").hidden = t.declarer === null || state.last;
    drawScore(root, cfg, state, t);
    drawTrick(root, cfg, state);
    drawEnd(root, cfg, state, t);
    drawLog(root, state);
    root.querySelector("[data-tc-act=fill]").disabled = !state.tricks.length;
    root.querySelector("[data-tc-act=undo]").disabled = !state.tricks.length;
  }

  // -- filling the settle form ----------------------------------------------------------------------------
  function setField(form, name, value) {
    form.querySelectorAll("[name='" + name + "']").forEach(function (el) {
      if (el.type === "checkbox") el.checked = value === true;
      else if (el.type === "radio") el.checked = el.value === String(value);
      else el.value = String(value);
      fire(el);
      var box = el.closest("details");
      if (box) box.open = true;
    });
  }
  function rowFields(fieldset, i) {
    var row = fieldset.querySelector("[name^='" + fieldset.dataset.rows + "-" + i + "-']");
    if (row) return true;
    var rows = fieldset.querySelectorAll(".row-entry:not(template .row-entry)"), tpl = fieldset.querySelector("template.row-template");
    if (!tpl || rows.length !== i) return false;
    var box = document.createElement("div");
    box.innerHTML = tpl.innerHTML.replace(/__N__/g, String(i)).replace(/__NUM__/g, String(i + 1));
    rows[rows.length - 1].after(box.firstElementChild);
    return true;
  }
  function fillRedFives(form, cfg, captured) {
    var fs = form.querySelector("fieldset[data-rows='" + cfg.field + "']");
    if (!fs) return;
    for (var i = 0; i < Math.max(cfg.max, captured.length); i++) {
      var name = cfg.field + "-" + i + "-";
      if (i < captured.length) {
        if (!rowFields(fs, i)) return;
        setField(form, name + cfg.owner, captured[i].owner);
        setField(form, name + cfg.by, captured[i].by);
      } else {
        setField(form, name + cfg.owner, "");
        setField(form, name + cfg.by, "");
      }
    }
  }
  function fill(root) {
    var cfg = root._cfg, state = root._state, t = tally(root, cfg, state), form = root.closest("form");
    if (!form) return;
    setField(form, cfg.points, t.tricksPoints);
    if (state.last && cfg.bottom) {
      setField(form, cfg.bottom.field, state.bottom);
      if (t.outcome) Object.keys(t.outcome.fills).forEach(function (k) { setField(form, k, t.outcome.fills[k]); });
    }
    if (cfg.red_fives) fillRedFives(form, cfg.red_fives, t.captured);
    var done = part(root, "filled");
    done.textContent = root.dataset.msgFilled; done.hidden = false;
    var submit = form.querySelector("button[type=submit].primary");
    if (submit) { submit.scrollIntoView({ block: "center" }); submit.focus({ preventScroll: true }); }
  }

  // -- taps -------------------------------------------------------------------------------------------------
  function clampPoints(n) { return Math.max(0, n); }
  function record(root, last) {
    var state = root._state, cur = state.current, err = part(root, "error");
    err.hidden = cur.winner !== null;
    if (cur.winner === null) { err.textContent = part(root, "title").textContent; return; }
    state.tricks.push({ winner: cur.winner, points: cur.points, fives: cur.fives.slice() });
    state.current = { winner: null, points: 0, fives: [] };
    state.last = last;
  }
  function undo(root) {
    var state = root._state;
    if (state.last) { state.last = false; state.outcome = null; }
    var tr = state.tricks.pop();
    if (tr) state.current = { winner: tr.winner, points: tr.points, fives: tr.fives };
  }
  function fivesLeft(root) {
    var cfg = root._cfg.red_fives, state = root._state;
    var used = state.tricks.reduce(function (s, tr) { return s + tr.fives.length; }, 0) + state.current.fives.length;
    return cfg ? cfg.max - used : 0;
  }
  var ACTS = {
    trick: function (root) { record(root, false); },
    last: function (root) { record(root, true); },
    undo: undo,
    reset: function (root) { root._state = blank(); part(root, "filled").hidden = true; },
    "clear-fives": function (root) { root._state.current.fives = []; },
    fill: fill,
  };
  function onTap(root, el) {
    var state = root._state, cur = state.current, d = el.dataset;
    if (d.tcWinner !== undefined) cur.winner = parseInt(d.tcWinner, 10);
    else if (d.tcSet !== undefined) cur.points = parseInt(d.tcSet, 10);
    else if (d.tcAdd !== undefined) cur.points = clampPoints(cur.points + parseInt(d.tcAdd, 10));
    else if (d.tcFive !== undefined) { if (fivesLeft(root) > 0) cur.fives.push(parseInt(d.tcFive, 10)); }
    else if (d.tcBottomSet !== undefined) state.bottom = parseInt(d.tcBottomSet, 10);
    else if (d.tcBottomAdd !== undefined) state.bottom = Math.min(root._cfg.bottom.max, clampPoints(state.bottom + parseInt(d.tcBottomAdd, 10)));
    else if (d.tcOutcome !== undefined) state.outcome = d.tcOutcome;
    else if (d.tcAct && ACTS[d.tcAct]) ACTS[d.tcAct](root);
    else return;
    save(root, state);
    draw(root);
  }

  function init(scope) {
    scope.querySelectorAll("[data-trick-counter]").forEach(function (root) {
      if (root._cfg) return;
      root._cfg = JSON.parse(root.dataset.trickCounter);
      root._state = load(root);
      if (root._state.tricks.length) root.open = true;
      draw(root);
    });
  }
  document.addEventListener("click", function (e) {
    var el = e.target.closest && e.target.closest("[data-trick-counter] button");
    if (!el) return;
    var root = el.closest("[data-trick-counter]");
    if (root._cfg) onTap(root, el);
  });
  // the 庄家 and the bid are the form's own fields: the counter follows them
  function onFormField(e) {
    var form = e.target.form;
    if (!form || e.target.closest("[data-trick-counter]")) return;
    form.querySelectorAll("[data-trick-counter]").forEach(function (root) {
      var cfg = root._cfg;
      if (cfg && (e.target.name === cfg.declarer || (cfg.goal && e.target.name === cfg.goal.field))) draw(root);
    });
  }
  document.addEventListener("change", onFormField);
  document.addEventListener("input", onFormField);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { init(document); });
  else init(document);
  document.addEventListener("htmx:load", function (e) { init(e.target); });
})();
