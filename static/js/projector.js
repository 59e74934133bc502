/* The projector scrolls through the list by itself and pauses at the ends; no hover, no interaction needed. */
(function () {
  "use strict";
  var step = 1, pause = 0;
  setInterval(function () {
    if (pause > 0) { pause--; return; }
    var max = document.documentElement.scrollHeight - window.innerHeight;
    if (max <= 0) return;
    window.scrollBy(0, step);
    if (window.scrollY >= max - 1) { pause = 120; setTimeout(function () { window.scrollTo(0, 0); pause = 120; }, 3000); }
  }, 40);
})();
