// Live standings: the server sends the live part of the page again after each change
// (server-sent events); it is swapped in place, without a reload.
"use strict";
(function () {
  const live = document.getElementById("live");
  if (!live || live.dataset.status === "finished" || !window.EventSource) return;
  const note = document.getElementById("live-note");
  const source = new EventSource(live.dataset.events);
  let first = true;
  source.addEventListener("standings", function (event) {
    live.innerHTML = event.data;
    live.dataset.updated = String(Date.now());
    const progress = document.getElementById("progress-text");
    if (!first && note && progress) note.textContent = "Updated: " + progress.textContent;
    first = false;
  });
  source.addEventListener("finished", function () {
    live.dataset.status = "finished";
    if (note) note.textContent = "The tournament is finished.";
    source.close();
  });
})();
