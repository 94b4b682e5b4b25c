// The review of a finished deal (docs/playing.md "The review"). The result's "Review" asks the
// server for the deal's double-dummy review and replays the deal on a felt, card by card: each
// seat's plate (the table's) with the cards it still holds, the trick so far laid toward the
// seats that played it, and the mover's legal cards each labelled with the tricks his side ends
// with if it is played (the one played marked with what it gave away, the best ones marked
// best). "Play again" closes it and takes the table's next step (the next deal, a new table).

import { cardNode, handsNodes } from "./cards.js";
import {
  authorized, base, el, haptic, notice, press, primaryOf, saidNode, state, words,
} from "./shared.js";
import { aim, lay, layOut, places, plate } from "./table.js";
import { closeButton, closeSub, openSub, subOpen } from "./telegram.js";

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
  openSub("review"); // drawn once open: its trick is laid toward the seats as they stand
  drawReview();
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
  const nodes = [el("h2", null, w.title), closeButton()];
  if (!data.steps.length) {
    if (data.only) nodes.push(saidNode("p", "hint", data.only));
    nodes.push(...handsNodes(data.hands, words.talon, w.discard), againNode());
    box.replaceChildren(...nodes);
    return;
  }
  const step = data.steps[at];
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
  const nav = el("div", "review-nav");
  for (const [word, to, dir] of [[w.back, at - 1, "back"], [w.forward, at + 1, "forward"]]) {
    const button = el("button", "tool", word);
    button.type = "button";
    button.dataset.go = dir;
    button.disabled = to < 0 || to >= data.steps.length;
    button.addEventListener("click", () => reviewGo(to));
    nav.append(button);
  }
  nav.append(againNode());
  const felt = el("div");
  nodes.push(tricks, felt, nav, ...summaryNodes(data, faces), el("p", "hint", w.legend));
  box.replaceChildren(...nodes);
  drawFelt(felt, data, at, faces);
}

// The deal at step `at` on a felt: the seats round it (the viewer's at the bottom, as at the
// table), each with the cards it still holds, the trick so far in the middle.
function drawFelt(felt, data, at, faces) {
  const w = data.words;
  const step = data.steps[at];
  const played = new Set(data.steps.slice(0, at).map((s) => s.card));
  const values = new Map(step.values);
  const discard = new Set(data.hands.discard.map((c) => c.code));
  const seats = data.hands.seats;
  const bySeat = new Map(seats.map((s) => [s.seat, s]));
  const plateOf = (e) => {
    const s = bySeat.get(e.seat);
    const mover = s.seat === step.seat;
    const [box] = plate("seat" + (mover ? " to-act" : ""), s.name, s.seat);
    box.dataset.seat = String(s.seat);
    const row = el("div", "cards");
    // a declarer who discarded took the talon: he plays from his cards and it less the discard
    const took = s.seat === data.declarer && discard.size;
    const cards = took ? [...s.cards, ...data.hands.talon].filter((c) => !discard.has(c.code)) : s.cards;
    for (const c of cards) {
      if (played.has(c.code)) continue;
      if (mover && values.has(c.code)) { row.append(weighed(c, values.get(c.code), step, w)); continue; }
      const card = cardNode(c, "small");
      if (mover) card.classList.add("dim"); // a card of the mover's he may not play now
      row.append(card);
    }
    box.append(row);
    return box;
  };
  const mid = el("div", "mid");
  const trick = el("div", "trick review-trick");
  trick.setAttribute("aria-label", w.trick.replace("{n}", step.trick));
  const plays = data.steps.slice(0, at).filter((s) => s.trick === step.trick);
  if (plays.length) {
    lay(trick, { leader: plays[0].seat,
      plays: plays.map((s) => ({ ...faces.get(s.card), seat: s.seat })) });
  }
  mid.append(el("p", "head", w.trick.replace("{n}", step.trick)), trick);
  layOut(felt, places(seats, viewerSeat(seats, data), []), plateOf, mid);
  felt.classList.add("felt");
  felt.setAttribute("role", "region");
  felt.setAttribute("aria-label", w.title);
  aim(felt);
}

// A legal card of the mover: its value in tricks under it, "best" on the best ones, and on the
// one played what it gave away.
function weighed(card, value, step, w) {
  const cell = el("figure", "weighed");
  const label = [w.tricks[value] || String(value)];
  if (step.best.includes(card.code)) { cell.classList.add("best"); label.push(w.best); }
  if (card.code === step.card) {
    cell.classList.add("played");
    if (step.cost) label.push(w.cost.replace("{n}", step.cost));
  }
  const caption = el("figcaption");
  caption.append(...label.map((line) => el("span", null, line)));
  cell.append(cardNode(card, "small"), caption);
  return cell;
}

// The viewer's seat of the reviewed deal (by his name at the table now), at the bottom of the
// felt; a watcher sees the declarer's, or the first.
function viewerSeat(seats, data) {
  const view = state.view;
  const deal = view && view.deal;
  const mine = deal && deal.seats && view.seat !== null && view.seat !== undefined
    ? deal.seats[view.seat] : null;
  const found = mine && seats.find((s) => s.name === mine.name);
  if (found) return found.seat;
  return seats.some((s) => s.seat === data.declarer) ? data.declarer : seats[0].seat;
}

// The table's next step (Start, the next deal), as the table offers it now: "play again" closes
// the review and presses it. A move within a deal is not one: none then, and nothing shown.
function againChoice() {
  return primaryOf({ choices: (state.view && state.view.choices) || [] });
}

function againNode() {
  const slot = el("span", "review-again");
  const choice = againChoice();
  if (!choice || !review) return slot;
  const button = el("button", "word primary again", review.data.words.again);
  button.type = "button";
  button.dataset.again = choice.press;
  button.addEventListener("click", () => {
    const now = againChoice(); // (the table may have moved on since it was drawn)
    closeSub();
    if (now) press(now.press);
  });
  slot.append(button);
  return slot;
}

// A new view of the table: the review's "play again" follows it.
export function refreshReview() {
  const slot = document.querySelector("#review .review-again");
  if (slot && review && subOpen("review")) slot.replaceWith(againNode());
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
