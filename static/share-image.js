/* The night as a picture (结账): draws the evening — game and house rules, date, each player's total and money,
   who pays whom, the totals as bars and the QR code of the read-only table — on a canvas at phone width with
   the phone's own fonts (nothing is downloaded), as a PNG that also carries the same words as text (an iTXt
   "Description" chunk, for screen readers and search). It goes to the phone's share sheet where the browser
   can share files, else it is downloaded. The data is the button's data-picture JSON. No inline script. */
(function () {
  "use strict";
  var WIDTH = 360, SCALE = 2, PAD = 16;
  var FONT = "system-ui, -apple-system, 'PingFang SC', 'Noto Sans CJK SC', 'Microsoft YaHei', sans-serif";
  var INK = "#1b1b1b", MUTED = "#5f5f5f", PLUS = "#1e7a3d", MINUS = "#b3261e", LINE = "#dddddd";

  function signed(n) { return n > 0 ? "+" + n : (n < 0 ? "−" + (-n) : "0"); }
  function minus(amount) { return amount.charAt(0) === "-" ? "−" + amount.slice(1) : amount; }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, k) { return values[k]; });
  }

  /* Lines of text that fit ``width``, breaking anywhere (Chinese has no spaces to break at). */
  function wrap(ctx, text, width) {
    var lines = [], line = "";
    Array.from(text).forEach(function (ch) {
      if (ctx.measureText(line + ch).width > width && line) { lines.push(line); line = ch.trim() ? ch : ""; }
      else line += ch;
    });
    if (line) lines.push(line);
    return lines;
  }

  /* Draw (when ``ctx`` draws) or only measure: returns the height used. */
  function layout(ctx, data, draw) {
    var y = PAD, inner = WIDTH - 2 * PAD;
    function text(words, size, colour, weight, x, align) {
      ctx.font = (weight || "400") + " " + size + "px " + FONT;
      var lines = wrap(ctx, words, inner - (x || 0));
      lines.forEach(function (l) {
        y += size * 1.35;
        if (draw) { ctx.fillStyle = colour; ctx.textAlign = align || "left";
          ctx.fillText(l, align === "right" ? WIDTH - PAD : PAD + (x || 0), y - size * 0.3); }
      });
    }
    function rule() { y += 8; if (draw) { ctx.fillStyle = LINE; ctx.fillRect(PAD, y, inner, 1); } y += 4; }
    text(data.title, 20, INK, "700");
    text(data.date + " · " + data.summary, 14, MUTED);
    if (data.rules) text(data.rules, 12, MUTED);
    (data.changes || []).forEach(function (line) { text(line, 12, INK, "600"); });  // 第3局起：炸弹分 10
    rule();
    var top = Math.max.apply(null, data.players.map(function (p) { return Math.abs(p.total); }).concat([1]));
    data.players.forEach(function (p) {
      var rowTop = y;
      text(p.name, 16, INK, "600");
      var right = signed(p.total) + (p.money ? "  " + fill(data.words.money, { m: minus(p.money) }) : "");
      if (draw) {
        ctx.font = "600 16px " + FONT; ctx.textAlign = "right";
        ctx.fillStyle = p.total > 0 ? PLUS : (p.total < 0 ? MINUS : INK);
        ctx.fillText(right, WIDTH - PAD, rowTop + 16 * 1.35 - 16 * 0.3);
        var half = inner / 2, w = half * Math.abs(p.total) / top;  // the totals as bars about a middle line
        ctx.fillRect(p.total >= 0 ? PAD + half : PAD + half - w, y + 3, w, 8);
        ctx.fillStyle = LINE; ctx.fillRect(PAD + half, y + 1, 1, 12);
      }
      y += 16;
    });
    rule();
    text(data.words.transfers, 15, INK, "700");
    if (!data.transfers.length) text(data.words.nobody, 14, INK);
    data.transfers.forEach(function (t) {
      text(t.payer + " → " + t.payee + "  " + fill(data.words.money, { m: t.amount }) + " · " +
           fill(data.words.points, { p: t.points }), 15, INK);
    });
    rule();
    var size = data.qr.length, cell = Math.floor(120 / size) || 1, side = cell * size;
    if (draw) {
      ctx.fillStyle = "#ffffff"; ctx.fillRect(PAD, y + 4, side + 8, side + 8);
      ctx.fillStyle = "#000000";
      data.qr.forEach(function (row, r) {
        Array.from(row).forEach(function (bit, c) {
          if (bit === "1") ctx.fillRect(PAD + 4 + c * cell, y + 8 + r * cell, cell, cell);
        });
      });
    }
    var qrTop = y;
    y += 8;
    ctx.font = "400 13px " + FONT;
    if (draw) { ctx.fillStyle = MUTED; ctx.textAlign = "left"; }
    var captionX = side + 20;
    wrap(ctx, data.words.scan, inner - captionX).forEach(function (l, i) {
      if (draw) ctx.fillText(l, PAD + captionX, qrTop + 24 + i * 18);
    });
    y = qrTop + side + 16 + PAD;
    return y;
  }

  function draw(data) {
    var canvas = document.createElement("canvas");
    var height = layout(canvas.getContext("2d"), data, false);
    canvas.width = WIDTH * SCALE;
    canvas.height = Math.ceil(height * SCALE);
    var ctx = canvas.getContext("2d");
    ctx.scale(SCALE, SCALE);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, WIDTH, height);
    layout(ctx, data, true);
    return canvas;
  }

  /* --- a PNG with its words: an iTXt chunk after IHDR ------------------------------------------------ */
  var CRC_TABLE = (function () {
    var table = [];
    for (var n = 0; n < 256; n++) {
      var c = n;
      for (var k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
    return table;
  })();

  function crc32(bytes) {
    var c = 0xffffffff;
    for (var i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  }

  function itxt(keyword, words) {
    var enc = new TextEncoder();
    var body = [].concat(Array.from(enc.encode(keyword)), [0, 0, 0, 0, 0], Array.from(enc.encode(words)));
    var chunk = new Uint8Array(12 + body.length), view = new DataView(chunk.buffer);
    view.setUint32(0, body.length);
    chunk.set(enc.encode("iTXt"), 4);
    chunk.set(body, 8);
    view.setUint32(8 + body.length, crc32(chunk.subarray(4, 8 + body.length)));
    return chunk;
  }

  function withWords(png, words) {
    var head = 8 + 25;  // the signature, then IHDR (4 length + 4 type + 13 data + 4 CRC)
    var extra = itxt("Description", words);
    var out = new Uint8Array(png.length + extra.length);
    out.set(png.subarray(0, head), 0);
    out.set(extra, head);
    out.set(png.subarray(head), head + extra.length);
    return out;
  }

  function pictureOf(data, words) {
    return new Promise(function (resolve) {
      draw(data).toBlob(function (blob) {
        blob.arrayBuffer().then(function (buf) {
          resolve(new File([withWords(new Uint8Array(buf), words)], data.file, { type: "image/png" }));
        });
      }, "image/png");
    });
  }

  function say(button, message) {
    var status = button.parentNode.querySelector(".picture-status");
    if (status) status.textContent = message;
  }

  function download(file) {
    var link = document.createElement("a");
    link.href = URL.createObjectURL(file);
    link.download = file.name;
    document.body.appendChild(link);
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.querySelector("button.share-picture[data-picture]");
    var words = document.getElementById("share-text");
    if (!button || !window.HTMLCanvasElement || !window.TextEncoder) return;
    var data = JSON.parse(button.getAttribute("data-picture"));
    button.hidden = false;
    button.addEventListener("click", function () {
      pictureOf(data, words ? words.value : "").then(function (file) {
        if (navigator.canShare && navigator.share && navigator.canShare({ files: [file] })) {
          return navigator.share({ files: [file], title: data.title }).then(function () {
            say(button, button.getAttribute("data-shared"));
          }, function () { /* the player closed the share sheet */ });
        }
        download(file);
        say(button, button.getAttribute("data-saved"));
      });
    });
  });
})();
