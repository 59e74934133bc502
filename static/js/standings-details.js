/* Standings on a phone: the table shows place, name, points and solos; a tap on a row shows the columns the
   screen hides (start number, club, each round's points) in a line below it. Works for whatever columns
   the stylesheet hides (display: none), and keeps the open rows open when htmx refreshes the list. */
(function () {
  "use strict";
  var open = {};

  function hiddenParts(row) {
    var table = row.closest("table");
    var heads = table && table.tHead ? table.tHead.rows[0].cells : [];
    var parts = [];
    Array.prototype.forEach.call(row.cells, function (cell, i) {
      if (window.getComputedStyle(cell).display !== "none") return;
      var text = cell.textContent.trim();
      if (text) parts.push([heads[i] ? heads[i].textContent.trim() : "", text]);
    });
    return parts;
  }

  function visibleCells(row) {
    return Array.prototype.filter.call(row.cells, function (c) { return window.getComputedStyle(c).display !== "none"; }).length;
  }

  function show(row) {
    var parts = hiddenParts(row);
    if (!parts.length) return false;
    var tr = document.createElement("tr");
    tr.className = "row-details";
    var td = document.createElement("td");
    td.colSpan = visibleCells(row);
    parts.forEach(function (part) {
      var span = document.createElement("span");
      span.className = "detail";
      if (part[0]) { var b = document.createElement("b"); b.textContent = part[0]; span.appendChild(b); }
      span.appendChild(document.createTextNode(part[1]));
      td.appendChild(span);
    });
    tr.appendChild(td);
    row.after(tr);
    row.classList.add("is-open");
    row.setAttribute("aria-expanded", "true");
    return true;
  }

  function hide(row) {
    var next = row.nextElementSibling;
    if (next && next.classList.contains("row-details")) next.remove();
    row.classList.remove("is-open");
    row.setAttribute("aria-expanded", "false");
  }

  document.addEventListener("click", function (event) {
    var row = event.target.closest("table.ranking:not(.projector-table) tbody tr");
    if (!row || row.classList.contains("row-details") || event.target.closest("a, button")) return;
    var key = row.dataset.startNumber || "";
    if (row.classList.contains("is-open")) { hide(row); delete open[key]; }
    else if (show(row)) { open[key] = true; }
  });

  document.addEventListener("htmx:afterSettle", function () {
    document.querySelectorAll("#standings table.standings tbody tr[data-start-number]").forEach(function (row) {
      if (open[row.dataset.startNumber] && !row.classList.contains("is-open")) show(row);
    });
  });
})();
