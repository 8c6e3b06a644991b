// The phone page: follows the table by Server-Sent Events, says when it is out of date, and
// sends the table's corrections with its PIN. Plain JavaScript, served by the Pi: no build step.
"use strict";
(function () {
  const STALE_MS = 12000;  // three missed heartbeats (the server says it is alive every 5 s)
  const live = document.getElementById("live");
  const lang = document.documentElement.lang;
  const query = new URLSearchParams(location.search).get("lang");
  let heard = Date.now();
  let since = live ? live.dataset.since : "";
  let source = null;
  let retry = 1000;

  function clock(ms) {
    return new Date(ms).toLocaleTimeString(lang, {hour: "2-digit", minute: "2-digit", second: "2-digit"});
  }

  let skew = 0;  // the Pi's clock minus this phone's: an age is reckoned on the Pi's clock
  let streaming = true;

  function setLive(ok) {
    streaming = ok;
    refresh();
  }

  // "Live" only while news can come: the stream is heard, and an event's part (the event's
  // page, or the event below a table's game) still hears the event. Each event's part says
  // how old its newest news is.
  function refresh() {
    if (!live) return;
    const now = Date.now() + skew;
    for (const news of document.querySelectorAll("[data-news]")) {
      const ago = news.querySelector(".news .ago");
      const line = news.querySelector(".news");
      if (ago && line) {
        const minutes = Math.floor((now - Number(news.dataset.news)) / 60000);
        ago.textContent = " · " + (minutes < 1 ? line.dataset.just : line.dataset.ago.replace("{minutes}", minutes));
      }
      const part = news.closest(".part");
      if (part) part.classList.toggle("stale", news.dataset.linked === "no");
    }
    const unheard = document.querySelector('#part-event [data-linked="no"]');
    const page = !document.getElementById("part-table");  // the event's own page
    const ok = streaming && !(page && unheard);
    document.body.classList.toggle("stale", !streaming);
    live.classList.toggle("stale", !ok);
    live.textContent = ok ? live.dataset.live
      : streaming ? live.dataset.unheard.replace("{time}", unheard.dataset.since)
      : live.dataset.stale.replace("{time}", since);
  }

  function apply(message) {
    for (const [part, html] of Object.entries(message.html)) {
      const box = document.getElementById("part-" + part);
      if (!box) continue;
      box.innerHTML = html;  // rendered and escaped by the Pi's templates
      box.dataset.at = String(message.at[part]);
      if (part === "event") {  // the table joined an event after the page was loaded
        box.hidden = !html;
        for (const id of ["event-head", "event-link"]) {
          const other = document.getElementById(id);
          if (other) other.hidden = !html;
        }
      }
    }
    wire();
  }

  function connect() {
    if (!live) return;
    source = new EventSource("/events" + (query ? "?lang=" + encodeURIComponent(query) : ""));
    source.addEventListener("parts", (e) => {
      heard = Date.now(); since = clock(heard); retry = 1000;
      const message = JSON.parse(e.data);
      skew = message.now - heard;
      apply(message); setLive(true);
    });
    source.addEventListener("alive", (e) => {
      heard = Date.now(); since = clock(heard); retry = 1000;
      skew = JSON.parse(e.data).now - heard;
      setLive(true);
    });
    source.addEventListener("error", () => {
      setLive(false);
      if (source.readyState === EventSource.CLOSED) {  // the browser gave up: try again ourselves
        source.close();
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 10000);
      }
    });
  }

  setInterval(() => {
    if (!live) return;
    refresh();
    if (Date.now() - heard > STALE_MS) {
      setLive(false);
      if (source && Date.now() - heard > 3 * STALE_MS) { source.close(); heard = Date.now() - STALE_MS; connect(); }
    }
  }, 1000);

  // Corrections: the PIN from the table's scoreboard, typed once for a short session (its
  // cookie is HttpOnly: this script never sees it), then one token per correction, each answer
  // bringing the next. The PIN is never kept.
  const dialog = document.getElementById("fix");
  const answer = document.getElementById("fix-answer");
  const pinField = document.getElementById("pin-field");
  let editing = null;
  let token = null;

  function seats() {
    return Array.from(document.querySelectorAll(".history thead th[scope=col]")).slice(1)
      .map((th) => th.textContent.trim());
  }

  async function post(path, body) {
    const reply = await fetch(path, {method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "Accept-Language": lang},
      body: JSON.stringify(body)});
    return {status: reply.status, result: await reply.json()};
  }

  function askPin(ask) {
    pinField.hidden = !ask;
    if (ask) { token = null; document.getElementById("pin").focus(); }
  }

  async function fresh() {  // a session already open (within ten minutes): no PIN to type
    try {
      const {status, result} = await post("/api/token", {});
      if (status === 200) { token = result.token; askPin(false); return; }
    } catch (error) { /* the PIN is asked for */ }
    askPin(true);
  }

  function open(round) {
    if (!dialog) return;
    document.getElementById("pin").value = "";
    answer.textContent = ""; answer.className = "answer";
    const fields = document.getElementById("edit-fields");
    editing = round;
    fields.hidden = round === null;
    document.getElementById("fix-save").hidden = round === null;
    document.getElementById("fix-undo").hidden = round !== null;
    if (round !== null) {
      const row = document.querySelector(`.history tr[data-round="${round}"]`);
      const names = seats();
      const held = row.dataset.held.split(",").map(Number);
      const title = document.getElementById("edit-title");
      title.textContent = title.dataset.title.replace("{number}", round);
      const select = document.getElementById("went-out");
      select.replaceChildren(...names.map((n) => new Option(n, n, false, n === row.dataset.wentOut)));
      const box = document.getElementById("held");
      box.replaceChildren(...names.map((n, i) => {
        const label = document.createElement("label");
        // the name isolated (FSI ... PDI): its writing direction stays its own
        label.textContent = box.dataset.label.replace("{name}", "\u2068" + n + "\u2069");
        const input = document.createElement("input");
        input.type = "number"; input.min = "0"; input.max = "999"; input.inputMode = "numeric";
        input.name = n; input.value = String(held[i] || 0);
        label.append(input);
        return label;
      }));
    }
    if (token === null) fresh(); else askPin(false);
    dialog.showModal();
  }

  function say(result, ok) {
    answer.textContent = result.message;
    answer.className = "answer" + (ok ? "" : " refused");
  }

  async function send(path, body) {
    answer.textContent = "…"; answer.className = "answer";
    try {
      if (token === null) {
        const typed = await post("/api/login", {pin: document.getElementById("pin").value.trim()});
        if (typed.status !== 200) { say(typed.result, false); return; }
        token = typed.result.token;
        askPin(false);
      }
      const {status, result} = await post(path, Object.assign({token: token}, body));
      token = result.token || null;
      say(result, result.ok);
      if (status === 401) askPin(true);
      if (result.ok) setTimeout(() => dialog.close(), 1200);
    } catch (error) {
      answer.textContent = live ? live.dataset.stale.replace("{time}", since) : String(error);
      answer.className = "answer refused";
    }
  }

  if (dialog) {
    document.getElementById("fix-undo").addEventListener("click", () => send("/api/undo", {}));
    document.getElementById("fix-save").addEventListener("click", () => {
      const held = {};
      const out = document.getElementById("went-out").value;
      for (const input of document.querySelectorAll("#held input")) {
        if (input.name !== out) held[input.name] = Number(input.value || 0);
      }
      send("/api/edit", {round: editing, went_out: out, held: held});
    });
    document.getElementById("fix-cancel").addEventListener("click", () => dialog.close());
  }

  // Final standings a phone can keep: a picture drawn with the phone's own fonts.
  function picture() {
    const rows = Array.from(document.querySelectorAll("#standings [data-name]"));
    const title = document.querySelector(".over, .facts .round, main h2");
    const scale = 2, width = 540, line = 56, top = 96;
    const canvas = document.createElement("canvas");
    canvas.width = width * scale; canvas.height = (top + rows.length * line + 40) * scale;
    const g = canvas.getContext("2d");
    g.scale(scale, scale);
    g.fillStyle = "#12161e"; g.fillRect(0, 0, width, canvas.height / scale);
    g.fillStyle = "#ffc400"; g.font = "bold 28px system-ui, sans-serif";
    g.fillText("UNO Showdown", 24, 44);
    g.fillStyle = "#a0a8b9"; g.font = "18px system-ui, sans-serif";
    // the title isolated (FSI ... PDI), so the date after it keeps its own direction
    g.fillText("\u2068" + (title ? title.textContent.trim() : "") + "\u2069 · " + new Date().toLocaleDateString(lang), 24, 74);
    rows.forEach((row, i) => {
      const y = top + i * line;
      g.fillStyle = "#222836"; g.fillRect(16, y, width - 32, line - 8);
      g.fillStyle = row.dataset.colour; g.fillRect(16, y, 10, line - 8);
      g.fillStyle = "#f0f0eb"; g.font = "bold 22px system-ui, sans-serif";
      g.fillText(row.dataset.place + ".", 36, y + 32);
      g.font = "22px system-ui, sans-serif";
      g.fillText(row.dataset.name, 80, y + 32, width - 220);
      g.font = "bold 26px system-ui, sans-serif"; g.textAlign = "right";
      g.fillText(row.dataset.total, width - 32, y + 33); g.textAlign = "left";
    });
    return canvas;
  }

  function save() {
    picture().toBlob(async (blob) => {
      const file = new File([blob], "uno-showdown-standings.png", {type: "image/png"});
      if (navigator.canShare && navigator.canShare({files: [file]})) {
        try { await navigator.share({files: [file]}); return; } catch (e) { /* fall back to a download */ }
      }
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob); link.download = file.name;
      document.body.append(link); link.click(); link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    }, "image/png");
  }

  // Buttons inside the live parts are new after every update: wire them again.
  function wire() {
    for (const b of document.querySelectorAll("button.save-png")) b.onclick = save;
    for (const b of document.querySelectorAll("button.print")) b.onclick = () => window.print();
    for (const b of document.querySelectorAll("button.undo")) b.onclick = () => open(null);
    for (const b of document.querySelectorAll("button.edit")) b.onclick = () => open(Number(b.dataset.round));
  }

  wire();
  refresh();
  connect();
})();
