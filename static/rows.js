/* Repeated rows of a settle form (bombs, rounds, red fives, 冲关): as soon as the last row gets a value,
   a fresh row appears below it, so a player never taps "add a row". Without JavaScript the form's
   "add a row" button does the same through the server. */
(function () {
  "use strict";
  function fill(fieldset) {
    var rows = fieldset.querySelectorAll(".row-entry:not(template .row-entry)");
    var last = rows[rows.length - 1], max = parseInt(fieldset.dataset.max, 10);
    if (!last || (max && rows.length >= max)) return;
    var used = [].some.call(last.querySelectorAll("input, select"), function (e) {
      if (e.type === "radio" || e.type === "checkbox") return e.checked && e.value !== "";
      return e.value.trim() !== "";
    });
    if (!used) return;
    var tpl = fieldset.querySelector("template.row-template");
    if (!tpl) return;
    var html = tpl.innerHTML.replace(/__N__/g, String(rows.length)).replace(/__NUM__/g, String(rows.length + 1));
    var box = document.createElement("div"); box.innerHTML = html;
    var row = box.firstElementChild;
    last.after(row);
    if (window.PaijuPicker) window.PaijuPicker.init(row);
  }
  document.addEventListener("input", function (e) {
    var fs = e.target.closest && e.target.closest("fieldset[data-rows]");
    if (fs) fill(fs);
  });
  document.addEventListener("change", function (e) {
    var fs = e.target.closest && e.target.closest("fieldset[data-rows]");
    if (fs) fill(fs);
  });
})();
