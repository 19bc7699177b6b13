// Keeps the projector page current: about once a second it asks the host for the page's
// changing part (at the address in the live element's data-src) and swaps it in when it changed, so a vote or a reveal shows without a reload.
// A refused login (the host restarted with a new key) reloads the page, which then shows the
// login form; a host that does not answer is asked again a second later.
"use strict";
(function () {
  const PERIOD_MS = 1000;
  let shown = null;
  async function refresh() {
    try {
      const live = document.getElementById("live");
      const answer = await fetch(live.dataset.src, { cache: "no-store" });
      if (answer.status === 401 || answer.status === 403) {
        location.reload();
        return;
      }
      if (answer.ok) {
        const { html } = await answer.json();
        if (typeof html === "string" && html !== shown) {
          live.innerHTML = html;
          shown = html;
        }
      }
    } catch (_) {
      // Unreachable for now (a restart, the network): the next round tries again.
    }
    setTimeout(refresh, PERIOD_MS);
  }
  refresh();
})();
