/* The Q783 round tracker (templates/game/q783_rounds.html): a round is two taps, who won and what won it —
   once both are picked the round is recorded (its "record this round" button pressed for the player);
   "undo the last round" takes back a mistaken tap. Typing the winning cards still needs the button. */
(function () {
  "use strict";
  document.addEventListener("change", function (e) {
    var form = e.target.closest && e.target.closest("form[data-auto-round]");
    if (!form || e.target.type !== "radio") return;
    var winner = form.querySelector("input[name=winner]:checked"), what = form.querySelector("input[name=won_with]:checked");
    var button = form.querySelector("button[value=round]");
    if (winner && what && button) button.click();
  });
})();
