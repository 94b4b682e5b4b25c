// The review of a finished deal (docs/playing.md "The review"). The result's "Review" asks the
// server for the deal's double-dummy review and steps through it card by card: the hands as
// dealt less the cards played, the trick, and the mover's legal cards each with the tricks his
// side ends with if it is played (the one played marked with what it gave away, the best ones
// marked best).

import { cardNode, cardsRow, handsNodes } from "./cards.js";
import { authorized, base, el, haptic, notice, words } from "./shared.js";
import { closeButton, openSub } from "./telegram.js";

let review = null; // {data, at}: the review shown and the card it stands at

// The result's "Review" button.
export function reviewButton(dealId) {
  const button = el("button", "tool review-open", words.review || "🔍");
  button.type = "button";
  button.dataset.deal = String(dealId);
  button.addEventListener("click", () => openReview(dealId));
  return button;
}

export async function openReview(dealId) {
  const url = new URL("api/review", base);
  url.searchParams.set("deal", String(dealId));
  const response = await fetch(url.href, { headers: authorized() });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) { notice(body.text || body.title || ""); return; }
  review = { data: body, at: 0 };
  drawReview();
  openSub("review");
}

function reviewGo(at) {
  review.at = Math.max(0, Math.min(at, review.data.steps.length - 1));
  haptic("impact", "light");
  drawReview();
}

function drawReview() {
  const box = document.getElementById("review");
  const { data, at } = review;
  const w = data.words;
  const faces = new Map();
  for (const s of data.hands.seats) for (const c of s.cards) faces.set(c.code, c);
  for (const c of data.hands.talon) faces.set(c.code, c);
  box.dataset.at = String(at);
  const nodes = [el("h2", null, w.title)];
  if (!data.steps.length) {
    if (data.only) nodes.push(el("p", "hint", data.only));
    nodes.push(...handsNodes(data.hands, words.talon, w.discard), closeButton());
    box.replaceChildren(...nodes);
    return;
  }
  const step = data.steps[at];
  const played = new Set(data.steps.slice(0, at).map((s) => s.card));
  const tricks = el("div", "review-tricks");
  const last = data.steps[data.steps.length - 1].trick;
  for (let n = 1; n <= last; n++) {
    const jump = el("button", "tool" + (n === step.trick ? " now" : ""), String(n));
    jump.type = "button";
    jump.dataset.trick = String(n);
    jump.setAttribute("aria-label", w.trick.replace("{n}", n));
    jump.addEventListener("click", () => reviewGo(data.steps.findIndex((s) => s.trick === n)));
    tricks.append(jump);
  }
  nodes.push(...summaryNodes(data, faces), tricks, el("p", "head", w.trick.replace("{n}", step.trick)));
  const values = new Map(step.values);
  const discard = new Set(data.hands.discard.map((c) => c.code));
  for (const s of data.hands.seats) {
    const line = el("div", "hand-line" + (s.seat === step.seat ? " mover" : ""));
    line.append(el("span", "name", s.name));
    const row = el("div", "cards");
    // a declarer who discarded took the talon: he plays from his cards and it less the discard
    const took = s.seat === data.declarer && discard.size;
    const cards = took ? [...s.cards, ...data.hands.talon].filter((c) => !discard.has(c.code)) : s.cards;
    for (const c of cards) {
      if (played.has(c.code)) continue;
      if (s.seat !== step.seat || !values.has(c.code)) { row.append(cardNode(c, "mini")); continue; }
      const cell = el("figure", "weighed");
      const label = [w.tricks[values.get(c.code)] || String(values.get(c.code))];
      if (step.best.includes(c.code)) { cell.classList.add("best"); label.push(w.best); }
      if (c.code === step.card) {
        cell.classList.add("played");
        if (step.cost) label.push(w.cost.replace("{n}", step.cost));
      }
      const caption = el("figcaption");
      caption.append(...label.map((line) => el("span", null, line)));
      cell.append(cardNode(c, "mini"), caption);
      row.append(cell);
    }
    line.append(row);
    nodes.push(line);
  }
  const trick = data.steps.slice(0, at).filter((s) => s.trick === step.trick);
  if (trick.length) {
    nodes.push(cardsRow(trick.map((s) => faces.get(s.card)), "mini", "review-trick"));
  }
  const nav = el("div", "review-nav");
  for (const [word, to, dir] of [[w.back, at - 1, "back"], [w.forward, at + 1, "forward"]]) {
    const button = el("button", "tool", word);
    button.type = "button";
    button.dataset.go = dir;
    button.disabled = to < 0 || to >= data.steps.length;
    button.addEventListener("click", () => reviewGo(to));
    nav.append(button);
  }
  nodes.push(nav, el("p", "hint", w.legend), closeButton());
  box.replaceChildren(...nodes);
}

// What each player gave away over the deal, and his costliest card: the review's summary.
function summaryNodes(data, faces) {
  const w = data.words;
  const list = el("ul", "review-summary");
  for (const s of data.hands.seats) {
    const mine = data.steps.filter((step) => step.seat === s.seat);
    const lost = mine.reduce((sum, step) => sum + (step.cost || 0), 0);
    const worst = mine.reduce((a, b) => ((b.cost || 0) > (a ? a.cost || 0 : 0) ? b : a), null);
    const text = lost && worst
      ? w.summary.replace("{name}", s.name).replace("{n}", lost)
        .replace("{card}", faces.get(worst.card).label).replace("{trick}", worst.trick)
      : w.clean.replace("{name}", s.name);
    list.append(el("li", lost ? "lost" : "clean", text));
  }
  return [list];
}
