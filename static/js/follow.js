/* A page that follows the evening (a table card's link, a player's page): it asks the server every
   few seconds whether the round changed, and reloads itself when it did. No reload while a game is
   being typed in or kept on this device unsent (the entry page marks <html data-entry-busy>). */
(function () {
  "use strict";
  var el = document.querySelector("[data-follow]");
  if (!el || !window.fetch) return;
  var url = el.dataset.follow;
  var signature = el.dataset.followSignature;
  var every = Math.max(2, parseInt(el.dataset.followEvery, 10) || 10) * 1000;
  var waiting = false;

  function busy() {
    if (document.documentElement.hasAttribute("data-entry-busy")) return true;
    var form = document.querySelector("form[data-entry-form]");
    return !!(form && form.contains(document.activeElement) && document.activeElement.tagName === "INPUT"
              && document.activeElement.type === "text");
  }

  function check() {
    if (waiting || document.hidden) return;
    waiting = true;
    fetch(url, { headers: { Accept: "application/json" }, cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data && data.signature && data.signature !== signature && !busy()) window.location.reload();
      })
      .catch(function () { /* offline: ask again next time */ })
      .then(function () { waiting = false; });
  }

  window.setInterval(check, every);
  window.addEventListener("online", check);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) check(); });
})();
