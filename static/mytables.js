/* "Your tables on this phone": kept in this phone's localStorage only (nothing is sent anywhere).
   A table page carries #this-table with data-* (id, game, players, its links); opening it remembers the
   table, keeping an edit link this phone had. The home page lists them in #my-tables, newest first, each
   with its edit link (if this phone had it) or read-only link, its date, hands and leader as last seen, and
   a remove-from-list button. */
(function () {
  "use strict";
  var MOST = 30;

  function load() {
    var list = window.PaijuStorage.read("myTables", []);
    return Array.isArray(list) ? list.filter(function (t) { return t && typeof t.id === "string"; }) : [];
  }

  /* private mode or storage full: the list is a convenience only */
  function save(list) { window.PaijuStorage.write("myTables", list.slice(0, MOST)); }

  /* Only this site's own table addresses are kept or linked (a tampered entry cannot link elsewhere). */
  function tablePath(url) {
    if (!url) return "";
    try {
      var parsed = new URL(url, window.location.href);
      return parsed.origin === window.location.origin && parsed.pathname.indexOf("/tables/") === 0
        ? parsed.pathname : "";
    } catch (err) {
      return "";
    }
  }

  function remember(el) {
    var id = el.getAttribute("data-table-id");
    var list = load();
    var old = list.filter(function (t) { return t.id === id; })[0] || {};
    var entry = {
      id: id,
      game: el.getAttribute("data-game") || "",
      players: el.getAttribute("data-players") || "",
      view: tablePath(el.getAttribute("data-view-url")),
      edit: tablePath(el.getAttribute("data-edit-url")) || old.edit || "",
      created: el.getAttribute("data-created") || "",
      hands: parseInt(el.getAttribute("data-hands") || "0", 10) || 0,
      leader: el.getAttribute("data-leader") || "",
      seen: Date.now()
    };
    save([entry].concat(list.filter(function (t) { return t.id !== id; })));
  }

  function forget(id) {
    save(load().filter(function (t) { return t.id !== id; }));
  }

  function fill(text, values) {
    return String(text || "").replace(/\{(\w+)\}/g, function (_, k) { return values[k] === undefined ? "" : values[k]; });
  }

  function item(section, table) {
    var li = document.createElement("li");
    li.className = "my-table";
    li.setAttribute("data-table-id", table.id);
    var link = document.createElement("a");
    var path = tablePath(table.edit) || tablePath(table.view);
    link.href = path;
    link.className = "my-table-link";
    var title = document.createElement("strong");
    title.textContent = table.game;
    var who = document.createElement("span");
    who.className = "who";
    who.textContent = table.players;
    var kind = document.createElement("span");
    kind.className = "badge";
    kind.textContent = section.getAttribute(tablePath(table.edit) ? "data-edit-label" : "data-view-label");
    link.append(title, " ", kind, document.createElement("br"), who);
    var facts = [];  // when, how many hands, who leads: two evenings of the same players told apart
    if (table.created) facts.push(table.created);
    if (table.hands) facts.push(fill(section.getAttribute("data-hands-label"), { n: table.hands }));
    if (table.leader) facts.push(fill(section.getAttribute("data-leader-label"), { who: table.leader }));
    if (facts.length) {
      var more = document.createElement("span");
      more.className = "facts muted";
      more.textContent = facts.join(" · ");
      link.append(document.createElement("br"), more);
    }
    var remove = document.createElement("button");
    remove.type = "button";
    remove.className = "btn remove";
    remove.textContent = section.getAttribute("data-remove-label");
    remove.setAttribute("aria-label", section.getAttribute("data-remove-label") + " " + table.game + " " + table.players);
    remove.addEventListener("click", function () {
      forget(table.id);
      show(section);
    });
    li.append(link, remove);
    return li;
  }

  function show(section) {
    var ul = section.querySelector("ul");
    ul.replaceChildren();
    load().forEach(function (table) {
      if (tablePath(table.edit) || tablePath(table.view)) ul.append(item(section, table));
    });
    section.hidden = ul.children.length === 0;
  }

  function start() {
    var here = document.getElementById("this-table");
    if (here) remember(here);
    var section = document.getElementById("my-tables");
    if (section) show(section);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
