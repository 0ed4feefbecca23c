// Live standings: the server sends the live part of the page again after each change
// (server-sent events); it is swapped in place, without a reload. The stream starts from the
// state the page was rendered from, so its first event is a real change.
"use strict";
(function () {
  const live = document.getElementById("live");
  if (!live || live.dataset.status === "finished" || !window.EventSource) return;
  const note = document.getElementById("live-note");
  const source = new EventSource(live.dataset.events);
  source.addEventListener("standings", function (event) {
    live.innerHTML = event.data;
    live.dataset.updated = String(Date.now());
    const progress = document.getElementById("progress-text");
    if (note && progress) note.textContent = "Updated: " + progress.textContent;
  });
  source.addEventListener("finished", function () {
    live.dataset.status = "finished";
    if (note) note.textContent = "The tournament is finished.";
    source.close();
  });
})();
