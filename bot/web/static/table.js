// The table: the felt spanning the width, the seats on its rim (the viewer at the bottom), each
// a plate with its player's avatar, name and one line of figures; the game's facts and the trick
// in the middle, each card laid toward the seat that played it, flying in and out; the clock.

import { backs, cardNode, cardsRow, deckButton, dimUnplayable } from "./cards.js";
import { el, saidNode, state, words } from "./shared.js";
import { closeButton, toolButton } from "./telegram.js";

// The table in seat order: each seat dealt in, and after it the seated players the deal left
// out (sitting out: short of the bankroll, or seated once it was dealt).
function ring(seats, out) {
  const order = [];
  for (const s of seats) {
    order.push({ seat: s.seat });
    for (const o of out) if (o.after === s.seat) order.push({ out: o });
  }
  return order;
}

// Where each seat sits: the viewer (`me`) at the bottom, the others around in table order, the
// next to his left, then over the top to his right (a watcher sees the first seat at the bottom).
export function places(seats, me, out) {
  const order = ring(seats, out || []);
  const n = order.length;
  const mine = Math.max(0, order.findIndex((e) => (e.out ? e.out.you : e.seat === me)));
  const others = [];
  for (let i = 1; i < n; i++) others.push(order[(mine + i) % n]);
  const k = others.length;
  const left = k <= 1 ? 0 : k <= 4 ? 1 : k <= 8 ? 2 : 3; // as many on the right
  const slots = others.map((e, i) => (i < left ? "left" : i >= k - left ? "right" : "top"));
  return { me: order[mine], others, slots, left };
}

// The felt `box` laid out: the seats of `at` (`places`) round its rim, each drawn by `node`, and
// `mid` in the middle.
export function layOut(box, at, node, mid) {
  box.className = "table sides-" + at.left;
  const rings = { top: el("div", "ring top"), left: el("div", "ring left"),
    right: el("div", "ring right"), me: el("div", "ring me") };
  at.others.forEach((e, i) => rings[at.slots[i]].append(node(e)));
  rings.me.append(node(at.me));
  box.append(rings.top, rings.left, mid, rings.right, rings.me);
}

export function drawTable(seats, deal) {
  const view = state.view;
  const at = places(deal.seats, view.seat, view.sitting_out);
  const mid = el("div", "mid");
  drawMiddle(mid, deal);
  layOut(seats, at, (e) => (e.out ? outNode(e.out) : seatNode(deal, deal.seats[e.seat])), mid);
  // an open hand at the felt's side: the sides take more of the width, the trick less
  if (seats.querySelector(".ring.left .open, .ring.right .open")) seats.classList.add("open-sides");
  aim();
}

function seatNode(deal, s) {
  const you = s.seat === state.view.seat;
  const mover = s.seat === deal.mover && !deal.finished;
  const [box, head] = plate("seat" + (mover ? " to-act" : "") + (you ? " you" : "") +
    (s.out ? " out" : "") + (s.plays_from ? " plays-from" : "") + (s.computer ? " computer" : ""),
  s.name, s.seat);
  box.dataset.seat = String(s.seat);
  if (s.dealer) head.append(el("span", "badge dealer", words.dealer));
  if (s.out) head.append(el("span", "badge out", words.out));
  if (s.away) head.append(el("span", "badge away", words.away));
  const facts = [];
  // a seat out of the deal: its badge says so (its word would say it again)
  // the auction so far (P4): while it goes on, the seat's earlier words before its latest
  const earlier = deal.phase === "bidding" && s.calls ? s.calls.slice(0, -1) : [];
  if (earlier.length) facts.push(el("span", "calls", earlier.map((c) => c.label).join(" · ")));
  if (s.word && !s.out) facts.push(el("span", "said", s.word));
  if (s.tricks !== null && s.tricks !== undefined) facts.push(el("span", null, words.tricks + " " + s.tricks));
  for (const f of s.figures || []) facts.push(el("span", null, words[f.key] + " " + f.value));
  if (s.chips !== null && s.chips !== undefined) facts.push(el("span", "chips", s.chips));
  if (facts.length) { const line = el("div", "facts"); line.append(...facts); box.append(line); }
  if (s.open_hand && !you) box.append(openHand(s.open_hand));
  else if (!you && s.cards) box.append(backs(s.cards));
  // P5: the talon the table saw lies by the declarer
  if (deal.talon && !deal.raspasy && deal.declarer === s.seat) {
    const talon = el("div", "talon");
    talon.append(el("span", "hint", words.talon), cardsRow(deal.talon, "mini"));
    if (you && discardsByTalon(deal)) {
      talon.append(el("span", "hint", words.discards), cardsRow(deal.discards, "mini"));
    }
    box.append(talon);
  }
  return box;
}

// The declarer's own discard lies beside the talon it came with, on his plate, not in a line of
// the dock's own (a small phone keeps the height for the table).
export function discardsByTalon(deal) {
  return Boolean(deal.discards && deal.discards.length && deal.talon && !deal.raspasy &&
    deal.declarer === state.view.seat);
}

// A hand laid open on the table (P7 light, P9 misère): its suits apart, as a player reads it,
// the cards of a suit overlapping a little, each index in view; the hand played from (P7: by the
// whister) with the cards not to play dimmed.
function openHand(cards) {
  const row = cardsRow(cards, "mini", "open");
  if (cards.some((c) => c.press)) dimUnplayable(row, cards);
  let line = null;
  for (const node of [...row.children]) {
    if (!line || line.dataset.suit !== node.dataset.suit) {
      line = el("div", "suit-line");
      line.dataset.suit = node.dataset.suit;
      row.append(line);
    }
    line.append(node);
  }
  return row;
}

// A player's round avatar: his initials (a computer player's robot) in a colour of his seat.
function avatar(name, seat) {
  const parts = name.replace(/[^\p{L}\p{N}\s🤖]/gu, "").trim().split(/\s+/).filter(Boolean);
  const initials = parts[0] === "🤖" ? "🤖" : parts.slice(0, 2).map((w) => [...w][0]).join("");
  const node = el("span", "avatar", initials.toUpperCase() || "?");
  node.setAttribute("aria-hidden", "true");
  if (seat !== null) node.style.setProperty("--hue", String((seat * 137 + 200) % 360));
  return node;
}

// A seated player the deal left out: at his seat, marked as sitting out.
function outNode(o) {
  const [box, head] = plate("seat out" + (o.you ? " you" : ""), o.name, null);
  box.dataset.out = "1";
  head.append(el("span", "badge out", words.out));
  return box;
}

// A player's plate: a group named by him, its first line his avatar and his name.
export function plate(cls, name, seat) {
  const box = el("div", cls);
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", name);
  const head = el("div", "head");
  head.append(avatar(name, seat), el("span", "name", name));
  box.append(head);
  return [box, head];
}

function facts(deal) {
  const line = el("div", "facts center-facts");
  if (deal.contract) line.append(el("span", "fact", words.contract + " " + deal.contract));
  // a contract names its trump (7♥): the trump is drawn apart only where none is named
  if (deal.trump && !deal.contract) line.append(el("span", "fact trump" + (/[♥♦]/.test(deal.trump) ? " red" : ""), deal.trump));
  if (deal.turnup) line.append(cardNode(deal.turnup, "mini"));
  if (deal.raspasy) {
    line.append(el("span", "fact", words.raspasy));
    // P10: the talon card turned in raspasy, by the word, apart from the trick's cards
    if (deal.talon) line.append(cardsRow(deal.talon, "mini", "turned"));
  }
  if (deal.pot_text) line.append(saidNode("span", "fact", deal.pot_text)); // N1: the treasure
  else if (deal.pot !== undefined && deal.pot !== null) line.append(el("span", "fact", words.pot + " " + deal.pot));
  if (deal.stock) line.append(el("span", "fact", words.stock + " " + deal.stock));
  return line;
}

// F8: a bidding of several rounds, its round, and each round everyone passed as its turn-up
// crossed out, which says in words what became of it (the ante paid again)
function rounds(deal) {
  const line = el("div", "facts center-facts rounds");
  if (deal.rounds && words.round) {
    const [round, of] = deal.rounds;
    line.append(el("span", "fact", words.round.replace("{round}", round).replace("{rounds}", of)));
  }
  const dead = el("span", "fact dead");
  (deal.dead || []).forEach((face, i) => {
    const card = cardNode(face, "mini");
    const told = deal.passed[i].text.map((run) => run.text).join("");
    card.classList.add("dead");
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", told);
    card.title = told;
    dead.append(card);
  });
  if (dead.childNodes.length) line.append(dead);
  return line;
}

function drawMiddle(mid, deal) {
  mid.append(facts(deal));
  if (deal.rounds || (deal.dead && deal.dead.length)) mid.append(rounds(deal));
  if (deal.stakes) mid.append(saidNode("div", "stakes hint", deal.stakes));
  const felt = el("div", "trick");
  felt.setAttribute("aria-label", words.trick || "");
  if (deal.trick) lay(felt, deal.trick);
  mid.append(felt);
  const tools = el("div", "tools");
  if (deal.last_trick) {
    const last = document.getElementById("last");
    const laid = el("div", "trick");
    lay(laid, deal.last_trick);
    const taker = deal.seats[deal.last_trick.taker];
    last.replaceChildren(el("h2", null, words.last_trick), laid,
      el("p", "taker", taker ? taker.name + " · " + (words.took || "") : ""), closeButton());
    tools.append(toolButton(words.show_last, "last"));
  }
  if (deal.result && !deal.finished) tools.append(toolButton(words.result, "lastdeal"));
  if (deal.sheet) tools.append(toolButton(words.sheet, "sheet"));
  tools.append(deckButton());
  mid.append(tools);
}

// Where a card of a trick lies on a felt, in percent: toward the seat that played it, on the
// line from the felt's trick to the seat's box as drawn (two seats over a phone's narrow felt
// apart, to its corners). `root`: the felt the seats are on (the table's, or the review's).
function spot(seat, root) {
  const felt = root.querySelector(".trick");
  const box = root.querySelector('.seat[data-seat="' + seat + '"]');
  if (!felt || !box) return [50, 50];
  const r = felt.getBoundingClientRect();
  const [sx, sy] = centre(box);
  const near = (d, half) => Math.max(-1, Math.min(1, d / half));
  const x = near(sx - (r.left + r.width / 2), r.width / 2);
  const y = near(sy - (r.top + r.height / 2), r.height / 2);
  return [50 + 30 * x, 50 + 30 * y];
}

function table() {
  return document.getElementById("seats");
}

// Every trick's cards (`root`'s, else the table's and the last trick's) turned toward their
// seats, once the seats are drawn.
export function aim(root) {
  const felt = root || table();
  const cards = root ? root.querySelectorAll(".trick .card.laid")
    : document.querySelectorAll("#seats .trick .card.laid, #last .trick .card.laid");
  for (const node of cards) {
    const [x, y] = spot(Number(node.dataset.seat), felt);
    node.style.left = x.toFixed(1) + "%";
    node.style.top = y.toFixed(1) + "%";
  }
}

// Each card of a trick, to be laid toward the seat that played it (`aim`); the leader's marked.
export function lay(felt, trick) {
  for (const p of trick.plays) {
    const node = cardNode(p, "small");
    node.classList.add("laid");
    node.dataset.seat = String(p.seat);
    if (p.seat === trick.leader) node.classList.add("lead");
    if (p.joker) node.classList.add("joker"); // SK2: the 7♠ played as the joker
    felt.append(node);
  }
}

// Who is to move, said politely to a screen reader once each time it changes (the clock, which
// ticks every second, is not read out).
export function announce(deal, moving) {
  const mover = deal && deal.seats && !deal.finished ? deal.seats[deal.mover] : null;
  const text = moving ? words.your_move || "" : mover ? mover.name + " " + (words.to_act || "") : "";
  const box = document.getElementById("mover");
  if (box.textContent !== text) box.textContent = text;
}

// ---- motion: a card played flies from its seat to the middle, a trick taken to its taker ------

let laidBefore = null; // the trick drawn last: its deal and its cards' codes
let carried = ""; // the trick last carried to its taker (a view drawn again carries it once)

function still() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// The middle of where `seat` sits on the screen: the player's own cards for the viewer.
function seatCentre(seat) {
  const mine = seat === state.view.seat && document.querySelector("#dock .hand");
  const box = mine || document.querySelector('#seats .seat[data-seat="' + seat + '"]');
  return box ? centre(box) : null;
}

function centre(node) {
  const r = node.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

// `node` (laid with translate(-50%, -50%)) set to fly from `from` (a screen point) to its place.
function flyFrom(node, from) {
  if (!from) return;
  const [x, y] = centre(node);
  node.style.setProperty("--fx", (from[0] - x).toFixed(0) + "px");
  node.style.setProperty("--fy", (from[1] - y).toFixed(0) + "px");
  node.classList.add("fly-in");
}

export function motion(deal) {
  const key = String(state.view.deal_no);
  const now = deal.trick ? deal.trick.plays.map((p) => p.code) : [];
  const before = laidBefore && laidBefore.key === key ? laidBefore.codes : null;
  laidBefore = { key, codes: now };
  if (before === null || still()) return; // a page just opened shows the table as it is
  for (const node of document.querySelectorAll("#seats .trick .card.laid")) {
    if (!before.includes(node.dataset.code)) flyFrom(node, seatCentre(Number(node.dataset.seat)));
  }
  const last = deal.last_trick;
  const taken = last && before.length && !now.some((c) => before.includes(c)) &&
    before.every((c) => last.plays.some((p) => p.code === c));
  const which = last ? key + ":" + last.plays.map((p) => p.code).join() : "";
  if (taken && which !== carried) { carried = which; carry(last, before); }
}

// The trick just taken, drawn over the felt where it lay (its last card flying in first), then
// flying to its taker; gone once there. It lies above the table, so a new view drawn meanwhile
// does not cut it short.
function carry(trick, before) {
  const felt = document.querySelector("#seats .trick");
  const to = seatCentre(trick.taker);
  if (!felt || !to) return;
  let layer = document.getElementById("flying");
  if (!layer) { layer = el("div"); layer.id = "flying"; document.body.append(layer); }
  const r = felt.getBoundingClientRect();
  const nodes = trick.plays.map((p) => {
    const node = cardNode({ ...p, press: null }, "small");
    const [x, y] = spot(p.seat, table());
    node.style.left = (r.left + (r.width * x) / 100).toFixed(0) + "px";
    node.style.top = (r.top + (r.height * y) / 100).toFixed(0) + "px";
    node.classList.add("laid", "taken");
    node.dataset.seat = String(p.seat);
    layer.append(node);
    return [node, p];
  });
  for (const [node, p] of nodes) {
    const [x, y] = centre(node);
    node.style.setProperty("--tx", (to[0] - x).toFixed(0) + "px");
    node.style.setProperty("--ty", (to[1] - y).toFixed(0) + "px");
    if (!before.includes(p.code)) flyFrom(node, seatCentre(p.seat));
  }
  setTimeout(() => { for (const [node] of nodes) node.remove(); }, 1400);
}

// ---- the clock: whose time it is and how much of it is left ----------------------------------

let deadline = null;
let turn = { step: null, mover: null, total: 1 }; // the mover's time when his turn was first seen

export function setClock(view) {
  deadline = view.time_left !== null && view.time_left !== undefined
    ? Date.now() + view.time_left * 1000 : null;
}

function clockText(left) {
  const minutes = Math.floor(left / 60);
  const seconds = String(left % 60).padStart(2, "0");
  return minutes + ":" + seconds;
}

export function tick() {
  if (state.silent) return; // the bot is not answering: its clock is not to be trusted, it stops
  const view = state.view;
  const clock = document.getElementById("clock");
  if (deadline === null || !view) { clock.textContent = ""; return; }
  const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
  const deal = view.deal;
  const mover = deal && deal.seats && deal.mover !== null && deal.mover !== undefined
    ? deal.seats[deal.mover] : null;
  clock.textContent = (mover ? mover.name + " · " : "") + clockText(left);
  // the ring round the mover's avatar runs down with his time
  if (turn.step !== view.step || turn.mover !== (deal && deal.mover)) {
    turn = { step: view.step, mover: deal && deal.mover, total: Math.max(left, 1) };
  }
  const ring = document.querySelector("#seats .seat.to-act .avatar");
  if (ring) ring.style.setProperty("--left", String(Math.min(1, left / turn.total)));
}
