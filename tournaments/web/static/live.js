// Live standings: the server sends the live part of the page again after each change
// (server-sent events); it is swapped in place, without a reload. The stream starts from the
// state the page was rendered from, so its first event is a real change.
"use strict";
(function () {
  const live = document.getElementById("live");
  const over = ["finished", "cancelled"];
  if (!live || over.includes(live.dataset.status) || !window.EventSource) return;
  const note = document.getElementById("live-note");
  const source = new EventSource(live.dataset.events);
  source.addEventListener("standings", function (event) {
    live.innerHTML = event.data;
    live.dataset.updated = String(Date.now());
    const progress = document.getElementById("progress-text");
    if (note && progress) note.textContent = "Updated: " + progress.textContent;
  });
  source.addEventListener("finished", function (event) {
    live.dataset.status = event.data;
    if (note) note.textContent = "The tournament is " + event.data + ".";
    source.close();
  });
})();
