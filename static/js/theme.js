/* Light or dark, chosen on this device (the switch on the table page); without a choice the device's setting.
 * Loaded in the head, before the page is drawn, so that a dark hall never sees a white flash. */
(function () {
  try {
    var theme = JSON.parse(localStorage.getItem("skr:theme") || "null");  // entry.js stores JSON
    if (theme === "dark" || theme === "light") document.documentElement.dataset.theme = theme;
  } catch (e) { /* private mode: the device's setting */ }
})();
