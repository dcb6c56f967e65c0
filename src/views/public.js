// qiwang's public pages: the find-my-table filter and live updates. The pages work
// without this script (the find form asks the server, or lists everyone by letter); with
// it, the list filters as one types, and a page served by `qiwang serve` follows every
// change the arbiter records (server-sent events from `events`), without a reload.
(function () {
  "use strict";
  var script = document.currentScript;
  var base = script && script.src ? new URL(".", script.src) : null;

  // The same rule as `views::public::matches` on the server.
  function matches(find, query) {
    var q = query.replace(/\s+/g, "").toLowerCase();
    if (!q) return true;
    var parts = find.split(" ");
    var name = parts[0] || "", pinyin = parts[1] || "", initials = parts[2] || "", number = parts[3] || "";
    if (/^[0-9]+$/.test(q)) return number === q;
    return name.toLowerCase().indexOf(q) >= 0 || pinyin.indexOf(q) === 0 || initials.indexOf(q) === 0;
  }

  function filter() {
    var box = document.getElementById("q");
    if (!box) return;
    var shown = 0;
    var items = document.querySelectorAll("[data-find]");
    for (var i = 0; i < items.length; i++) {
      var ok = matches(items[i].getAttribute("data-find"), box.value);
      items[i].hidden = !ok;
      if (ok) shown++;
    }
    var none = document.getElementById("none");
    if (none) none.hidden = shown > 0 || items.length === 0;
  }

  var box = document.getElementById("q");
  if (box) {
    // A saved site has no server to answer `find.html?q=…`: the search is read here.
    if (!box.value && window.URLSearchParams) {
      box.value = new URLSearchParams(location.search).get("q") || "";
    }
    box.addEventListener("input", filter);
    filter();
  }

  // Fetches this page again and puts its <main> in place of ours (the search box and
  // the scroll position stay).
  var busy = false, again = false;
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html === null) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("main"), main = document.querySelector("main");
        if (fresh && main) {
          main.replaceWith(document.adoptNode(fresh));
          filter();
        }
      })
      .catch(function () {})
      .then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  }

  if (base && /^https?:$/.test(location.protocol) && window.EventSource) {
    var source = new EventSource(new URL("events", base).href);
    var version = document.documentElement.getAttribute("data-version");
    source.addEventListener("change", function (e) {
      if (e.data !== version) {
        version = e.data;
        refresh();
      }
    });
  }
})();
