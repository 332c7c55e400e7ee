/* Small page behaviours that would otherwise be inline handlers (the Content-Security-Policy allows no
   inline script): a <select data-autosubmit> sends its form as soon as it changes. */
(function () {
  "use strict";
  document.addEventListener("change", function (e) {
    var select = e.target.closest && e.target.closest("select[data-autosubmit]");
    if (select && select.form) select.form.submit();
  });
})();
