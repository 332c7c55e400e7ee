/* Small page behaviours that would otherwise be inline handlers (the Content-Security-Policy allows no
   inline script): a <select data-autosubmit> sends its form as soon as it changes; tapping a number box
   selects what is in it, so typing replaces the number instead of putting a digit before it; after a save
   that failed, the first marked field is scrolled into view and focused. */
(function () {
  "use strict";
  document.addEventListener("change", function (e) {
    var select = e.target.closest && e.target.closest("select[data-autosubmit]");
    if (select && select.form) select.form.submit();
  });
  // a save that failed: bring the first marked field into view and focus it (every error stays listed)
  var MARKED = "input.has-error, select.has-error, textarea.has-error, .has-error input:not([type=hidden]), " +
               ".has-error select, .has-error textarea, [aria-invalid=true]";
  function showFirstError(root) {
    var box = (root || document).querySelector(MARKED);
    if (!box) return;
    box.scrollIntoView({ block: "center" });
    if (box.focus) box.focus({ preventScroll: true });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { showFirstError(); });
  else showFirstError();
  document.addEventListener("htmx:afterSwap", function (e) { showFirstError(e.target); });
  // a number box selects what is in it as it takes the focus; the pointer's release that follows a tap
  // would put the caret back (and undo the selection), so that one release is told not to
  var NUMBER_BOX = 'input[inputmode="numeric"], input[inputmode="decimal"], input[type="number"]';
  var justFocused = null;
  document.addEventListener("focusin", function (e) {
    var box = e.target;
    if (!box.matches || !box.matches(NUMBER_BOX) || !box.select) return;
    box.select();
    justFocused = box;
  });
  document.addEventListener("mouseup", function (e) {
    if (justFocused && e.target === justFocused) e.preventDefault();
    justFocused = null;
  });
  document.addEventListener("input", function () { justFocused = null; });
})();
