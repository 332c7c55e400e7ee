/* Small page behaviours that would otherwise be inline handlers (the Content-Security-Policy allows no
   inline script): a <select data-autosubmit> sends its form as soon as it changes; tapping a number box
   selects what is in it, so typing replaces the number instead of putting a digit before it. */
(function () {
  "use strict";
  document.addEventListener("change", function (e) {
    var select = e.target.closest && e.target.closest("select[data-autosubmit]");
    if (select && select.form) select.form.submit();
  });
  document.addEventListener("focusin", function (e) {
    var box = e.target;
    if (!box.matches || !box.matches('input[inputmode="numeric"], input[inputmode="decimal"], input[type="number"]')) return;
    // after the tap has placed the caret: select then, or the caret undoes the selection
    setTimeout(function () { if (document.activeElement === box && box.select) box.select(); }, 0);
  });
})();
