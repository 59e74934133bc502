/* The table page's service worker (Workbox): the page shell stays on the device, so that reloading a
 * table page without network still opens the table and its queued games (kept by entry.js).
 * Games are never sent through here: the page posts them itself and keeps them until the server has them.
 */
importScripts({{ workbox_sw_json|safe }});

var MODULES = {{ modules|safe }};
var STATIC = {{ static_prefix|safe }};
var VERSION = {{ cache_version|safe }};
// The page's styles, scripts and icons under the URLs the server gives them (hashed in production).
var SHELL = {{ shell|safe }};
// The table pages: a table's own link, a table card's all-evening link, a player's way to his table.
var PAGE = /^\/(tisch\/[^/]+|tk\/[^/]+|s\/[^/]+\/tisch)\/$/;
var PAGES = "skr-table-pages-" + VERSION;
var ASSETS = "skr-table-assets-" + VERSION;

workbox.setConfig({ debug: false, modulePathCb: function (name) { return MODULES[name]; } });
// Every module is loaded now: a service worker may import scripts only while it starts.
var routing = workbox.routing, strategies = workbox.strategies, expiration = workbox.expiration;
var cacheable = workbox.cacheableResponse;
workbox.core.clientsClaim();
self.skipWaiting();

// Installed only with the whole shell on the device: a reload without network finds every file the page needs.
self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(ASSETS).then(function (cache) { return cache.addAll(SHELL); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("skr-table-") === 0 && name !== PAGES && name !== ASSETS;
    }).map(function (name) { return caches.delete(name); }));
  }));
});

// A table page: the network's answer while there is one (kept for later), else the kept copy.
routing.registerRoute(
  function (o) { return o.request.mode === "navigate" && PAGE.test(o.url.pathname); },
  new strategies.NetworkFirst({
    cacheName: PAGES, networkTimeoutSeconds: 6, matchOptions: { ignoreVary: true, ignoreSearch: true },
    plugins: [
      new cacheable.CacheableResponsePlugin({ statuses: [200] }),
      new expiration.ExpirationPlugin({ maxEntries: 12 })
    ]
  })
);

// Styles, scripts, icons: from the device at once, refreshed in the background.
routing.registerRoute(
  function (o) { return o.url.origin === self.location.origin && o.url.pathname.indexOf(STATIC) === 0; },
  new strategies.StaleWhileRevalidate({
    cacheName: ASSETS, matchOptions: { ignoreVary: true },
    plugins: [new cacheable.CacheableResponsePlugin({ statuses: [200] })]
  })
);

// The page asks to keep its current copy (and its files) right after the first visit.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  event.waitUntil(Promise.all(data.urls.map(function (url) {
    var cacheName = new URL(url, self.location.href).pathname.indexOf(STATIC) === 0 ? ASSETS : PAGES;
    return caches.open(cacheName).then(function (cache) { return cache.add(url); }).catch(function () {});
  })));
});
