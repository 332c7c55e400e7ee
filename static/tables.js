/* The ledger's hand times (<time data-local-time datetime="…Z">) in the phone's own time zone and
   language, short: "20:15" today, "11月30日 20:15" on another day. Runs on load and on every htmx swap. */
(function () {
  "use strict";
  var lang = document.documentElement.lang || undefined;

  function sameDay(a, b) {
    return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
  }

  function show(el) {
    var when = new Date(el.getAttribute("datetime"));
    if (isNaN(when.getTime())) return;
    var time = { hour: "2-digit", minute: "2-digit" };
    var opts = sameDay(when, new Date()) ? time : Object.assign({ month: "short", day: "numeric" }, time);
    el.textContent = when.toLocaleString(lang, opts);
    el.title = when.toLocaleString(lang);
  }

  function showAll(root) {
    if (!root || !root.querySelectorAll) return;
    root.querySelectorAll("time[data-local-time]").forEach(show);
  }

  document.addEventListener("DOMContentLoaded", function () { showAll(document); });
  document.addEventListener("htmx:load", function (e) { showAll(e.detail.elt); });
  document.addEventListener("htmx:oobAfterSwap", function (e) { showAll(e.detail.target); });
})();
