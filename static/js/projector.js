/* The projector pages through the standings: as many rows as fit the screen, each page for
   min(15 s, 60 s / pages), so a whole cycle never takes longer than a minute however big the field.
   The header (title, page, clock) and the progress line stay; no scrolling, no interaction. */
(function () {
  "use strict";
  var body = document.getElementById("standings");
  if (!body) return;
  var cycle = Number(body.dataset.cycleSeconds || 60), longest = Number(body.dataset.maxPageSeconds || 15);
  var page = 0, pages = 1, timer = null;
  var pageLabel = document.querySelector("[data-testid=projector-page]");
  var clock = document.querySelector("[data-testid=projector-clock]");

  function rows() { return Array.prototype.slice.call(body.querySelectorAll("tbody tr")); }

  function rowsPerPage(all) {
    all.forEach(function (r) { r.hidden = false; });
    if (!all.length) return 1;
    var top = all[0].getBoundingClientRect().top;
    var height = all[0].getBoundingClientRect().height || 1;
    return Math.max(1, Math.floor((window.innerHeight - top - 8) / height));
  }

  function show() {
    var all = rows(), per = rowsPerPage(all);
    pages = Math.max(1, Math.ceil(all.length / per));
    if (page >= pages) page = 0;
    all.forEach(function (r, i) { r.hidden = Math.floor(i / per) !== page; });
    body.dataset.pages = pages;
    body.dataset.rowsPerPage = per;
    body.dataset.pageSeconds = seconds();
    if (pageLabel) pageLabel.textContent = pages > 1 ? (pageLabel.dataset.label + " " + (page + 1) + "/" + pages) : "";
  }

  function seconds() { return Math.min(longest, cycle / pages); }

  function next() {
    page = (page + 1) % pages;
    show();
    schedule();
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(next, seconds() * 1000);
  }

  function tick() {
    if (!clock) return;
    var now = new Date();
    clock.textContent = String(now.getHours()).padStart(2, "0") + ":" + String(now.getMinutes()).padStart(2, "0");
  }

  document.body.addEventListener("htmx:afterSwap", function (event) { if (event.target === body) show(); });
  window.addEventListener("resize", show);
  show();
  schedule();
  tick();
  setInterval(tick, 10000);
})();
