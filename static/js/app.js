/* Small behaviours every page may use, kept out of the HTML so the Content-Security-Policy
   can forbid inline script:
   - form[data-confirm]: ask before submitting (e.g. closing a round);
   - form[data-no-submit]: a live search form never reloads the page on Enter;
   - [data-poll-unless]: an htmx poll skips its turn while the named input has text. */
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    if (form.hasAttribute("data-no-submit")) { event.preventDefault(); return; }
    var question = form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  }, true);
  document.addEventListener("htmx:beforeRequest", function (event) {
    // Only the polling element carries the attribute; the search input's own requests go through.
    var elt = event.detail && event.detail.elt;
    var selector = elt && elt.getAttribute && elt.getAttribute("data-poll-unless");
    if (!selector) return;
    var input = document.querySelector(selector);
    if (input && input.value) event.preventDefault();
  });
})();
