// The table as a Telegram Mini App. Every text goes in as text (textContent), never as HTML;
// every action is a real <button> whose press is the chat button's callback data, sent by the
// same path as a chat press. The page follows its table all evening: the lobby, the deals, the
// results and the next deal, and the table the chat opens after this one closes.
"use strict";

const hash = new URLSearchParams(location.hash.slice(1));
const tg = (window.Telegram && window.Telegram.WebApp) || null;
const initData = (tg && tg.initData) || hash.get("tgWebAppData") || "";
// the API beside the page's own script (WEBAPP_URL's path), whatever address Telegram opened
const base = new URL("..", document.currentScript.src);
let table = new URLSearchParams(location.search).get("table") || "";
let view = null;
let words = {}; // the page's words: sent with the opening view and each connection's first message
let deadline = null;
let socket = null;
let retry = 500;
let myMove = false;
let sheetUrl = null;
let sheetDeals = -1;

function api(path) {
  const url = new URL("api/" + path, base);
  if (table) url.searchParams.set("table", table);
  return url.href;
}

// ---- Telegram's client, each feature guarded for older clients ------------------------------

function haptic(kind, value) {
  const feedback = tg && tg.HapticFeedback;
  if (!feedback || (tg.isVersionAtLeast && !tg.isVersionAtLeast("6.1"))) return;
  try {
    if (kind === "impact") feedback.impactOccurred(value);
    else feedback.notificationOccurred(value);
  } catch (e) { /* an old client */ }
}

function theme() {
  let params = (tg && tg.themeParams) || null;
  if (!params || !Object.keys(params).length) {
    try { params = JSON.parse(hash.get("tgWebAppThemeParams") || "{}"); } catch (e) { params = {}; }
  }
  const names = { bg_color: "--tg-bg", text_color: "--tg-text", hint_color: "--tg-hint",
    link_color: "--tg-link", button_color: "--tg-button", button_text_color: "--tg-button-text",
    secondary_bg_color: "--tg-second" };
  for (const [key, name] of Object.entries(names)) {
    if (typeof params[key] === "string" && /^#[0-9a-fA-F]{3,8}$/.test(params[key])) {
      document.documentElement.style.setProperty(name, params[key]);
    }
  }
  document.documentElement.dataset.scheme = dark(params.bg_color) ? "dark" : "light";
}

function dark(color) {
  if (typeof color !== "string" || !/^#[0-9a-fA-F]{6}$/.test(color)) return false;
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b < 128;
}

// The step that moves the table on (Start, the next deal, a discard confirmed) goes on
// Telegram's main button under the page where the client has one, else it is a page's button.
let mainPress = null;

function primaryChoice() {
  if (!tg || !tg.MainButton) return null;
  const choices = [...((view.deal && view.deal.choices) || []), ...(view.choices || []).flat()];
  return choices.find((c) => c.primary) || null;
}

function setMain(choice) {
  mainPress = choice ? choice.press : null;
  if (choice) document.body.dataset.main = choice.press; else delete document.body.dataset.main;
  if (!tg || !tg.MainButton) return;
  try {
    if (choice) { tg.MainButton.setText(choice.label); tg.MainButton.enable(); tg.MainButton.show(); }
    else tg.MainButton.hide();
  } catch (e) { /* an old client */ }
}

// During a deal a vertical drag (over the hand, say) must not close the app (Bot API 7.7).
let swipesOff = false; // as a client opens the app

function swipes(off) {
  if (!tg || off === swipesOff || !(tg.isVersionAtLeast && tg.isVersionAtLeast("7.7"))) return;
  swipesOff = off;
  try { if (off) tg.disableVerticalSwipes(); else tg.enableVerticalSwipes(); } catch (e) { /* old */ }
}

let backTo = null; // the sub-view Telegram's BackButton closes

function openSub(id) {
  closeSub();
  const box = document.getElementById(id);
  box.hidden = false;
  backTo = id;
  if (tg && tg.BackButton) { try { tg.BackButton.show(); } catch (e) { /* old */ } }
}

function closeSub() {
  for (const box of document.querySelectorAll(".sub")) box.hidden = true;
  backTo = null;
  if (tg && tg.BackButton) { try { tg.BackButton.hide(); } catch (e) { /* old */ } }
}

// ---- drawing ---------------------------------------------------------------------------------

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function notice(text) {
  const box = document.getElementById("notice");
  box.textContent = text || "";
  box.hidden = !text;
}

const RED = new Set(["H", "D"]);

// A card drawn as a card: its rank in the player's language and its suit, named as the chat
// names it (8♠, Д♥); `press`: a button (a card to play now, or to mark for the discard). A card
// of the player's own hand (`held`) is a button even when not to play now, disabled then.
function cardNode(card, size, held) {
  const cls = "card " + (size || "") + (RED.has(card.suit) ? " red" : "") +
    (card.marked ? " marked" : "");
  const node = card.press || held ? el("button", cls) : el("span", cls);
  node.dataset.code = card.code;
  node.dataset.suit = card.suit;
  node.setAttribute("aria-label", card.label);
  node.append(el("span", "rank", card.rank), el("span", "suit", card.symbol));
  if (size !== "mini") node.append(el("span", "pip", card.symbol));
  if (card.press || held) node.type = "button";
  if (card.press) {
    node.dataset.press = card.press;
    node.addEventListener("click", () => press(card.press));
  } else if (held) node.disabled = true;
  return node;
}

function cardsRow(cards, size, cls, held) {
  const row = el("div", "cards " + (cls || ""));
  for (const c of cards) row.append(cardNode(c, size, held));
  return row;
}

function wordButton(choice, cls) {
  const button = el("button", "word" + (cls ? " " + cls : "") + (choice.primary ? " primary" : ""),
    choice.label);
  button.type = "button";
  button.dataset.press = choice.press;
  button.addEventListener("click", () => press(choice.press));
  return button;
}

// Each view is stamped where it is made; an answer to a press that crossed a later push on the
// way is older than the view shown, and is dropped. A new connection starts the count anew
// (the bot may have restarted).
let made = 0;

function show(body) {
  if (typeof body.made === "number") {
    if (body.made < made) return;
    made = body.made;
  }
  if (body.words) words = body.words;
  view = body;
  if (view.status === "closed" && view.follow) { follow(view.follow); return; }
  render();
}

// The table in seat order: each seat dealt in, and after it the seated players the deal left
// out (sitting out: short of the bankroll, or seated once it was dealt).
function ring(deal) {
  const out = view.sitting_out || [];
  const order = [];
  for (const s of deal.seats) {
    order.push({ seat: s.seat });
    for (const o of out) if (o.after === s.seat) order.push({ out: o });
  }
  return order;
}

// Where each seat sits: the viewer at the bottom, the others around in table order, the next
// to his left, then over the top to his right (a watcher sees the first seat at the bottom).
function places(deal) {
  const order = ring(deal);
  const n = order.length;
  const me = Math.max(0, order.findIndex((e) => (e.out ? e.out.you : e.seat === view.seat)));
  const others = [];
  for (let i = 1; i < n; i++) others.push(order[(me + i) % n]);
  const k = others.length;
  const left = k <= 1 ? 0 : k <= 4 ? 1 : k <= 8 ? 2 : 3; // as many on the right
  const slots = others.map((e, i) => (i < left ? "left" : i >= k - left ? "right" : "top"));
  return { me: order[me], others, slots, left };
}

function render() {
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
  deadline = view.time_left !== null && view.time_left !== undefined
    ? Date.now() + view.time_left * 1000 : null;
  const moving = Boolean(deal && deal.seats && view.seat !== null && view.seat !== undefined &&
    deal.mover === view.seat && !deal.finished);
  if (moving && !myMove) haptic("notification", "success");
  myMove = moving;
  document.title = (moving ? "● " + (words.your_move || "") + " · " : "") + (view.game || "🃏");
  announce(deal, moving);
  tick();
  result.hidden = true;
  setMain(primaryChoice());
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
  if (deal.result && (deal.finished || !deal.trick)) drawResult(result, deal);
  drawLastDeal(deal);
  drawDock(dock, deal);
  drawChoices(dock);
  if (deal.sheet) drawSheet(deal);
  motion(deal);
}

// Who is to move, said politely to a screen reader once each time it changes (the clock, which
// ticks every second, is not read out).
function announce(deal, moving) {
  const mover = deal && deal.seats && !deal.finished ? deal.seats[deal.mover] : null;
  const text = moving ? words.your_move || "" : mover ? mover.name + " " + (words.to_act || "") : "";
  const box = document.getElementById("mover");
  if (box.textContent !== text) box.textContent = text;
}

function drawTable(seats, deal) {
  const at = places(deal);
  seats.className = "table sides-" + at.left;
  const rings = { top: el("div", "ring top"), left: el("div", "ring left"),
    right: el("div", "ring right"), me: el("div", "ring me") };
  const node = (e) => (e.out ? outNode(e.out) : seatNode(deal, deal.seats[e.seat]));
  at.others.forEach((e, i) => rings[at.slots[i]].append(node(e)));
  rings.me.append(node(at.me));
  const mid = el("div", "mid");
  drawMiddle(mid, deal);
  seats.append(rings.top, rings.left, mid, rings.right, rings.me);
  aim();
}

function seatNode(deal, s) {
  const you = s.seat === view.seat;
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
  if (s.word && !s.out) facts.push(el("span", "said", s.word));
  if (s.tricks !== null && s.tricks !== undefined) facts.push(el("span", null, words.tricks + " " + s.tricks));
  for (const f of s.figures || []) facts.push(el("span", null, words[f.key] + " " + f.value));
  if (s.chips !== null && s.chips !== undefined) facts.push(el("span", "chips", s.chips));
  if (facts.length) { const line = el("div", "facts"); line.append(...facts); box.append(line); }
  if (s.open_hand && !you) {
    const open = cardsRow(s.open_hand, "mini", "open");
    if (s.open_hand.some((c) => c.press)) dimUnplayable(open, s.open_hand); // the hand played from
    box.append(open);
  } else if (!you && s.cards) box.append(backs(s.cards));
  // P5: the talon the table saw lies by the declarer
  if (deal.talon && !deal.raspasy && deal.declarer === s.seat) {
    const talon = el("div", "talon");
    talon.append(el("span", "hint", words.talon), cardsRow(deal.talon, "mini"));
    box.append(talon);
  }
  return box;
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
function plate(cls, name, seat) {
  const box = el("div", cls);
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", name);
  const head = el("div", "head");
  head.append(avatar(name, seat), el("span", "name", name));
  box.append(head);
  return [box, head];
}

// While some card is to play, the cards of `row` that are not are dimmed.
function dimUnplayable(row, cards) {
  if (!anyPlayable()) return;
  cards.forEach((c, i) => { if (!c.press) row.children[i].classList.add("dim"); });
}

function anyPlayable() {
  const deal = view.deal;
  const playable = (cards) => (cards || []).some((c) => c.press);
  return playable(deal.hand) || deal.seats.some((s) => playable(s.open_hand));
}

function backs(n) {
  const box = el("div", "backs");
  box.dataset.count = String(n);
  const fan = el("span", "fan");
  for (let i = 0; i < Math.min(n, 6); i++) fan.append(el("span", "back"));
  box.append(fan, el("span", "count", "×" + n));
  return box;
}

// The lobby drawn as the table: the game's name on the felt, a chair on it for each player
// seated (his avatar, his name, his rating), and an empty chair while the table has room.
function drawLobby(seats) {
  seats.className = "lobby";
  seats.setAttribute("aria-label", words.players || "");
  const players = view.players || [];
  const ratings = view.player_ratings || [];
  const chairs = el("div", "chairs");
  players.forEach((name, i) => {
    const [box] = plate("seat", name, i);
    if (ratings[i]) box.append(ratingNode(ratings[i]));
    chairs.append(box);
  });
  if (players.length < (view.most || 0)) {
    chairs.append(el("div", "chair empty", players.length ? words.free_seat : words.empty_seat));
  }
  seats.append(el("p", "game", view.game), chairs);
}

function facts(deal) {
  const line = el("div", "facts center-facts");
  if (deal.contract) line.append(el("span", "fact", words.contract + " " + deal.contract));
  if (deal.trump) line.append(el("span", "fact trump" + (/[♥♦]/.test(deal.trump) ? " red" : ""), deal.trump));
  if (deal.turnup) line.append(cardNode(deal.turnup, "mini"));
  if (deal.raspasy) {
    line.append(el("span", "fact", words.raspasy));
    // P10: the talon card turned in raspasy, by the word, apart from the trick's cards
    if (deal.talon) line.append(cardsRow(deal.talon, "mini", "turned"));
  }
  if (deal.pot_text) line.append(el("span", "fact", deal.pot_text)); // N1: the treasure
  else if (deal.pot !== undefined && deal.pot !== null) line.append(el("span", "fact", words.pot + " " + deal.pot));
  if (deal.stock) line.append(el("span", "fact", words.stock + " " + deal.stock));
  return line;
}

function drawMiddle(mid, deal) {
  mid.append(facts(deal));
  if (deal.stakes) mid.append(el("div", "stakes hint", deal.stakes));
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

// ---- the deck's colours: two (red and black) or four (♦ blue, ♣ green), the player's choice,
// kept in Telegram's CloudStorage (Bot API 6.9) so every device of his has it, else locally.

function cloud() {
  return tg && tg.CloudStorage && tg.isVersionAtLeast && tg.isVersionAtLeast("6.9")
    ? tg.CloudStorage : null;
}

function setDeck(four) {
  document.documentElement.dataset.deck = four ? "4" : "2";
}

function loadDeck() {
  try { setDeck(localStorage.getItem("deck") === "4"); } catch (e) { /* no storage */ }
  const store = cloud();
  if (!store) return;
  try { store.getItem("deck", (error, value) => { if (!error && value) setDeck(value === "4"); }); }
  catch (e) { /* an old client */ }
}

function deckButton() {
  const four = document.documentElement.dataset.deck === "4";
  const button = el("button", "tool deck", four ? "♠♥♦♣ ×4" : "♠♥ ×2");
  button.type = "button";
  button.setAttribute("aria-pressed", String(four));
  button.setAttribute("aria-label", words.four_colours || "");
  button.addEventListener("click", () => {
    const value = document.documentElement.dataset.deck === "4" ? "2" : "4";
    setDeck(value === "4");
    try { localStorage.setItem("deck", value); } catch (e) { /* no storage */ }
    const store = cloud();
    if (store) { try { store.setItem("deck", value); } catch (e) { /* an old client */ } }
    haptic("impact", "light");
    render();
  });
  return button;
}

// Where a card of a trick lies on a felt, in percent: toward the seat that played it, on the
// line from the table's felt to the seat's box as drawn (two seats over a phone's narrow felt
// apart, to its corners).
function spot(seat) {
  const felt = document.querySelector("#seats .trick");
  const box = document.querySelector('#seats .seat[data-seat="' + seat + '"]');
  if (!felt || !box) return [50, 50];
  const r = felt.getBoundingClientRect();
  const [sx, sy] = centre(box);
  const near = (d, half) => Math.max(-1, Math.min(1, d / half));
  const x = near(sx - (r.left + r.width / 2), r.width / 2);
  const y = near(sy - (r.top + r.height / 2), r.height / 2);
  return [50 + 30 * x, 50 + 30 * y];
}

function place(node, seat) {
  const [x, y] = spot(seat);
  node.style.left = x.toFixed(1) + "%";
  node.style.top = y.toFixed(1) + "%";
}

// Every trick's cards (the table's, the last trick's) turned toward their seats, once the seats
// are drawn.
function aim() {
  for (const node of document.querySelectorAll(".trick .card.laid")) {
    place(node, Number(node.dataset.seat));
  }
}

// Each card of a trick, to be laid toward the seat that played it (`aim`); the leader's marked.
function lay(felt, trick) {
  for (const p of trick.plays) {
    const node = cardNode(p, "small");
    node.classList.add("laid");
    node.dataset.seat = String(p.seat);
    if (p.seat === trick.leader) node.classList.add("lead");
    if (p.joker) node.classList.add("joker"); // SK2: the 7♠ played as the joker
    felt.append(node);
  }
}

// ---- motion: a card played flies from its seat to the middle, a trick taken to its taker ------

let laidBefore = null; // the trick drawn last: its deal and its cards' codes
let carried = ""; // the trick last carried to its taker (a view drawn again carries it once)

function still() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// The middle of where `seat` sits on the screen: the player's own cards for the viewer.
function seatCentre(seat) {
  const mine = seat === view.seat && document.querySelector("#dock .hand");
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

function motion(deal) {
  const key = String(view.deal_no);
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
    const [x, y] = spot(p.seat);
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

// The league's rating of a player in this game ("?": provisional), beside his name.
function ratingNode(rating) {
  const node = el("span", "rating", "🏆 " + rating);
  node.title = words.rating || "";
  return node;
}

function resultNodes(deal) {
  const r = deal.result;
  const nodes = [el("h2", null, words.result), el("p", "head", r.head)];
  const ratings = view.seat_ratings || [];
  for (const s of r.seats) {
    if (s.delta === null && !s.reasons.length) continue;
    const line = el("p", "line");
    line.append(el("b", null, s.name + (s.delta !== null ? " " + s.delta : "")));
    if (ratings[s.seat]) line.append(" ", ratingNode(ratings[s.seat]));
    if (s.reasons.length) line.append(": " + s.reasons.join(" · "));
    if (s.total) line.append(" (" + words.chips + " " + s.total + ")");
    nodes.push(line);
  }
  if (r.foot) nodes.push(el("p", "foot hint", r.foot));
  nodes.push(...endNodes(deal));
  return nodes;
}

// A finished deal's result: a sheet over the felt's lower part (folded to its head line by a
// tap on its handle, to look at the table); a pulya's result beside the next deal's auction
// stays under the felt, not over it.
let folded = null; // the deal whose result sheet the player folded

function drawResult(result, deal) {
  result.hidden = false;
  const sheet = Boolean(deal.finished);
  const key = view.table + ":" + view.deal_no;
  result.className = sheet ? "sheet" + (folded === key ? " folded" : "") : "";
  if (sheet) {
    const handle = el("button", "handle", folded === key ? "▴" : "▾");
    handle.type = "button";
    handle.setAttribute("aria-expanded", String(folded !== key));
    handle.setAttribute("aria-label", words.result || "");
    handle.addEventListener("click", () => { folded = folded === key ? null : key; render(); });
    result.append(handle);
  }
  result.append(...resultNodes(deal));
}

function drawLastDeal(deal) {
  const box = document.getElementById("lastdeal");
  if (!deal.result) { box.replaceChildren(); return; }
  box.replaceChildren(...resultNodes(deal), closeButton());
}

function toolButton(label, id) {
  const button = el("button", "tool", label);
  button.type = "button";
  button.dataset.open = id;
  button.addEventListener("click", () => { haptic("impact", "light"); openSub(id); });
  return button;
}

function closeButton() {
  const button = el("button", "tool close", "✕");
  button.type = "button";
  button.addEventListener("click", closeSub);
  return button;
}

function drawDock(dock, deal) {
  if (deal.question) dock.append(el("p", "question", deal.question));
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
  if (deal.discards && deal.discards.length) {
    const row = el("div", "row");
    row.append(el("span", "hint", words.discards), cardsRow(deal.discards, "mini"));
    dock.append(row);
  }
  if (deal.ladder && deal.ladder.length) dock.append(ladderNode(deal.ladder));
  const choices = (deal.choices || []).filter((c) => c.press !== mainPress);
  if (choices.length) {
    const row = el("div", "row actions");
    for (const b of choices) row.append(wordButton(b));
    dock.append(row);
  }
}

// Preferans's ladder (P4): a row a level, the strains across (♠ ♣ ♦ ♥, no trumps), the bids the
// player may say enabled; the levels under the lowest he may say are left out (no bid goes
// down). Pass, misère and "here" stay the dock's own buttons.
function ladderNode(rungs) {
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

function drawChoices(dock) {
  for (const row of view.choices || []) {
    const choices = row.filter((c) => c.press !== mainPress); // on Telegram's main button
    if (!choices.length) continue;
    const line = el("div", "row actions");
    for (const c of choices) line.append(wordButton(c, "table"));
    dock.append(line);
  }
}

function drawSheet(deal) {
  // the sheet's sub-view keeps one <img>: a later render never leaves the picture behind
  const box = document.getElementById("sheet");
  let img = box.querySelector("img");
  if (!img) {
    box.replaceChildren(el("h2", null, words.sheet), el("table", "figures"), closeButton());
    img = el("img");
    img.alt = words.sheet || "";
    box.insertBefore(img, box.lastChild);
  }
  const figures = box.querySelector("table.figures");
  figures.replaceChildren();
  const names = (deal.seats || []).map((s) => s.name);
  deal.sheet.pulya.forEach((p, i) => {
    const tr = el("tr");
    tr.append(el("th", null, names[i] || String(i + 1)),
      el("td", null, words.pulya + " " + p), el("td", null, words.gora + " " + deal.sheet.gora[i]));
    figures.append(tr);
  });
  if (sheetDeals === deal.sheet.deals) { if (sheetUrl) img.src = sheetUrl; return; }
  sheetDeals = deal.sheet.deals;
  fetch(api("sheet"), { headers: { Authorization: "tma " + initData } })
    .then((r) => (r.ok ? r.blob() : null))
    .then((blob) => {
      if (!blob) return;
      if (sheetUrl) URL.revokeObjectURL(sheetUrl);
      sheetUrl = URL.createObjectURL(blob);
      box.querySelector("img").src = sheetUrl;
      box.dataset.deals = String(deal.sheet.deals);
    });
}

function clockText(left) {
  const minutes = Math.floor(left / 60);
  const seconds = String(left % 60).padStart(2, "0");
  return minutes + ":" + seconds;
}

function tick() {
  if (silent) return; // the bot is not answering: its clock is not to be trusted, it stops
  const clock = document.getElementById("clock");
  if (deadline === null || !view) { clock.textContent = ""; return; }
  const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
  const deal = view.deal;
  const mover = deal && deal.seats && deal.mover !== null && deal.mover !== undefined
    ? deal.seats[deal.mover] : null;
  clock.textContent = (mover ? mover.name + " · " : "") + clockText(left);
  // the ring round the mover's avatar runs down with his time
  if (turn.step !== view.step || turn.mover !== (deal && deal.mover)) {
    turn.step = view.step; turn.mover = deal && deal.mover; turn.total = Math.max(left, 1);
  }
  const ring = document.querySelector(".seat.to-act .avatar");
  if (ring) ring.style.setProperty("--left", String(Math.min(1, left / turn.total)));
}

let turn = { step: null, mover: null, total: 1 }; // the mover's time when his turn was first seen

// ---- talking to the bot ----------------------------------------------------------------------

function refuse(body, status) {
  document.body.dataset.state = "refused";
  document.documentElement.lang = body.lang || document.documentElement.lang;
  document.getElementById("board").hidden = true;
  document.getElementById("dock").replaceChildren();
  notice("");
  document.getElementById("refusal").hidden = false;
  document.getElementById("refusal-title").textContent = body.title || String(status);
  document.getElementById("refusal-text").textContent = body.text || "";
  document.title = body.title || "🃏";
  haptic("notification", "error");
}

async function press(data) {
  haptic("impact", "light");
  for (const b of document.querySelectorAll("button[data-press]")) b.disabled = true;
  if (data === mainPress) { try { tg.MainButton.disable(); } catch (e) { /* an old client */ } }
  try {
    const response = await fetch(api("press"), {
      method: "POST",
      headers: { Authorization: "tma " + initData, "Content-Type": "application/json" },
      body: JSON.stringify({ press: data }),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      haptic("notification", "error");
      if (response.status === 401) { refuse(body, response.status); return; }
      render();
      notice(body.text || String(response.status));
      if (body.url) document.getElementById("notice").append(" ", linkButton(body.url));
      return;
    }
    show(body);
  } catch (e) {
    render();
    notice(String(e));
  }
}

function linkButton(url) {
  // a press the bot answers with a link (its private chat, to be started first)
  const button = el("button", "tool", words.open_bot || "↗");
  button.type = "button";
  button.addEventListener("click", () => {
    if (tg && tg.openTelegramLink) tg.openTelegramLink(url); else window.open(url, "_blank");
  });
  return button;
}

// ---- the review of a finished deal (docs/playing.md "The review") ---------------------------
// The result's "Review" asks the server for the deal's double-dummy review and steps through
// it card by card: the hands as dealt less the cards played, the trick, and the mover's legal
// cards each with the tricks his side ends with if it is played (the one played marked with
// what it gave away, the best ones marked best).

let review = null; // {data, at}: the review shown and the card it stands at

// Beside a result: every hand as dealt (where the chat shows them) and the "Review" button.
function endNodes(deal) {
  const nodes = [];
  if (deal.hands) nodes.push(...handsNodes(deal.hands, words.talon, words.discard));
  if (deal.review) {
    const button = el("button", "tool review-open", words.review || "🔍");
    button.type = "button";
    button.dataset.deal = String(deal.review);
    button.addEventListener("click", () => openReview(deal.review));
    nodes.push(button);
  }
  return nodes;
}

function handsNodes(hands, talonWord, discardWord) {
  const box = el("div", "hands");
  for (const s of hands.seats) {
    const line = el("div", "hand-line");
    line.append(el("span", "name", s.name), cardsRow(s.cards, "mini"));
    box.append(line);
  }
  for (const [cards, word] of [[hands.talon, talonWord], [hands.discard, discardWord]]) {
    if (!cards.length) continue;
    const line = el("div", "hand-line");
    line.append(el("span", "hint", word || ""), cardsRow(cards, "mini"));
    box.append(line);
  }
  return [box];
}

async function openReview(dealId) {
  const url = new URL("api/review", base);
  url.searchParams.set("deal", String(dealId));
  const response = await fetch(url.href, { headers: { Authorization: "tma " + initData } });
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

// ---- end of the review -------------------------------------------------------------------------

// The live channel's health: the page asks "ping" every other second and anything the bot says
// counts as an answer; a closed socket, or no answer for 3 s (a bot killed or hung with the
// socket open), shows "reconnecting..." and stops the clock until the bot answers again.
let heard = 0;
let silent = false;
let beats = 0;

function setSilent(now) {
  if (now === silent) return;
  silent = now;
  const box = document.getElementById("link");
  box.textContent = now ? words.reconnecting || "" : "";
  box.hidden = !now;
  document.body.dataset.link = now ? "lost" : "ok";
}

function beat() {
  if (socket && socket.readyState === WebSocket.OPEN && beats++ % 2 === 0) {
    try { socket.send("ping"); } catch (e) { /* closing: the close event tells */ }
  }
  if (Date.now() - heard > 3000) setSilent(true);
  tick();
}

function connect() {
  const url = new URL(api("ws"));
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  const mine = new WebSocket(url.href);
  socket = mine;
  // the launch data goes in the first message, never in the address (proxies log addresses)
  mine.addEventListener("open", () => {
    made = 0; // the connection's first view is its greeting, the newest there is
    mine.send(JSON.stringify({ init: initData }));
  });
  mine.addEventListener("message", (event) => {
    if (socket !== mine) return;
    heard = Date.now();
    setSilent(false);
    if (event.data === "pong") return;
    retry = 500;
    show(JSON.parse(event.data));
  });
  mine.addEventListener("close", (event) => {
    if (socket !== mine) return;
    socket = null;
    if (event.code !== 1008) setSilent(true);
    setTimeout(event.code === 1008 ? recheck : connect, retry);
    retry = Math.min(retry * 2, 15000);
  });
}

async function recheck() {
  // the server refused the socket (the player left the group, the launch data grew too old):
  // the page says why, or goes on live if the refusal has passed
  if (await load()) connect();
}

// the status of the last load(): 503 while the bot starts or restarts (the page tries again)
let loaded = 0;

async function load() {
  const response = await fetch(api("view"), { headers: { Authorization: "tma " + initData } });
  const body = await response.json().catch(() => ({}));
  loaded = response.status;
  if (!response.ok) { refuse(body, response.status); return false; }
  document.getElementById("refusal").hidden = true;
  document.getElementById("board").hidden = false;
  made = 0; // a view fetched whole: the newest there is
  show(body);
  return true;
}

async function follow(next) {
  // the chat opened a new table since this one closed: the page goes on there
  table = String(next);
  if (socket) { const old = socket; socket = null; old.close(); }
  if (await load()) connect();
}

async function start() {
  theme();
  loadDeck();
  if (tg) {
    try { tg.ready(); tg.expand(); } catch (e) { /* an old client */ }
    try { tg.onEvent("themeChanged", theme); } catch (e) { /* an old client */ }
    try { tg.BackButton.onClick(closeSub); } catch (e) { /* an old client */ }
    try { tg.MainButton.onClick(() => { if (mainPress) press(mainPress); }); } catch (e) { /* old */ }
    // fullscreen on a phone (Bot API 8.0): the table takes the whole screen, inside its safe areas
    if (tg.isVersionAtLeast && tg.isVersionAtLeast("8.0") && ["android", "ios"].includes(tg.platform)) {
      try { tg.requestFullscreen(); } catch (e) { /* an old client */ }
    }
  }
  while (!(await load())) {
    if (loaded !== 503) return;
    await new Promise((done) => setTimeout(done, 5000));
  }
  document.body.dataset.state = "live";
  heard = Date.now();
  connect();
  setInterval(beat, 1000);
}

start();
