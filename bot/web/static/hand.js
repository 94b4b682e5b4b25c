// The dock under the felt: the question put to the player, his hand fanned (the cards to play
// raised, the rest dimmed), his discards, the auction's bids and his choices.

import { ladderNode } from "./bidding.js";
import { cardsRow, dimUnplayable } from "./cards.js";
import { el, saidNode, state, wordButton, words } from "./shared.js";
import { discardsByTalon } from "./table.js";

export function drawDock(dock, deal) {
  if (deal.question) dock.append(saidNode("p", "question", deal.question));
  if (deal.hidden) dock.append(el("p", "hint", words.hidden + " ×" + deal.hidden));
  if (deal.hand && deal.hand.length) {
    const row = cardsRow(deal.hand, "", "hand", true);
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", words.hand || "");
    row.style.setProperty("--n", String(deal.hand.length));
    // P7: a whister who plays the passer's open hand sees his own dimmed
    dimUnplayable(row, deal.hand);
    dock.append(row);
  }
  if (deal.discards && deal.discards.length && !discardsByTalon(deal)) {
    const row = el("div", "row");
    row.append(el("span", "hint", words.discards), cardsRow(deal.discards, "mini"));
    dock.append(row);
  }
  if (deal.ladder && deal.ladder.length) dock.append(ladderNode(deal.ladder));
  const choices = (deal.choices || []).filter((c) => c.press !== state.mainPress);
  if (choices.length) {
    const row = el("div", "row actions");
    for (const b of choices) row.append(wordButton(b));
    dock.append(row);
  }
}

// The table's own choices (the lobby's buttons, the next deal), but the one on Telegram's main
// button.
export function drawChoices(dock) {
  for (const row of state.view.choices || []) {
    const choices = row.filter((c) => c.press !== state.mainPress);
    if (!choices.length) continue;
    const line = el("div", "row actions");
    for (const c of choices) line.append(wordButton(c, "table"));
    dock.append(line);
  }
}
