// A finished deal's result: a sheet over the felt's lower part, each player's line with its
// reasons and rating, every hand as dealt and the "Review"; and the last deal's result a tap
// away while the next deal is played (a pulya deals it at once).

import { handsNodes } from "./cards.js";
import { ratingNode } from "./lobby.js";
import { openReview, reviewButton } from "./review.js";
import { appendSaid, el, page, saidNode, state, words } from "./shared.js";
import { closeButton, hasSecondary } from "./telegram.js";

// `sheet`: the result over the felt, its "Review" on Telegram's secondary button if the client
// has one.
function resultNodes(deal, sheet) {
  const r = deal.result;
  const nodes = [el("h2", null, words.result), saidNode("p", "head", r.head)];
  const ratings = state.view.seat_ratings || [];
  for (const s of r.seats) {
    if (s.delta === null && !s.reasons.length) continue;
    const line = el("p", "line");
    line.append(el("b", null, s.name + (s.delta !== null ? " " + s.delta : "")));
    if (ratings[s.seat]) line.append(" ", ratingNode(ratings[s.seat]));
    s.reasons.forEach((reason, i) => {
      line.append(i ? " · " : ": ");
      appendSaid(line, reason);
    });
    if (s.total) line.append(" (" + words.chips + " " + s.total + ")");
    nodes.push(line);
  }
  if (r.foot) nodes.push(saidNode("p", "foot hint", r.foot));
  // every hand as dealt (where the chat shows them) and the "Review" button
  if (deal.hands) nodes.push(...handsNodes(deal.hands, words.talon, words.discard));
  if (deal.review && !(sheet && hasSecondary())) nodes.push(reviewButton(deal.review));
  return nodes;
}

// A finished deal's result: a sheet over the felt's lower part (folded to its head line by a
// tap on its handle, to look at the table). Beside the next deal (a pulya deals it at once)
// it is not laid out at all: the felt's "Result" button opens it (#lastdeal), the table kept
// to one screen.
let folded = null; // the deal whose result sheet the player folded

export function drawResult(result, deal) {
  result.hidden = false;
  const sheet = Boolean(deal.finished);
  const key = state.view.table + ":" + state.view.deal_no;
  result.className = sheet ? "sheet" + (folded === key ? " folded" : "") : "";
  if (sheet) {
    const handle = el("button", "handle", folded === key ? "▴" : "▾");
    handle.type = "button";
    handle.setAttribute("aria-expanded", String(folded !== key));
    handle.setAttribute("aria-label", words.result || "");
    handle.addEventListener("click", () => { folded = folded === key ? null : key; page.render(); });
    result.append(handle);
  }
  result.append(...resultNodes(deal, sheet));
}

export function drawLastDeal(deal) {
  const box = document.getElementById("lastdeal");
  if (!deal.result) { box.replaceChildren(); return; }
  box.replaceChildren(...resultNodes(deal, false), closeButton());
}

// Beside the next deal on Telegram's main button, the finished deal's review on its secondary
// button (the result drawn over the felt), or null.
export function reviewAction(deal) {
  if (!deal || !deal.seats || !deal.finished || !deal.result || !deal.review) return null;
  return { label: words.review || "🔍", run: () => openReview(deal.review) };
}
