// Live standings: the server sends the live part of the page again after each change
// (server-sent events); it is swapped in place, without a reload. The stream starts from the
// state the page was rendered from, so its first event is a real change.
//
// When the updates stop (the arena that served the page stopped, or the page refused one
// more live viewer), the page says so above the standings: what it shows is as of then.
"use strict";
(function () {
  const live = document.getElementById("live");
  const over = ["finished", "cancelled"];
  if (!live || over.includes(live.dataset.status) || !window.EventSource) return;
  const note = document.getElementById("live-note");
  const state = document.getElementById("live-state");
  let source = null;
  let since = null;

  function stopped(text) {
    live.dataset.live = "stopped";
    if (!state) return;
    const at = since ? " The standings below are as of " + since + "." : "";
    state.textContent = "Live updates stopped: " + text + at;
    state.hidden = false;
  }

  function resumed() {
    live.dataset.live = "on";
    if (state) state.hidden = true;
  }

  function why() {
    // EventSource hides an HTTP error's reason: ask again to read it (the limits on live
    // viewers answer 429 or 503 with one line).
    fetch(live.dataset.events, { cache: "no-store" }).then(function (response) {
      if (response.ok) {  // room again: listen anew
        if (response.body) response.body.cancel();
        listen();
        return;
      }
      const retry = Number(response.headers.get("retry-after")) || 30;
      const plain = (response.headers.get("content-type") || "").startsWith("text/plain");
      response.text().then(function (text) {
        const reason = plain ? text.trim() : "the page answered HTTP " + response.status + ".";
        stopped(reason + " Trying again in " + retry + " s.");
      });
      window.setTimeout(listen, retry * 1000);
    }, function () {
      stopped("the arena's page does not answer (it may have stopped); trying again.");
      window.setTimeout(listen, 5000);
    });
  }

  function listen() {
    since = since || new Date().toLocaleTimeString();
    source = new EventSource(live.dataset.events);
    source.addEventListener("open", resumed);
    source.addEventListener("standings", function (event) {
      live.innerHTML = event.data;
      live.dataset.updated = String(Date.now());
      since = new Date().toLocaleTimeString();
      resumed();
      const progress = document.getElementById("progress-text");
      if (note && progress) note.textContent = "Updated: " + progress.textContent;
    });
    source.addEventListener("finished", function (event) {
      live.dataset.status = event.data;
      live.dataset.live = "over";
      if (state) state.hidden = true;
      if (note) note.textContent = "The tournament is " + event.data + ".";
      source.close();
    });
    source.addEventListener("error", function () {
      if (live.dataset.live === "over") return;
      if (source.readyState === EventSource.CLOSED) {  // an HTTP error: it will not retry
        why();
      } else {  // the connection dropped: the browser tries again by itself
        stopped("the arena's page does not answer (it may have stopped); trying again.");
      }
    });
  }

  listen();
})();
