/* The table's entry page: show only the chosen contract's fields, the Augen keypad, and never lose a game.
 *
 * A game is kept in localStorage (with a client id made once per game) until the server has it: a
 * dropped connection is retried when the network is back, and the server recognises a retry by its
 * client id. A 409 (the number was taken on another device, the round was closed) is told to the
 * table, and the page reloads. No rules here: the points preview comes from the server (htmx).
 */
(function () {
  "use strict";

  var form = document.querySelector("form[data-entry-form]");
  var root = document.getElementById("entry-root");
  var storage = root ? root.dataset.storage : "";
  var pendingBox = document.getElementById("pending");
  var conflictBox = document.getElementById("conflict");
  var sending = false;
  var retryTimer = null;

  function text(name) {
    var tpl = document.getElementById("entry-texts");
    var el = tpl && tpl.content.querySelector('[data-text="' + name + '"]');
    return el ? el.textContent.trim() : name;
  }

  function uuid() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") return window.crypto.randomUUID();
    // crypto.randomUUID needs a secure context; a club's Wi-Fi may serve plain http.
    var b = new Uint8Array(16);
    window.crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 0x100).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  function store(key, value) {
    try {
      if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* private mode: the game is still sent, just not kept across a reload */ }
  }

  function load(key) {
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
  }

  function deviceName() {
    var name = load("skr:device");
    if (!name) {
      name = "device-" + uuid().slice(0, 8);
      store("skr:device", name);
    }
    return name;
  }

  function csrfToken() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  /* --- which fields the chosen contract has ---------------------------------------------------- */

  function checked(name) {
    var el = form.querySelector('input[name="' + name + '"]:checked');
    return el ? el.value : "";
  }

  function check(id) {
    var el = document.getElementById(id);
    if (el) el.checked = true;
  }

  function sync() {
    var c = checked("contract");
    var announce = checked("announce");
    if (announce === "sie" && c !== "solo") { check("an-none"); announce = ""; }
    var played = ["rufspiel", "muss", "wenz", "solo", "kreuz"].indexOf(c) >= 0;
    var soloish = c === "wenz" || c === "solo";
    var tout = soloish && announce === "tout";
    var sie = c === "solo" && announce === "sie";
    var parts = {
      called: c === "rufspiel" || c === "muss", muss: c === "muss", trump: c === "solo",
      declarer: played && c !== "kreuz", partner: c === "rufspiel" || c === "muss", announce: soloish, won: tout,
      augen: played && !tout && !sie, laufende: played && !sie, kontra: played && c !== "muss" && c !== "kreuz",
      kreuz: c === "kreuz" /* über Kreuz: the pair, Augen, Schwarz, Laufende only */
    };
    form.dataset.contract = c;
    form.querySelectorAll("[data-part]").forEach(function (el) { el.hidden = !parts[el.dataset.part]; });
    form.querySelectorAll(".only-solo").forEach(function (el) { el.hidden = c !== "solo"; });
    // Laufende: only the runs that count in this contract.
    form.querySelectorAll(".lf-btn[class*=for-]").forEach(function (el) {
      var shown = el.classList.contains("for-" + c);
      el.hidden = !shown;
      var input = el.querySelector("input");
      if (!shown && input.checked) check("lf-0");
    });
    // The partner is another player than the declarer (and never the one who sits out).
    var declarer = checked("declarer");
    form.querySelectorAll('input[name="partner"]').forEach(function (el) {
      if (el.dataset.sitsOut === undefined) el.dataset.sitsOut = el.disabled ? "1" : "";
      el.disabled = el.dataset.sitsOut === "1" || el.value === declarer;
      if (el.disabled && el.checked) el.checked = false;
    });
  }

  /* --- Augen: keypad and quick buttons --------------------------------------------------------- */

  function augenInput() { return form.querySelector('input[name="augen"]'); }
  var fresh = true; // the next digit starts a new number (after a quick button, or a prefilled value)

  function setAugen(value, keepFresh) {
    var input = augenInput();
    input.value = value;
    fresh = !!keepFresh;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function key(k) {
    var v = fresh ? "" : augenInput().value;
    if (k === "clear") v = "";
    else if (k === "back") v = augenInput().value.slice(0, -1);
    else if (v.length < 3) v = (v === "0" ? "" : v) + k;
    setAugen(v, false);
  }

  /* --- sending a game, keeping it until the server has it -------------------------------------- */

  function pendingKey() { return storage + ":pending"; }

  function showPending(p) {
    if (!pendingBox) return;
    pendingBox.hidden = !p;
    if (p) pendingBox.querySelector("[data-pending-number]").textContent = p.number || "";
    var save = form && form.querySelector("button[type=submit]");
    if (save) save.disabled = !!p;
  }

  function clearErrors() {
    document.querySelectorAll(".field-error").forEach(function (el) { el.textContent = ""; });
  }

  function showErrors(errors) {
    clearErrors();
    var first = null;
    Object.keys(errors || {}).forEach(function (slot) {
      var el = document.getElementById("err-" + slot);
      if (!el || el.closest("[hidden]")) el = document.getElementById("err-form");
      if (!el) return;
      el.textContent = (el.textContent ? el.textContent + " " : "") + [].concat(errors[slot]).join(" ");
      first = first || el;
    });
    var preview = document.getElementById("preview");
    if (preview) preview.innerHTML = '<p class="pv-error">' + text("check") + "</p>";
    if (first) first.scrollIntoView({ block: "center", behavior: "smooth" });
  }

  function conflict(message) {
    if (!conflictBox) { window.location.reload(); return; }
    conflictBox.querySelector("[data-conflict-message]").textContent = message;
    conflictBox.hidden = false;
    conflictBox.querySelector("[data-reload]").focus();
  }

  function scheduleRetry() {
    if (retryTimer) return;
    retryTimer = window.setInterval(function () { flush(); }, 8000);
  }

  function flush() {
    var p = load(pendingKey());
    showPending(p);
    if (!p || sending) return;
    send(p);
  }

  function send(p) {
    sending = true;
    var body = new URLSearchParams();
    p.fields.forEach(function (pair) { if (pair[0] !== "csrfmiddlewaretoken") body.append(pair[0], pair[1]); });
    body.append("csrfmiddlewaretoken", csrfToken());
    fetch(p.action, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "Accept": "application/json", "X-CSRFToken": csrfToken() }
    }).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (data) { return { res: res, data: data }; });
    }).then(function (r) {
      sending = false;
      var status = r.res.status;
      var errors = r.data.errors || {};
      var message = Object.keys(errors).map(function (k) { return [].concat(errors[k]).join(" "); }).join(" ");
      if (r.res.ok) {
        store(pendingKey(), null);
        if (p.cidKey) store(p.cidKey, null);
        window.location.assign(r.data.redirect || window.location.href);
      } else if (status === 400) {
        store(pendingKey(), null);
        showPending(null);
        showErrors(errors);
      } else if (status === 409 || status === 404) {
        store(pendingKey(), null);
        if (p.cidKey) store(p.cidKey, null);
        showPending(null);
        conflict(message || text("error"));
      } else if (status === 403) {
        // The session or the CSRF cookie changed: reloading gives a fresh token and sends the kept game again.
        conflict(message || text("error"));
      } else {
        showPending(p);
        scheduleRetry();
      }
    }).catch(function () {
      sending = false;
      showPending(p);
      scheduleRetry();
    });
  }

  function submit(event) {
    event.preventDefault();
    if (sending || load(pendingKey())) { flush(); return; }
    var number = form.dataset.number;
    var fields = [];
    var cidKey = null;
    form.querySelector('input[name="device"]').value = deviceName();
    if (!form.hasAttribute("data-editing")) {
      cidKey = storage + ":cid:" + number;
      var cid = load(cidKey);
      if (!cid) { cid = uuid(); store(cidKey, cid); }
      form.querySelector('input[name="client_id"]').value = cid;
    }
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    var p = { action: form.action, fields: fields, number: number, cidKey: cidKey, at: Date.now() };
    store(pendingKey(), p);
    showPending(null);
    var save = form.querySelector("button[type=submit]");
    if (save) save.disabled = true;
    send(p);
  }

  /* --- wiring ---------------------------------------------------------------------------------- */

  if (form) {
    sync();
    form.addEventListener("change", sync);
    form.addEventListener("submit", submit);
    form.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-key], button[data-set]");
      if (!button) return;
      if (button.dataset.set !== undefined) setAugen(button.dataset.set, true);
      else key(button.dataset.key);
    });
    var augen = augenInput();
    if (augen) augen.addEventListener("input", function () { fresh = false; });
  }
  if (pendingBox) {
    pendingBox.querySelector("[data-retry]").addEventListener("click", flush);
  }
  if (conflictBox) {
    conflictBox.querySelector("[data-reload]").addEventListener("click", function () {
      window.location.assign(window.location.pathname.replace(/spiel\/\d+\/$/, ""));
    });
  }
  document.body.addEventListener("htmx:sendError", function () {
    var preview = document.getElementById("preview");
    if (preview) preview.innerHTML = '<p class="pv-hint">' + text("network") + "</p>";
  });
  window.addEventListener("online", flush);
  if (storage) flush();
})();
