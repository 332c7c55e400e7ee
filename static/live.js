/* The live page (templates/live/rounds.html): a round picked by taps alone — who won it and what won it — is
   recorded once every choice of the round is made (its "record this round" button pressed for the player);
   "undo the last round" takes back a mistaken tap. Typing the winning cards still needs the button. */
(function () {
  "use strict";
  document.addEventListener("change", function (e) {
    var form = e.target.closest && e.target.closest("form[data-auto-round]");
    if (!form || e.target.type !== "radio") return;
    var groups = form.querySelectorAll("[role=radiogroup]"), button = form.querySelector("button[value=round]");
    for (var i = 0; i < groups.length; i++) {
      if (!groups[i].querySelector("input[type=radio]:checked")) return;
    }
    if (groups.length && button) button.click();
  });
})();
