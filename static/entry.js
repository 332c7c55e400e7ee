/* Entry for a thumb on the settle forms: chips that fill a box, ±5 steppers, the finishing order by
   tapping players as they went out, and the cards-left boxes that move on by themselves.
   Everything here only fills the form's own fields: without JavaScript the same form is typed. */
(function () {
  "use strict";
  function fire(input) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  function byId(id) { return document.getElementById(id); }

  document.documentElement.classList.add("js");  // rows grow by themselves (rows.js): no "add a row" button

  // a chip that sets a number box (or every seat's box: data-set-all), and a stepper that moves it by its step
  document.addEventListener("click", function (e) {
    var set = e.target.closest("[data-set-for]");
    if (set) { var box = byId(set.dataset.setFor); if (box) { box.value = set.dataset.value; fire(box); } return; }
    var all = e.target.closest("[data-set-all]");
    if (all) {
      all.dataset.setAll.split(" ").map(byId).forEach(function (b) { if (b) { b.value = all.dataset.value; fire(b); } });
      return;
    }
    var step = e.target.closest("[data-step-for]");
    if (step) {
      var input = byId(step.dataset.stepFor); if (!input) return;
      var now = parseInt(input.value, 10);
      input.value = String((isNaN(now) ? 0 : now) + parseInt(step.dataset.step, 10));
      fire(input);
    }
  });

  // the finishing order: each tap puts that player in the next empty place
  function places(fs) { return [].slice.call(fs.querySelectorAll("select")); }
  document.addEventListener("click", function (e) {
    var fs = e.target.closest("[data-tap-order]"); if (!fs) return;
    if (e.target.closest(".tap-clear")) { places(fs).forEach(function (s) { s.value = ""; fire(s); }); return; }
    var tap = e.target.closest(".seat-tap"); if (!tap) return;
    var seat = tap.dataset.seat, list = places(fs);
    if (list.some(function (s) { return s.value === seat; })) return;
    var free = list.filter(function (s) { return s.value === ""; })[0];
    if (free) { free.value = seat; fire(free); }
  });
  // each player's place shows on the player's button (the places' selects are then out of sight: tables.css)
  function markPlaces(fs) {
    var chosen = places(fs).map(function (s) { return s.value; });
    fs.querySelectorAll(".seat-tap").forEach(function (b) {
      var at = chosen.indexOf(b.dataset.seat);
      if (at < 0) b.removeAttribute("data-place"); else b.dataset.place = String(at + 1);
    });
  }
  document.addEventListener("change", function (e) {
    var fs = e.target.closest && e.target.closest("[data-tap-order]");
    if (fs) markPlaces(fs);
  });
  function showTapBars(root) {
    (root || document).querySelectorAll("[data-tap-order] .tap-bar").forEach(function (bar) {
      bar.hidden = false;
      markPlaces(bar.closest("[data-tap-order]"));
    });
  }

  // repeated rows: a row the player has moved on from (a later row has its seat) shows only what it holds;
  // a tap on one of its chips opens it again
  function leadGiven(row) { return !!row.querySelector(".lead-part input:checked:not([value=''])"); }
  function foldRows(fs, keep) {
    var rows = [].slice.call(fs.querySelectorAll(".row-entry"));
    rows.forEach(function (row, i) {
      if (row !== keep) row.classList.remove("editing");
      var later = rows.slice(i + 1).some(leadGiven);
      row.classList.toggle("done", later && !row.classList.contains("editing"));
    });
  }
  document.addEventListener("change", function (e) {
    var fs = e.target.closest && e.target.closest("fieldset[data-rows]");
    if (!fs) return;
    var row = e.target.closest(".row-entry");
    foldRows(fs, row);
    // a row's seat given: the rest of the row shows, and comes into view above the save bar
    if (row && e.target.closest(".lead-part")) row.scrollIntoView({ block: "nearest" });
  });
  document.addEventListener("click", function (e) {
    var row = e.target.closest && e.target.closest(".row-entry.done");
    if (row && e.target.closest(".chip")) { row.classList.remove("done"); row.classList.add("editing"); }
  });
  function foldAll(root) {
    (root || document).querySelectorAll("fieldset[data-rows]").forEach(function (fs) { foldRows(fs, null); });
  }

  // cards left (跑得快): after the winner, go to the first loser's box; a box whose number cannot grow moves on
  function seatBoxes(form) { return [].slice.call(form.querySelectorAll("input[data-seat][data-max]")); }
  function winnerOf(box) {
    var name = box.dataset.zeroAt; if (!name) return null;
    var picked = box.form.querySelector("input[type=radio][name='" + name + "']:checked");
    return picked ? picked.value : null;
  }
  function nextBox(form, after) {
    var boxes = seatBoxes(form), started = after === null;
    for (var i = 0; i < boxes.length; i++) {
      var b = boxes[i];
      if (!started) { started = b === after; continue; }
      if (b.value.trim() === "" && winnerOf(b) !== b.dataset.seat) return b;
    }
    return null;
  }
  document.addEventListener("change", function (e) {
    var t = e.target;
    if (t.type !== "radio" || !t.form) return;
    var boxes = seatBoxes(t.form).filter(function (b) { return b.dataset.zeroAt === t.name; });
    if (!boxes.length) return;
    boxes.forEach(function (b) { if (b.dataset.seat === t.value && b.value.trim() === "") b.value = "0"; });
    var first = nextBox(t.form, null); if (first) first.focus();
  });
  document.addEventListener("input", function (e) {
    var box = e.target;
    if (!box.matches || !box.matches("input[data-seat][data-max]")) return;
    var n = parseInt(box.value, 10), max = parseInt(box.dataset.max, 10);
    if (isNaN(n) || isNaN(max) || n * 10 <= max) return;  // another digit could still follow
    var next = nextBox(box.form, box);
    if (next) next.focus();
    else { var save = box.form.querySelector("button.primary"); if (save) save.focus(); }
  });

  // a part of the form a player opens (冲关, a row's rarer parts) comes into view above the save bar
  document.addEventListener("click", function (e) {
    var summary = e.target.closest("form summary"); if (!summary) return;
    var details = summary.parentElement;
    setTimeout(function () { if (details.open) details.scrollIntoView({ block: "nearest" }); }, 0);
  });

  document.addEventListener("DOMContentLoaded", function () { showTapBars(document); foldAll(document); });
  document.addEventListener("htmx:load", function (e) { showTapBars(e.target); foldAll(e.target); });
})();
