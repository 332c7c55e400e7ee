/* "The usual players": the names this phone has opened tables with, kept in its localStorage only (nothing is
   sent anywhere), offered as chips on the new-table form. Tapping a chip puts the name in the first empty name
   box (tapping it again takes it out); "forget" empties the list. No inline script: the CSP allows none. */
(function () {
  "use strict";
  var MOST = 24;

  function load() {
    var list = window.PaijuStorage.read("players", []);
    return Array.isArray(list) ? list.filter(function (n) { return typeof n === "string" && n.trim(); }) : [];
  }

  /* private mode or storage full: the chips are a convenience only */
  function save(list) { window.PaijuStorage.write("players", list.slice(0, MOST)); }

  function remember(names) {
    var fresh = names.map(function (n) { return n.trim(); }).filter(Boolean);
    save(fresh.concat(load().filter(function (n) { return fresh.indexOf(n) < 0; })));
  }

  function boxes(form) {
    return Array.prototype.slice.call(form.querySelectorAll("fieldset.seats input.name"));
  }

  function toggle(form, name) {
    var all = boxes(form);
    var holding = all.filter(function (box) { return box.value.trim() === name; })[0];
    var empty = all.filter(function (box) { return !box.value.trim(); })[0];
    if (holding) holding.value = "";
    else if (empty) empty.value = name;
    mark(form);
  }

  function mark(form) {
    var used = boxes(form).map(function (box) { return box.value.trim(); });
    form.querySelectorAll(".usual-players button[data-name]").forEach(function (chip) {
      chip.setAttribute("aria-pressed", used.indexOf(chip.getAttribute("data-name")) >= 0 ? "true" : "false");
    });
  }

  function offer(form, panel) {
    var names = load();
    panel.hidden = names.length === 0;
    var list = panel.querySelector(".chips");
    list.textContent = "";
    names.forEach(function (name) {
      var chip = document.createElement("button");
      chip.type = "button";
      chip.className = "chip-btn";
      chip.setAttribute("data-name", name);
      chip.textContent = name;
      list.appendChild(chip);
    });
    mark(form);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var panel = document.querySelector(".usual-players");
    var form = panel && panel.closest("form");
    if (!form) return;
    offer(form, panel);
    panel.addEventListener("click", function (e) {
      var chip = e.target.closest("button[data-name]");
      if (chip) toggle(form, chip.getAttribute("data-name"));
      if (e.target.closest("button.forget")) {
        save([]);
        offer(form, panel);
      }
    });
    form.addEventListener("input", function () { mark(form); });
    form.addEventListener("submit", function () {
      remember(boxes(form).map(function (box) { return box.value; }));
    });
  });
})();
