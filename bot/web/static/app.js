// The table as a Telegram Mini App, its entry module. Every text goes in as text (textContent),
// never as HTML; every action is a real <button> whose press is the chat button's callback
// data, sent by the same path as a chat press (shared.js's `press`). The page follows its table
// all evening: the lobby, the deals, the results and the next deal, and the table the chat
// opens after this one closes. Each area draws from the view it is given, in a module of its
// own (no build step): table, hand, bidding, lobby, result, review, sheet, connection, and
// telegram (the client around the page), cards and shared under them.

import { loadDeck } from "./cards.js";
import { open, refuse, show } from "./connection.js";
import { drawChoices, drawDock } from "./hand.js";
import { drawLobby } from "./lobby.js";
import { drawLastDeal, drawResult, reviewAction } from "./result.js";
import { refreshReview } from "./review.js";
import { haptic, notice, page, state, words } from "./shared.js";
import { drawSheet } from "./sheet.js";
import { announce, drawTable, motion, setClock, tick } from "./table.js";
import { greet, primaryChoice, setMain, setSecondary, swipes, theme } from "./telegram.js";

// the view shown, where a test (or a curious reader in the console) looks for it
Object.defineProperty(window, "view", { get: () => state.view, configurable: true });

let myMove = false;

function render() {
  const view = state.view;
  document.body.dataset.step = String(view.deal_no || 0) + ":" + String(view.step || 0);
  document.body.dataset.phase = (view.deal && view.deal.phase) || view.status || "";
  document.documentElement.lang = view.lang || "en";
  const deal = view.deal;
  const seats = document.getElementById("seats");
  const result = document.getElementById("result");
  const dock = document.getElementById("dock");
  for (const box of [seats, result, dock]) box.replaceChildren();
  seats.className = "";
  seats.setAttribute("aria-label", words.table || "");
  const name = [view.game, view.chat].filter(Boolean).join(" · ");
  document.getElementById("title").textContent =
    name + (view.deal_no && words.deal ? " · " + words.deal.replace("{n}", view.deal_no) : "");
  setClock(view);
  const moving = Boolean(deal && deal.seats && view.seat !== null && view.seat !== undefined &&
    deal.mover === view.seat && !deal.finished);
  if (moving && !myMove) haptic("notification", "success");
  myMove = moving;
  document.title = (moving ? "● " + (words.your_move || "") + " · " : "") + (view.game || "🃏");
  announce(deal, moving);
  tick();
  result.hidden = true;
  setMain(primaryChoice());
  setSecondary(view.status === "closed" ? null : reviewAction(deal));
  refreshReview();
  swipes(Boolean(deal && deal.seats && !deal.finished));
  if (view.status === "closed") { notice(words.closed); drawChoices(dock); return; }
  if (view.status === "lobby" || !deal || !deal.seats) {
    notice(words.lobby);
    drawLobby(seats);
    drawChoices(dock);
    return;
  }
  notice(view.seat === null ? words.watching : "");
  drawTable(seats, deal);
  // a finished deal's result: a sheet over the felt; once the next deal is dealt (a pulya
  // deals it at once) it is folded away to the felt's "Result" button (#lastdeal)
  if (deal.result && deal.finished) drawResult(result, deal);
  drawLastDeal(deal);
  drawDock(dock, deal);
  drawChoices(dock);
  if (deal.sheet) drawSheet(deal);
  motion(deal);
}

Object.assign(page, { render, show, refuse });

theme();
loadDeck();
greet();
open();
