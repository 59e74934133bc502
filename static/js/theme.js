/* Light or dark, chosen on this device (the switch on the table page); without a choice the device's setting.
 * Large text and strong contrast (the A+ switch beside DE/EN on every player page): on top of the
 * device's prefers-contrast and prefers-color-scheme, remembered on this device.
 * Loaded in the head, before the page is drawn, so that a dark hall never sees a white flash. */
(function () {
  var html = document.documentElement;
  function load(key) {
    try { return JSON.parse(localStorage.getItem(key) || "null"); }  // entry.js stores JSON
    catch (e) { return null; }  // private mode: the device's setting
  }
  var theme = load("skr:theme");
  if (theme === "dark" || theme === "light") html.dataset.theme = theme;
  if (load("skr:reading") === "large") html.dataset.reading = "large";

  function mark() {
    var on = html.dataset.reading === "large";
    document.querySelectorAll("[data-reading-switch]").forEach(function (b) { b.setAttribute("aria-pressed", String(on)); });
  }
  document.addEventListener("DOMContentLoaded", mark);
  document.addEventListener("htmx:afterSettle", mark);
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-reading-switch]");
    if (!button) return;
    var on = html.dataset.reading !== "large";
    if (on) html.dataset.reading = "large"; else delete html.dataset.reading;
    try { localStorage.setItem("skr:reading", JSON.stringify(on ? "large" : null)); } catch (e) { /* private mode: this visit */ }
    mark();
  });
})();
