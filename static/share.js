/* The share panel: a button[data-copy="#target"] copies the target's link in one tap (Clipboard API) and
   says so in the panel's .copied status; where the clipboard is unavailable or refuses, the link is
   selected for the phone's own copy menu instead. No inline script: the CSP allows none. */
(function () {
  "use strict";

  function textOf(target) {
    return target.value !== undefined ? target.value : (target.getAttribute("href") || target.textContent);
  }

  function selectText(target) {
    if (target.select) {
      target.focus();
      target.select();
      if (target.setSelectionRange) target.setSelectionRange(0, target.value.length);
      return;
    }
    var range = document.createRange();
    range.selectNodeContents(target);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function say(button, message, ok) {
    var scope = button.closest(".share, .copy-scope") || button.parentNode;
    var status = scope.querySelector(".copied");
    if (!status) return;
    status.textContent = message;
    status.classList.toggle("ok", ok);
    status.classList.toggle("fallback", !ok);
  }

  function fallback(button, target) {
    selectText(target);
    say(button, button.getAttribute("data-fallback") || "", false);
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("button[data-copy]");
    if (!button) return;
    var target = document.querySelector(button.getAttribute("data-copy"));
    if (!target) return;
    var text = textOf(target);
    if (!navigator.clipboard || !navigator.clipboard.writeText || !window.isSecureContext) {
      fallback(button, target);
      return;
    }
    navigator.clipboard.writeText(text).then(function () {
      say(button, button.getAttribute("data-copied") || "", true);
    }, function () {
      fallback(button, target);
    });
  });
})();
