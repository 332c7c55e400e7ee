/* What 牌局 Paiju keeps in this phone's localStorage: every key, named once, and their reading and writing (a value
   is JSON). A private window or a full storage keeps nothing: a read gives the fallback, a write says false.
   Loaded before every other page script (templates/base.html); they name a key by its name here. */
(function () {
  "use strict";
  var KEYS = {
    outbox: "paiju.outbox",               // hands held with no signal (static/outbox.js)
    heldDisagree: "paiju.heldDisagree",   // held hands the ledger recorded otherwise (static/held-in-phone.js)
    wakeLock: "paiju.wakeLock",           // the table page's wake lock switch (static/outbox.js)
    myTables: "paiju.my-tables",          // your tables on this phone (static/mytables.js)
    players: "paiju.usual-players",       // the usual players (static/players.js)
    offlineEngine: "paiju-offline-engine" // offline mode and what it downloaded (static/offline-engine.js)
  };

  function read(name, fallback) {
    try {
      var value = JSON.parse(localStorage.getItem(KEYS[name]));
      return value === null || value === undefined ? fallback : value;
    } catch (e) {
      return fallback;
    }
  }

  function write(name, value) {
    try {
      localStorage.setItem(KEYS[name], JSON.stringify(value));
      return true;
    } catch (e) {
      return false;
    }
  }

  function remove(name) {
    try { localStorage.removeItem(KEYS[name]); } catch (e) { /* nothing kept */ }
  }

  /* what the server is told by a cookie (its pages then bring the scripts the phone needs, issue 42); static/pwa.js
     reads "holding" by its name where this file is not loaded */
  var FLAGS = {
    offlineMode: "paiju_offline",  // offline mode is on (static/offline-engine.js)
    holding: "paiju_held"          // this phone holds hands not yet recorded (static/outbox.js)
  };

  function flag(name, on) {
    document.cookie = FLAGS[name] + "=" + (on ? "1; Max-Age=31536000" : "; Max-Age=0") + "; Path=/; SameSite=Lax" +
      (location.protocol === "https:" ? "; Secure" : "");
  }

  window.PaijuStorage = {read: read, write: write, remove: remove, flag: flag};
})();
