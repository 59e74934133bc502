/* Check-in at the door (templates/checkin/page.html).

   A USB scanner types the code and presses Enter: the form's submit is taken over here, the code is
   sent in the background and the input is emptied and focused at once, so the next code can come
   while the answer is on its way. Each answer (a line with the result and the counts) is put on top
   of the log. The forms in the name search and the "paid" buttons in the log go the same way.
   Without this script every form is a plain POST that comes back to the page. */
(function () {
  "use strict";
  var form = document.querySelector("[data-checkin-form]");
  if (!form) return;
  var input = form.querySelector("input[name=code]");
  var collect = form.querySelector("input[name=collect]");
  var log = document.getElementById("checkin-log");
  var csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  var MAX_LINES = 30;

  function show(html) {
    var box = document.createElement("template");
    box.innerHTML = html;
    var counts = box.content.querySelector("#checkin-counts");
    var old = document.getElementById("checkin-counts");
    if (counts && old) {
      counts.removeAttribute("hx-swap-oob");
      old.replaceWith(counts);
      if (window.htmx) window.htmx.process(counts);
    }
    var line = box.content.querySelector("[data-testid=checkin-result]");
    if (line) {
      log.insertBefore(line, log.firstChild);
      while (log.children.length > MAX_LINES) log.removeChild(log.lastChild);
    }
  }

  function failed(text) {
    var line = document.createElement("li");
    line.className = "result outcome-error";
    line.setAttribute("data-testid", "checkin-result");
    line.setAttribute("data-outcome", "error");
    line.textContent = text;
    log.insertBefore(line, log.firstChild);
  }

  function send(url, data) {
    data.set("collect", collect && collect.checked ? "on" : "");
    return fetch(url, {
      method: "POST", body: data, credentials: "same-origin",
      headers: {"X-CSRFToken": csrf, "X-Checkin": "1"}
    }).then(function (response) {
      return response.text().then(function (html) {
        if (response.status >= 500 || !html) { failed(form.getAttribute("data-error") || response.status); return; }
        show(html);
      });
    }).catch(function () { failed(form.getAttribute("data-offline") || "offline"); });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var code = input.value.trim();
    input.value = "";
    input.focus();
    if (!code) return;
    var data = new FormData();
    data.set("code", code);
    send(form.action, data);
  });

  document.addEventListener("submit", function (event) {
    var inline = event.target;
    if (!(inline instanceof HTMLFormElement) || !inline.hasAttribute("data-checkin-inline")) return;
    event.preventDefault();
    var data = new FormData(inline);
    inline.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    send(inline.action, data).then(function () {
      var search = document.getElementById("checkin-q");
      var found = document.getElementById("checkin-found");
      if (inline.closest("#checkin-found")) {
        if (search) search.value = "";
        if (found) found.textContent = "";
      } else if (inline.closest("[data-testid=checkin-result]")) {
        inline.remove();
      }
      input.focus();
    });
  });

  // The camera (checkin-camera.js) hands over what it read.
  document.addEventListener("checkin:code", function (event) {
    input.value = event.detail;
    form.requestSubmit();
  });
})();
