// The replay viewer: steps through a finished deal of any game, one action or one trick at a
// time, with the buttons or the keyboard (arrows, Shift+arrows, Home, End). The steps are
// computed on the server by the game's rules and drawn as its display says; this only draws.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const steps = data.viewer.steps;
  const faces = data.faces;
  const names = data.names;
  const last = steps.length - 1;
  const board = document.getElementById("board");
  const caption = document.getElementById("caption");
  const count = document.getElementById("step-count");
  const trickBox = document.getElementById("trick");
  const rows = document.querySelectorAll("#log tbody tr");
  let current = 0;

  function card(id) {
    const f = faces[id];
    const span = document.createElement("span");
    span.className = "card " + f[2];
    span.textContent = f[0];
    span.title = f[1];
    span.setAttribute("role", "img");
    span.setAttribute("aria-label", f[1]);
    return span;
  }

  function seconds(s) {
    if (s === null || s === undefined) return "";
    if (s < 0.001) return (s * 1e6).toFixed(0) + " µs";
    return s < 1 ? (s * 1000).toFixed(1) + " ms" : s.toFixed(2) + " s";
  }

  function show(i) {
    current = Math.max(0, Math.min(last, i));
    const step = steps[current];
    step.hands.forEach(function (hand, seat) {
      const box = document.querySelector("#seat-" + seat + " .hand");
      if (!box) return;
      const wrap = document.createElement("span");
      wrap.className = "cards";
      hand.forEach(function (c) { wrap.appendChild(card(c)); });
      box.replaceChildren(wrap);
      const won = document.querySelector("#seat-" + seat + " .won");
      won.textContent = step.won[seat] ? step.won[seat] + " trick" + (step.won[seat] > 1 ? "s" : "") : "";
      const seatBox = document.getElementById("seat-" + seat);
      seatBox.classList.toggle("acting", step.seat === seat);
    });
    trickBox.replaceChildren();
    step.trick.forEach(function (pair) {
      const slot = document.createElement("span");
      slot.className = "played at" + pair[0] + (step.winner === pair[0] ? " winner" : "");
      const who = document.createElement("small");
      who.textContent = names[pair[0]];
      slot.appendChild(card(pair[1]));
      slot.appendChild(who);
      trickBox.appendChild(slot);
    });
    let text;
    if (step.seat === null) {
      text = "The deal: " + data.viewer.hands + " hands, dealer seat " + data.viewer.dealer + ".";
    } else {
      text = names[step.seat] + " (seat " + step.seat + ") " + step.text;
      if (step.seconds !== null) text += " in " + seconds(step.seconds);
      text += ".";
      if (step.completes) text += " Trick " + step.completes + " to " + names[step.winner] + ".";
      if (step.note) text += " " + step.note.charAt(0).toUpperCase() + step.note.slice(1) + ".";
      if (step.infraction) {
        text += " Infraction (" + step.infraction + "): the arena played its fallback";
        if (step.player !== null && step.player !== step.seat) text += ", charged to " + names[step.player];
        text += ". " + (step.reason || "");
      }
    }
    caption.textContent = text;
    caption.classList.toggle("infraction", Boolean(step.infraction));
    count.textContent = "step " + current + " of " + last + (step.tricks ? " · " + step.tricks + " trick" + (step.tricks > 1 ? "s" : "") + " played" : "");
    rows.forEach(function (row) {
      const on = Number(row.dataset.step) === current;
      row.classList.toggle("current", on);
      if (on) row.setAttribute("aria-current", "step"); else row.removeAttribute("aria-current");
    });
    board.dataset.step = String(current);
  }

  function trickEnd(from, direction) {
    // the next (or previous) step that completes a trick; the ends otherwise
    let i = from + direction;
    while (i > 0 && i < last && !steps[i].completes) i += direction;
    return i;
  }

  function go(where) {
    if (where === "start") show(0);
    else if (where === "end") show(last);
    else if (where === "next") show(current + 1);
    else if (where === "prev") show(current - 1);
    else if (where === "next-trick") show(trickEnd(current, 1));
    else if (where === "prev-trick") show(trickEnd(current, -1));
  }

  document.querySelectorAll("[data-go]").forEach(function (button) {
    button.addEventListener("click", function () { go(button.dataset.go); });
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = (event.target && event.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const keys = {ArrowRight: event.shiftKey ? "next-trick" : "next",
                  ArrowLeft: event.shiftKey ? "prev-trick" : "prev",
                  Home: "start", End: "end"};
    const where = keys[event.key];
    if (!where) return;
    event.preventDefault();
    go(where);
  });
  rows.forEach(function (row) {
    row.addEventListener("click", function () { show(Number(row.dataset.step)); });
  });
  const hash = /^#step-(\d+)$/.exec(window.location.hash);
  show(hash ? Number(hash[1]) : 0);
})();
