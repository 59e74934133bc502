/* The seat list's name search: folds umlauts and ß, matches every typed word, hides empty letters. */
(function () {
  "use strict";
  var input = document.getElementById("seat-q"), none = document.getElementById("seat-none");
  if (!input) return;
  var items = Array.prototype.slice.call(document.querySelectorAll("#seat-names li"));
  function fold(s) { return s.toLowerCase().replace(/ß/g, "ss").normalize("NFD").replace(/[\u0300-\u036f]/g, ""); }
  items.forEach(function (li) { if (li.dataset.search) li.dataset.key = fold(li.dataset.search); });
  function filter() {
    var words = fold(input.value).split(/\s+/).filter(Boolean), shown = {}, any = false;
    items.forEach(function (li) {
      if (!li.dataset.key) return;
      var hit = words.every(function (w) { return li.dataset.key.indexOf(w) !== -1; });
      li.hidden = !hit;
      if (hit) { shown[li.dataset.letter] = true; any = true; }
    });
    items.forEach(function (li) { if (!li.dataset.key) li.hidden = !shown[li.dataset.letter]; });
    if (none) none.hidden = any;
  }
  input.addEventListener("input", filter);
  // On slow hall Wi-Fi a phone may type before this script arrives: apply what is already typed.
  if (input.value) filter();
})();
