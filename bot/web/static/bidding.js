// Preferans's ladder (P4): a row a level, the strains across (♠ ♣ ♦ ♥, no trumps), the bids the
// player may say enabled; the levels under the lowest he may say are left out (no bid goes
// down). Pass, misère and "here" stay the dock's own buttons.

import { el, press, words } from "./shared.js";

export function ladderNode(rungs) {
  const lowest = Math.min(...rungs.filter((r) => r.press).map((r) => r.level));
  const grid = el("div", "ladder");
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", words.ladder || "");
  for (const r of rungs) {
    if (r.level < lowest) continue;
    const red = r.strain === "H" || r.strain === "D";
    const button = el("button", "rung" + (red ? " red" : ""), r.label);
    button.type = "button";
    button.dataset.bid = r.level + r.strain;
    button.dataset.suit = r.strain;
    if (r.press) {
      button.dataset.press = r.press;
      button.addEventListener("click", () => press(r.press));
    } else button.disabled = true;
    grid.append(button);
  }
  return grid;
}
