/* The table's entry page: show only the chosen contract's fields, the Augen keypad, and never lose a game.
 *
 * Offline first (the table page, data-queue): every saved game goes into a queue on this device
 * (localStorage, with a client id made once per game) and is sent from there, in order. While the
 * network is down any number of games can be entered: each is shown in the sheet marked "not sent",
 * the next game number and dealer follow the queued games, and the page (kept by the service worker,
 * templates/entry/sw.js) opens again with its queue after a reload. The server recognises a retry by
 * its client id. A game the server refuses stays in the queue with the reason, never dropped: a
 * number another device took shows both versions side by side, and the table keeps one with a tap.
 *
 * The page asks the server whether the table changed (a conditional GET of the page itself: 304 while
 * nothing changed), so games entered on another device appear by themselves: every 3 seconds after a
 * change, less often the longer the table stays unchanged (up to every 15 seconds), and not at all
 * while the page is hidden. A saved game's answer carries the page's new parts: no second request.
 *
 * No rules here: the points of a game come from the server's preview (htmx); a queued game shows the
 * points its preview had, or "points follow". The deal passes to the next seat except after the
 * contracts the server lists in data-redeal.
 */
(function () {
  "use strict";
  /* numbers as the lists print them: one minus sign, "−5" (U+2212), never a hyphen */
  function minus(n) { return String(n).replace("-", "\u2212"); }


  var POLL_MS = 3000;
  var POLL_MAX_MS = 15000;
  var SEND_TIMEOUT_MS = 8000;

  var root = document.getElementById("entry-root");
  if (!root) return;
  var storage = root.dataset.storage || "";
  var queueMode = !!root.dataset.queue;
  var pageUrl = root.dataset.page || window.location.pathname;
  var etag = null;
  var sending = false;
  var polling = false;
  var pollDelay = POLL_MS;
  var pollTimer = null;
  var retryTimer = null;
  var previewSig = null;
  var pendingSig = null;
  var blankPreview = null;

  /* --- small helpers ------------------------------------------------------------------------- */

  function form() { return document.querySelector("form[data-entry-form]"); }
  function editing() { var f = form(); return !!(f && f.hasAttribute("data-editing")); }

  function text(name, vars) {
    var tpl = document.getElementById("entry-texts");
    var el = tpl && tpl.content.querySelector('[data-text="' + name + '"]');
    var t = el ? el.textContent.trim() : name;
    Object.keys(vars || {}).forEach(function (k) { t = t.split("{" + k + "}").join(String(vars[k])); });
    return t;
  }

  function esc(s) {
    return String(s == null ? "" : s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
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
    } catch (e) { /* private mode or full: the queue still lives in this page */ }
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

  function json(value, fallback) {
    try { return JSON.parse(value); } catch (e) { return fallback; }
  }

  /* --- the table's state as the server last said, and the queue on top of it ------------------ */

  function state() {
    var d = root.dataset;
    return {
      version: d.version || "", next: parseInt(d.next, 10) || 0, dealer: parseInt(d.dealer, 10) || 0,
      size: parseInt(d.size, 10) || 4, required: parseInt(d.required, 10) || 0, played: parseInt(d.played, 10) || 0,
      open: !!d.open, names: json(d.names, {}), totals: json(d.totals, {}), redeal: json(d.redeal, []),
      tie60: json(d.tie60, []), /* über Kreuz under kreuz_tie = replay: 60 Augen are thrown in */
      games: d.games || ""
    };
  }

  var queueKey = storage + ":queue";
  var memoryQueue = [];

  function queue() {
    if (!storage) return memoryQueue;
    var q = load(queueKey);
    return Array.isArray(q) ? q : [];
  }

  function saveQueue(q) {
    memoryQueue = q;
    if (storage) store(queueKey, q.length ? q : null);
  }

  function migrateOldPending() {
    // Before the queue, one game waited under ":pending"; keep it.
    var old = load(storage + ":pending");
    if (!old || !old.fields) return;
    var q = queue();
    var cid = "";
    old.fields.forEach(function (pair) { if (pair[0] === "client_id") cid = pair[1]; });
    if (!q.some(function (item) { return item.cid === cid; })) {
      q.unshift({ cid: cid || uuid(), number: parseInt(old.number, 10) || 0, action: old.action, fields: old.fields,
                  points: null, label: "", who: "", result: "", dealer: 0, thrownIn: false, state: "queued", reason: "" });
      saveQueue(q);
    }
    store(storage + ":pending", null);
  }

  /* The next game: after the server's games, or after the last queued one. */
  function position() {
    var s = state();
    var q = queue();
    var played = s.played;
    q.forEach(function (item) { if (item.state !== "conflict" && !item.thrownIn) played += 1; });
    var last = q.length ? q[q.length - 1] : null;
    if (!last || s.next > last.number) return { number: s.next, dealer: s.dealer, played: played, required: s.required };
    var dealer = last.thrownIn ? last.dealer : (last.dealer % s.size) + 1;
    return { number: last.number + 1, dealer: dealer, played: played, required: s.required };
  }

  /* --- which fields the chosen contract has ---------------------------------------------------- */

  function checked(name) {
    var f = form();
    var el = f && f.querySelector('input[name="' + name + '"]:checked');
    return el ? el.value : "";
  }

  function check(id) {
    var el = document.getElementById(id);
    if (el) el.checked = true;
  }

  function sitsOut() {
    var f = form();
    var s = state();
    if (!f || s.size !== 5) return "";
    return f.dataset.sitsOut || "";
  }

  function sync() {
    var f = form();
    if (!f) return;
    var c = checked("contract");
    /* The parts each contract button shows, as the server declares them (forms_entry.BUTTONS, the
       same declaration GameForm.record() builds the record from): a Tout shows its own. */
    var button = json(f.dataset.buttons, {})[c];
    var parts = !button ? [] : (button.tout && checked("announce") === "tout" ? button.tout : button.parts);
    f.dataset.contract = c;
    f.querySelectorAll("[data-part]").forEach(function (el) { el.hidden = parts.indexOf(el.dataset.part) < 0; });
    // Laufende: only the runs that count in this contract.
    f.querySelectorAll(".lf-btn[class*=for-]").forEach(function (el) {
      var shown = el.classList.contains("for-" + c);
      el.hidden = !shown;
      var input = el.querySelector("input");
      if (!shown && input.checked) check("lf-0");
    });
    // Nobody plays who sits out; the partner is another player than the declarer.
    var out = sitsOut();
    var declarer = checked("declarer");
    f.querySelectorAll('input[name="declarer"], input[name="partner"]').forEach(function (el) {
      var disabled = el.value === out || (el.name === "partner" && el.value === declarer);
      el.disabled = disabled;
      if (disabled && el.checked) el.checked = false;
      var note = el.nextElementSibling && el.nextElementSibling.querySelector(".nb-note");
      if (note) note.hidden = el.value !== out;
    });
  }

  /* Games kept here that only wait for the network (none refused or in conflict): then "they are sent as soon as
     the network is back" is true; a refused game says why on its own row instead. */
  function onlyWaiting() {
    var q = queue();
    return q.length > 0 && q.every(function (item) { return item.state === "queued"; });
  }

  /* Show the form for game ``pos.number`` dealt by ``pos.dealer`` (after a queued game, or a game from elsewhere). */
  function applyPosition(pos) {
    var f = form();
    var s = state();
    var allQueued = document.getElementById("all-queued");
    var done = pos.required && pos.played >= pos.required;
    if (allQueued) {
      allQueued.hidden = !(done && onlyWaiting());
      allQueued.textContent = text("all-queued");
    }
    if (!f || editing()) return;
    f.hidden = !!done && queue().length > 0;
    if (!pos.number) return;
    f.dataset.number = String(pos.number);
    f.dataset.sitsOut = s.size === 5 ? String(pos.dealer) : "";
    var number = f.querySelector('input[name="number"]');
    if (number) number.value = String(pos.number);
    var title = f.querySelector("[data-title]");
    if (title) title.textContent = text("title", { n: pos.number });
    var progress = f.querySelector("[data-progress]");
    if (progress && queue().length) progress.hidden = true;
    var save = f.querySelector("button[type=submit]");
    if (save) save.textContent = text("save", { n: pos.number });
    var name = s.names[String(pos.dealer)] || "";
    var line = f.querySelector("[data-dealer-line]");
    if (line) line.textContent = text(s.size === 5 ? "deals-out" : "deals", { name: name });
    document.querySelectorAll("#seats .seat").forEach(function (el) {
      var seat = el.dataset.seat;
      var deals = seat === String(pos.dealer);
      el.classList.toggle("deals", deals);
      el.classList.toggle("out", deals && s.size === 5);
      var role = el.querySelector("[data-role]");
      if (role) role.textContent = deals ? text(s.size === 5 ? "role-out" : "role-deals") : "";
    });
    sync();
  }

  /* A game the server has now: the next one follows it until the page is fetched again. */
  function advance(item) {
    var s = state();
    if (item.number < s.next) return;
    root.dataset.next = String(item.number + 1);
    root.dataset.dealer = String(item.thrownIn ? item.dealer : (item.dealer % s.size) + 1);
    if (!item.thrownIn) root.dataset.played = String(s.played + 1);
  }

  function pristine() {
    var f = form();
    return !f || (!checked("contract") && !editing());
  }

  /* The all-evening link reloads itself when the round changes (follow.js); not while a game is typed in or queued. */
  function markBusy() {
    var busy = !pristine() || queue().length > 0;
    if (busy) document.documentElement.setAttribute("data-entry-busy", ""); else document.documentElement.removeAttribute("data-entry-busy");
  }

  /* --- Augen: keypad and quick buttons --------------------------------------------------------- */

  function augenInput() { var f = form(); return f && f.querySelector('input[name="augen"]'); }
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

  /* --- errors next to the fields --------------------------------------------------------------- */

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
    if (preview) preview.innerHTML = '<p class="pv-error">' + esc(text("check")) + "</p>";
    if (first) first.scrollIntoView({ block: "center", behavior: "smooth" });
  }

  function messageOf(data) {
    var errors = (data && data.errors) || {};
    return Object.keys(errors).map(function (k) { return [].concat(errors[k]).join(" "); }).join(" ") ||
      (data && data.detail) || "";
  }

  /* --- a game as the sheet shows it (from the form's own labels) ------------------------------- */

  function labelOf(f, name) {
    var el = f.querySelector('input[name="' + name + '"]:checked');
    var label = el && f.querySelector('label[for="' + el.id + '"]');
    return label ? label.textContent.trim() : "";
  }

  function describe(f) {
    var s = state();
    var c = checked("contract");
    var parts = [labelOf(f, "contract")];
    if (c === "solo") parts.push(labelOf(f, "trump"));
    if ((c === "solo" || c === "wenz") && checked("announce")) parts.push(labelOf(f, "announce"));
    var result = [];
    var augen = f.querySelector('input[name="augen"]');
    var augenPart = f.querySelector('[data-part="augen"]');
    if (augen && augen.value && augenPart && !augenPart.hidden) result.push(augen.value);
    var wonPart = f.querySelector('[data-part="won"]');
    if (wonPart && !wonPart.hidden && checked("won")) result.push(labelOf(f, "won"));
    var lf = checked("laufende");
    if (lf && lf !== "0") result.push(lf + " Lf.");
    var who = c === "kreuz" ? (f.querySelector('input[name="pair"]:checked + label .nb-name') || {}).textContent || ""
      : [s.names[checked("declarer")], s.names[checked("partner")]].filter(Boolean).join(" + ");
    return { label: parts.filter(Boolean).join(" "), result: result.join(" · "), who: who,
             called: c === "rufspiel" || c === "muss" ? checked("called") : "" };
  }

  function signature(f) {
    var pairs = [];
    new FormData(f).forEach(function (value, name) {
      if (["csrfmiddlewaretoken", "client_id", "device"].indexOf(name) < 0) pairs.push(name + "=" + value);
    });
    return pairs.join("&");
  }

  function previewPoints(f) {
    if (previewSig === null || previewSig !== signature(f)) return null;
    var el = document.querySelector("#preview [data-points]");
    return el ? json(el.dataset.points, null) : null;
  }

  /* --- the queue in the sheet and under each player's total ------------------------------------ */

  function renderQueue() {
    var s = state();
    var q = queue();
    var grid = document.querySelector("#sheet [data-grid]");
    document.querySelectorAll("[data-queued]").forEach(function (el) { el.remove(); });
    var allQueued = document.getElementById("all-queued");
    if (allQueued && !onlyWaiting()) allQueued.hidden = true;
    var pendingBox = document.getElementById("pending");
    if (pendingBox) {
      pendingBox.hidden = !q.length;
      pendingBox.querySelector("[data-pending-text]").textContent = text(q.length === 1 ? "pending-one" : "pending-other", { n: q.length });
    }
    var running = {};
    var known = {};
    var unknown = false;
    Object.keys(s.names).forEach(function (seat) { running[seat] = s.totals[seat] || 0; known[seat] = 0; });
    var rows = [];
    var blocker = null;
    q.forEach(function (item) {
      var cells = Object.keys(s.names).map(function (seat) {
        var out = s.size === 5 && String(item.dealer) === seat;
        var pts = item.points ? item.points[seat] : undefined;
        if (item.thrownIn) pts = null;
        if (pts === undefined) unknown = true;
        if (typeof pts === "number") { running[seat] += pts; known[seat] += pts; }
        var shown = out ? "–" : item.thrownIn ? "" : pts === undefined ? "?" : (pts > 0 ? "+" + pts : minus(pts));
        var cls = pts > 0 ? " plus" : pts < 0 ? " minus" : "";
        return '<td class="c-seat' + (out ? " out" : "") + '" role="cell" data-seat="' + seat + '"><b class="pts' + cls + '">' +
          esc(shown) + '</b><span class="run">' + (unknown ? "?" : minus(running[seat])) + "</span></td>";
      }).join("");
      var note;
      if (item.state === "conflict") {
        note = '<span class="q-reason">' + esc(item.reason) + '</span><span class="q-actions">' +
          '<button type="button" data-compare="' + esc(item.cid) + '" data-testid="compare-' + item.number + '">' +
          esc(text("compare")) + "</button></span>";
      } else if (item.state === "refused") {
        note = '<span class="q-reason">' + esc(text("refused")) + " " + esc(item.reason) + '</span><span class="q-actions">' +
          '<button type="button" data-resend="' + esc(item.cid) + '">' + esc(text("resend")) + "</button>" +
          '<button type="button" class="danger" data-discard="' + esc(item.cid) + '" data-testid="discard-' + item.number + '">' +
          esc(text("discard")) + "</button></span>";
      } else if (blocker) {
        note = '<span class="q-reason">' + esc(text("waiting", { n: blocker.number })) + "</span>";
      } else {
        note = "";
      }
      if (item.state !== "queued" && !blocker) blocker = item;
      var badge = '<span class="badge unsent" data-testid="unsent-badge">' + esc(text("unsent")) + "</span>";
      var suit = item.called ? ' <i class="suit suit-' + esc(item.called) + '"></i>' : "";
      rows.push('<tr class="g-row unsent is-' + item.state + '" role="row" data-queued="' + esc(item.cid) +
        '" data-testid="unsent-' + item.number + '"><th class="c-no" role="rowheader" scope="row">' + item.number + "</th>" +
        '<td class="c-game" role="cell"><span class="g1"><b>' + esc(item.thrownIn ? text("strich") : item.label) + "</b>" + suit +
        ' <span class="res">' + esc(item.result || "") + "</span> " + badge + "</span>" +
        '<span class="who">' + esc(item.who || "") + "</span>" + note + "</td>" + cells + "</tr>");
    });
    if (grid) {
      var body = grid.querySelector("[data-rows]");
      var empty = grid.querySelector(".empty");
      if (empty) empty.hidden = q.length > 0;
      // Newest first on the table page: the queued games are the newest.
      rows.forEach(function (html) { body.insertAdjacentHTML("afterbegin", html); });
      applyMine();
    }
    document.querySelectorAll("#seats .seat").forEach(function (el) {
      var seat = el.dataset.seat;
      var box = el.querySelector(".seat-unsent");
      if (!box) return;
      box.hidden = !q.length;
      var sum = known[seat] || 0;
      box.textContent = q.length ? (unknown ? "?" : (sum > 0 ? "+" + sum : minus(sum))) + " " + text("unsent") : "";
    });
    markBusy();
  }

  /* --- sending the queue, one game after the other --------------------------------------------- */

  function post(url, fields) {
    var body = new URLSearchParams();
    fields.forEach(function (pair) { if (pair[0] !== "csrfmiddlewaretoken") body.append(pair[0], pair[1]); });
    body.append("csrfmiddlewaretoken", csrfToken());
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller ? window.setTimeout(function () { controller.abort(); }, SEND_TIMEOUT_MS) : null;
    return fetch(url, {
      method: "POST", body: body, credentials: "same-origin", signal: controller ? controller.signal : undefined,
      headers: { "Accept": "application/json", "X-CSRFToken": csrfToken() }
    }).then(function (res) {
      if (timer) window.clearTimeout(timer);
      return res.json().catch(function () { return {}; }).then(function (data) {
        return { status: res.status, ok: res.ok, data: data };
      });
    }, function () {
      if (timer) window.clearTimeout(timer);
      return { status: 0, ok: false, data: {} }; // no network (or no answer in time)
    });
  }

  function scheduleRetry() {
    if (retryTimer) return;
    retryTimer = window.setInterval(function () { flush(); }, 5000);
  }

  function update(cid, changes) {
    var q = queue();
    q.forEach(function (item) { if (item.cid === cid) Object.keys(changes).forEach(function (k) { item[k] = changes[k]; }); });
    saveQueue(q);
  }

  function remove(cid) {
    saveQueue(queue().filter(function (item) { return item.cid !== cid; }));
  }

  /* Send the first queued game; then the next. Stops at a game the server refused (order matters). */
  function flush() {
    if (sending) return Promise.resolve();
    var first = queue()[0];
    if (!first) {
      if (retryTimer) { window.clearInterval(retryTimer); retryTimer = null; }
      return Promise.resolve();
    }
    if (first.state !== "queued") return Promise.resolve();
    sending = true;
    return post(first.action, first.fields).then(function (r) {
      sending = false;
      if (r.ok) {
        advance(first);
        remove(first.cid);
        renderQueue();
        return took(r.data).then(flush);
      }
      var reason = messageOf(r.data) || text("error");
      if (r.status === 409 && r.data.code === "number_taken") {
        update(first.cid, { state: "conflict", reason: text("conflict", { n: first.number }) });
        return refresh(true).then(function () { renderQueue(); openCompare(first.cid); });
      }
      if (r.status === 400 || r.status === 404 || r.status === 409) {
        update(first.cid, { state: "refused", reason: reason });
        renderQueue();
        return;
      }
      // No network, the server is down, or the session changed (403): keep it and try again.
      renderQueue();
      scheduleRetry();
    });
  }

  function enqueue(f) {
    var s = state();
    var pos = position();
    var cid = uuid();
    f.querySelector('input[name="device"]').value = deviceName();
    f.querySelector('input[name="client_id"]').value = cid;
    f.querySelector('input[name="number"]').value = String(pos.number);
    var fields = [];
    new FormData(f).forEach(function (value, name) { fields.push([name, String(value)]); });
    var d = describe(f);
    var item = {
      cid: cid, number: pos.number, dealer: pos.dealer, action: f.action, fields: fields,
      points: previewPoints(f), label: d.label, result: d.result, who: d.who, called: d.called,
      thrownIn: s.redeal.indexOf(checked("contract")) >= 0 ||
        (s.tie60.indexOf(checked("contract")) >= 0 && f.querySelector('input[name="augen"]').value === "60"),
      state: "queued", reason: "", at: Date.now()
    };
    var q = queue();
    q.push(item);
    saveQueue(q);
    return item;
  }

  function resetForm() {
    var f = form();
    if (!f) return;
    f.reset();
    clearErrors();
    fresh = true;
    previewSig = null;
    var preview = document.getElementById("preview");
    if (preview && blankPreview !== null) preview.innerHTML = blankPreview;
    sync();
  }

  function submitQueued(f) {
    var alone = queue().length === 0;
    var item = enqueue(f);
    var save = f.querySelector("button[type=submit]");
    if (!alone || navigator.onLine === false) {
      resetForm();
      applyPosition(position());
      renderQueue();
      flush();
      window.scrollTo({ top: 0 });
      return;
    }
    // The only game, and a network: wait for the answer, so that a refused game's fields are still there to fix.
    sending = true;
    if (save) save.disabled = true;
    post(item.action, item.fields).then(function (r) {
      sending = false;
      if (save) save.disabled = false;
      if (r.ok) {
        advance(item);
        remove(item.cid);
        resetForm();
        applyPosition(position());
        renderQueue();
        took(r.data);
        window.scrollTo({ top: 0 });
        return;
      }
      if (r.status === 400) {
        remove(item.cid);
        showErrors(r.data.errors);
        return;
      }
      resetForm();
      applyPosition(position());
      if (r.status === 409 && r.data.code === "number_taken") {
        update(item.cid, { state: "conflict", reason: text("conflict", { n: item.number }) });
        refresh(true).then(function () { renderQueue(); openCompare(item.cid); });
        return;
      }
      if (r.status === 409 || r.status === 404) update(item.cid, { state: "refused", reason: messageOf(r.data) || text("error") });
      else scheduleRetry();
      renderQueue();
    });
  }

  /* A correction or paper mode: sent at once, the page reloads after it. */
  function submitDirect(f) {
    var fields = [];
    f.querySelector('input[name="device"]').value = deviceName();
    if (!f.hasAttribute("data-editing") && !f.querySelector('input[name="client_id"]').value) {
      f.querySelector('input[name="client_id"]').value = uuid();
    }
    new FormData(f).forEach(function (value, name) { fields.push([name, String(value)]); });
    var save = f.querySelector("button[type=submit]");
    if (save) save.disabled = true;
    post(f.action, fields).then(function (r) {
      if (save) save.disabled = false;
      if (r.ok) { window.location.assign(r.data.redirect || window.location.href); return; }
      if (r.status === 400) { showErrors(r.data.errors); return; }
      if (r.status === 0) { showErrors({ form: [text("offline-correction")] }); return; }
      showConflict(messageOf(r.data) || text("error"));
    });
  }

  function submit(event) {
    var f = event.target;
    if (!f.matches || !f.matches("form[data-entry-form]")) return;
    event.preventDefault();
    if (sending) return;
    if (queueMode && !editing()) submitQueued(f); else submitDirect(f);
  }

  /* --- two versions of one game ---------------------------------------------------------------- */

  function conflictBox() { return document.getElementById("conflict"); }

  function showConflict(message) {
    var box = conflictBox();
    if (!box) { window.location.reload(); return; }
    box.querySelector("[data-conflict-message]").textContent = message;
    box.querySelector("[data-versions]").hidden = true;
    box.hidden = false;
    box.querySelector("[data-reload]").hidden = false;
    box.querySelector("[data-reload]").focus();
  }

  /* one game of the sheet as a table of its own, with the sheet's column heads: its points for every player */
  function miniSheet(row) {
    var head = document.querySelector("#sheet [data-grid] thead");
    return '<table class="grid grid-' + state().size + ' mini" role="table">' + (head ? head.outerHTML : "") +
      '<tbody role="rowgroup"><tr class="g-row" role="row">' + row.innerHTML + "</tr></tbody></table>";
  }

  function openCompare(cid) {
    var item = queue().filter(function (i) { return i.cid === cid; })[0];
    var box = conflictBox();
    if (!item || !box) return;
    var stored = document.querySelector('#sheet [data-testid="game-' + item.number + '"]');
    var rival = document.querySelector('#sheet [data-queued="' + cid + '"]');
    box.dataset.cid = cid;
    box.querySelector("[data-conflict-message]").textContent = item.reason;
    box.querySelector("[data-version-stored]").innerHTML = stored ? miniSheet(stored) : "";
    box.querySelector("[data-version-rival]").innerHTML = rival ? miniSheet(rival) : "";
    box.querySelectorAll(".version-body .q-reason, .version-body .q-actions, .version-body .badge.unsent, .version-body .run")
      .forEach(function (el) { el.remove(); });
    box.querySelectorAll(".version-body a.g-link").forEach(function (a) { a.replaceWith(a.textContent); });
    box.querySelector("[data-versions]").hidden = !stored;
    box.querySelector("[data-reload]").hidden = !!stored;
    box.hidden = false;
  }

  function keep(which) {
    var box = conflictBox();
    var cid = box && box.dataset.cid;
    var item = queue().filter(function (i) { return i.cid === cid; })[0];
    if (!item) { box.hidden = true; return; }
    var fields = item.fields.filter(function (pair) { return pair[0] !== "keep"; }).concat([["keep", which]]);
    box.querySelectorAll("[data-keep]").forEach(function (b) { b.disabled = true; });
    post(state().games + item.number + "/konflikt/", fields).then(function (r) {
      box.querySelectorAll("[data-keep]").forEach(function (b) { b.disabled = false; });
      if (r.ok) {
        remove(cid);
        box.hidden = true;
        renderQueue();
        refresh(true).then(flush);
      } else if (r.status !== 0) {
        box.querySelector("[data-conflict-message]").textContent = messageOf(r.data) || text("error");
      }
    });
  }

  /* --- the table as it is now: poll the page, swap what changed -------------------------------- */

  function swap(doc, id) {
    var now = document.getElementById(id);
    var next = doc.getElementById(id);
    if (now && next) now.replaceWith(document.importNode(next, true));
  }

  /* The version is "<round status>-<newest revision id>-<confirmations>": every change to a game adds a revision. */
  function revision(version) { return parseInt(String(version || "").split("-")[1], 10) || 0; }

  function apply(html, force) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var nextRoot = doc.getElementById("entry-root");
    if (!nextRoot) return;
    if (!force && nextRoot.dataset.version === root.dataset.version) return; // nothing changed at the table
    if (revision(nextRoot.dataset.version) < revision(root.dataset.version)) return; // an older state of the table
    Array.prototype.forEach.call(nextRoot.attributes, function (a) { root.setAttribute(a.name, a.value); });
    swap(doc, "entry-top");
    swap(doc, "entry-bottom");
    if (pristine() && !sending) {
      var before = document.getElementById("entry-form");
      swap(doc, "entry-form");
      var after = document.getElementById("entry-form");
      if (after !== before && window.htmx) window.htmx.process(after);
      rememberBlankPreview();
    }
    applyPosition(position());
    renderQueue();
    keepPage();
  }

  /* Answers can arrive out of order (a slow poll after the refresh that followed a save): the page
     only ever takes an answer to a request started after the one it showed last. */
  var started = 0;
  var shown = 0;

  /* Resolves true when the table had changed (a new page was read). */
  function refresh(force) {
    if (!queueMode || editing() || (polling && !force)) return Promise.resolve(false);
    polling = true;
    var mine = ++started;
    var headers = { "Accept": "text/html" };
    if (etag && !force) headers["If-None-Match"] = etag;
    return fetch(pageUrl, { headers: headers, cache: "no-store", credentials: "same-origin" }).then(function (res) {
      polling = false;
      if (res.status === 304 || !res.ok || mine < shown) return false;
      return res.text().then(function (html) {
        if (mine < shown) return false;
        shown = mine;
        etag = res.headers.get("ETag") || etag;
        apply(html, force);
        return true;
      });
    }, function () { polling = false; return false; });
  }

  /* A saved game's answer: the page's parts as they are now, and the tag of the next unchanged poll. */
  function took(data) {
    if (!data || !data.parts) return refresh(true);
    shown = ++started;
    if (data.etag) etag = data.etag;
    apply(data.parts, true);
    lively();
    return Promise.resolve(true);
  }

  /* One poll at a time, each after the last; slower while nothing changes, none while hidden. */
  function schedulePoll() {
    if (pollTimer) window.clearTimeout(pollTimer);
    pollTimer = null;
    if (!queueMode || document.visibilityState !== "visible") return;
    pollTimer = window.setTimeout(poll, pollDelay);
  }

  function poll() {
    pollTimer = null;
    if (document.visibilityState !== "visible") return;
    refresh(false).then(function (changed) {
      pollDelay = changed ? POLL_MS : Math.min(Math.round(pollDelay * 1.5), POLL_MAX_MS);
      schedulePoll();
    });
  }

  function lively() {
    pollDelay = POLL_MS;
    schedulePoll();
  }

  /* --- the sheet on a phone: my column, the whole sheet one tap away --------------------------- */

  function mineKey() { return storage + ":mine"; }

  function applyMine() {
    var sheet = document.getElementById("sheet");
    if (!sheet) return;
    var mine = String(load(mineKey()) || "1");
    var full = !!load(storage + ":full");
    var tools = sheet.querySelector("[data-sheet-tools]");
    if (tools) tools.hidden = false;
    sheet.classList.add("compact");
    sheet.classList.toggle("full", full);
    sheet.querySelectorAll(".c-seat[data-seat]").forEach(function (el) { el.classList.toggle("mine", el.dataset.seat === mine); });
    sheet.querySelectorAll("[data-mine]").forEach(function (b) { b.setAttribute("aria-pressed", String(b.dataset.mine === mine)); });
    var fullButton = sheet.querySelector("[data-full-sheet]");
    if (fullButton) fullButton.setAttribute("aria-pressed", String(full));
  }

  function takeSeatFromUrl() {
    var seat = new URLSearchParams(window.location.search).get("platz");
    if (seat && /^[1-5]$/.test(seat)) store(mineKey(), seat);
  }

  /* --- an app on the table: the screen stays on, light or dark, works offline ------------------ */

  var wakeLock = null;

  function keepAwake() {
    var html = document.documentElement;
    if (!("wakeLock" in navigator)) { html.dataset.wakeLock = "unsupported"; return; }
    if (wakeLock && !wakeLock.released) return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      html.dataset.wakeLock = "on";
      lock.addEventListener("release", function () { html.dataset.wakeLock = "off"; });
    }).catch(function () { html.dataset.wakeLock = "denied"; });
  }

  function switchTheme() {
    var html = document.documentElement;
    var dark = html.dataset.theme ? html.dataset.theme === "dark"
      : window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
    html.dataset.theme = dark ? "light" : "dark";
    store("skr:theme", html.dataset.theme);
  }

  function keepPage() {
    if (!navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    navigator.serviceWorker.controller.postMessage({ type: "keep", urls: [pageUrl] });
  }

  function registerServiceWorker() {
    if (!("serviceWorker" in navigator) || !root.dataset.sw || !queueMode) return;
    navigator.serviceWorker.register(root.dataset.sw, { scope: root.dataset.swScope || undefined }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      // The first visit was not served through the worker: keep this page and its files now.
      var urls = [pageUrl];
      document.querySelectorAll('link[rel="stylesheet"], script[src], link[rel="icon"], link[rel="apple-touch-icon"]')
        .forEach(function (el) { urls.push(el.href || el.src); });
      if (registration.active) registration.active.postMessage({ type: "keep", urls: urls });
      document.documentElement.dataset.offlineReady = "1";
    }).catch(function () { /* not a secure context (plain http): the queue still keeps every game */ });
  }

  function rememberBlankPreview() {
    var preview = document.getElementById("preview");
    if (preview && pristine()) blankPreview = preview.innerHTML;
  }

  /* --- wiring (delegated: the parts of the page are swapped when the table changes) ------------ */

  document.addEventListener("change", function (event) {
    if (event.target.closest && event.target.closest("form[data-entry-form]")) { sync(); markBusy(); }
  });
  document.addEventListener("submit", submit);
  document.addEventListener("click", function (event) {
    var t = event.target;
    var b = t.closest("button[data-key], button[data-set]");
    if (b && b.closest("form[data-entry-form]")) {
      if (b.dataset.set !== undefined) setAugen(b.dataset.set, true); else key(b.dataset.key);
      return;
    }
    if ((b = t.closest("[data-retry]"))) { flush(); return; }
    if ((b = t.closest("[data-compare]"))) { openCompare(b.dataset.compare); return; }
    if ((b = t.closest("[data-keep]"))) { keep(b.dataset.keep); return; }
    if ((b = t.closest("[data-resend]"))) { update(b.dataset.resend, { state: "queued", reason: "" }); renderQueue(); flush(); return; }
    if ((b = t.closest("[data-discard]"))) {
      var item = queue().filter(function (i) { return i.cid === b.dataset.discard; })[0];
      if (item && window.confirm(text("discard-ask", { n: item.number }))) {
        remove(item.cid); renderQueue(); applyPosition(position()); flush();
      }
      return;
    }
    if ((b = t.closest("[data-mine]"))) { store(mineKey(), b.dataset.mine); store(storage + ":full", null); applyMine(); return; }
    if ((b = t.closest("[data-full-sheet]"))) { store(storage + ":full", load(storage + ":full") ? null : 1); applyMine(); return; }
    if ((b = t.closest("[data-theme-switch]"))) { switchTheme(); return; }
    if ((b = t.closest("[data-reload]"))) {
      var box = conflictBox();
      if (box) box.hidden = true;
      window.location.assign(pageUrl);
    }
  });
  document.addEventListener("input", function (event) {
    if (event.target.name === "augen") fresh = false;
  });
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var f = form();
    if (f && event.detail.elt === f) pendingSig = signature(f);
  });
  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "preview") previewSig = pendingSig;
  });
  document.body.addEventListener("htmx:sendError", function () {
    var preview = document.getElementById("preview");
    if (preview) preview.innerHTML = '<p class="pv-hint">' + esc(text("network")) + "</p>";
  });
  window.addEventListener("online", function () { flush(); pollDelay = POLL_MS; poll(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { keepAwake(); pollDelay = POLL_MS; poll(); } else schedulePoll();
  });
  document.addEventListener("pointerdown", keepAwake, { once: true });

  /* The save bar is sticky and grows with the preview: a step scrolled into view keeps clear of it (entry.css). */
  function trackDock() {
    var dock = document.querySelector(".dock");
    if (!dock) return;
    var set = function () { document.documentElement.style.setProperty("--dock-h", dock.offsetHeight + "px"); };
    set();
    if (window.ResizeObserver) new ResizeObserver(set).observe(dock);
  }

  if (storage) migrateOldPending();
  trackDock();
  takeSeatFromUrl();
  rememberBlankPreview();
  if (queueMode) {
    applyPosition(position());
    renderQueue();
    schedulePoll();
    keepAwake();
    registerServiceWorker();
    flush();
  } else {
    sync();
    applyMine();
  }
})();
