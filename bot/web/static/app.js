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

function cardNode(card, small) {
  const cls = "card" + (RED.has(card.suit) ? " red" : "") + (small ? " small" : "");
  if (card.press) {
    const button = el("button", cls + (card.chosen ? " chosen" : ""), card.button || card.label);
    button.type = "button";
    button.dataset.press = card.press;
    button.addEventListener("click", () => press(card.press));
    return button;
  }
  return el("span", cls, card.label);
}

function wordButton(choice, cls) {
  const button = el("button", "word" + (cls ? " " + cls : ""), choice.label);
  button.type = "button";
  button.dataset.press = choice.press;
  button.addEventListener("click", () => press(choice.press));
  return button;
}

function playsNode(plays, names) {
  const row = el("div", "row");
  for (const p of plays) {
    const box = el("div", "play");
    box.append(cardNode(p, true), el("span", null, names[p.seat] || ""));
    row.append(box);
  }
  return row;
}

function show(body) {
  if (body.words) words = body.words;
  view = body;
  if (view.status === "closed" && view.follow) { follow(view.follow); return; }
  render();
}

function render() {
  document.body.dataset.step = String(view.deal_no || 0) + ":" + String(view.step || 0);
  document.body.dataset.phase = (view.deal && view.deal.phase) || view.status || "";
  document.documentElement.lang = view.lang || "en";
  const deal = view.deal;
  const seats = document.getElementById("seats");
  const center = document.getElementById("center");
  const question = document.getElementById("question");
  const result = document.getElementById("result");
  const dock = document.getElementById("dock");
  for (const box of [seats, center, question, result, dock]) box.replaceChildren();
  const name = [view.game, view.chat].filter(Boolean).join(" · ");
  document.getElementById("title").textContent =
    name + (view.deal_no && words.deal ? " · " + words.deal.replace("{n}", view.deal_no) : "");
  deadline = view.time_left !== null && view.time_left !== undefined
    ? Date.now() + view.time_left * 1000 : null;
  const mine = deal && view.seat !== null && view.seat !== undefined && deal.seats
    ? deal.seats[view.seat] : null;
  const moving = Boolean(mine && mine.to_act && !deal.finished);
  if (moving && !myMove) haptic("notification", "success");
  myMove = moving;
  document.title = (moving ? "● " + (words.your_move || "") + " · " : "") + (view.game || "🃏");
  tick();
  if (view.status === "closed") { notice(words.closed); drawChoices(dock); return; }
  if (view.status === "lobby" || !deal) {
    notice(words.lobby);
    drawLobby(seats);
    drawChoices(dock);
    return;
  }
  notice(view.seat === null ? words.watching : "");
  const names = (deal.seats || []).map((s) => s.name);
  for (const s of deal.seats || []) seats.append(seatNode(s));
  drawCenter(center, deal, names);
  if (deal.private_text) question.append(el("pre", "private", deal.private_text));
  if (deal.result) {
    result.hidden = false;
    result.append(el("h2", null, words.result), el("pre", null, deal.result));
  } else {
    result.hidden = true;
  }
  drawHand(dock, deal);
  drawChoices(dock);
  if (deal.sheet) drawSheet(deal);
}

function seatNode(s) {
  const box = el("div", "seat" + (s.to_act ? " to-act" : "") + (s.you ? " you" : ""));
  box.append(el("div", "name", s.name));
  const badges = el("div");
  if (s.dealer) badges.append(el("span", "badge", words.dealer));
  if (s.to_act) badges.append(el("span", "badge", words.to_act));
  box.append(badges);
  if (s.word) box.append(el("div", "line", s.word));
  const facts = [];
  if (s.tricks) facts.push(words.tricks + ": " + s.tricks);
  if (s.pulya !== undefined) facts.push(words.pulya + " " + s.pulya + " · " + words.gora + " " + s.gora);
  if (s.chips !== null && s.chips !== undefined) facts.push(words.chips + ": " + s.chips);
  for (const f of facts) box.append(el("div", "line", f));
  if (s.open_hand) {
    const row = el("div", "row");
    for (const c of s.open_hand) row.append(cardNode(c, true));
    box.append(row);
  }
  return box;
}

function drawLobby(seats) {
  seats.append(el("h2", "wide", words.players));
  const players = view.players || [];
  if (!players.length) seats.append(el("p", "wide", words.empty_seat));
  for (const name of players) {
    const box = el("div", "seat");
    box.append(el("div", "name", name));
    seats.append(box);
  }
}

function drawCenter(center, deal, names) {
  const facts = [];
  if (deal.trump) facts.push(words.trump + ": " + deal.trump);
  if (deal.contract) facts.push(words.contract + ": " + deal.contract);
  if (deal.pot !== undefined && deal.pot !== null) facts.push(words.pot + ": " + deal.pot);
  if (deal.raspasy) facts.push(words.raspasy);
  if (facts.length) center.append(el("div", "info", facts.join(" · ")));
  if (deal.stakes) center.append(el("div", "info", deal.stakes));
  if (deal.turnup) { const row = el("div", "row"); row.append(cardNode(deal.turnup, true)); center.append(row); }
  if (deal.talon) {
    center.append(el("h2", null, words.talon));
    const row = el("div", "row");
    for (const c of deal.talon) row.append(cardNode(c, true));
    center.append(row);
  }
  center.append(el("h2", null, words.trick));
  center.append(playsNode(deal.trick || [], names));
  const tools = el("div", "row tools");
  if (deal.last_trick && deal.last_trick.length) {
    const last = document.getElementById("last");
    last.replaceChildren(el("h2", null, words.last_trick), playsNode(deal.last_trick, names));
    last.append(closeButton());
    tools.append(toolButton(words.show_last, "last"));
  }
  if (deal.sheet) tools.append(toolButton(words.sheet, "sheet"));
  if (tools.childElementCount) center.append(tools);
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

function drawHand(dock, deal) {
  if (deal.hidden) dock.append(el("p", null, words.hidden));
  if (deal.hand) {
    const row = el("div", "row hand");
    const lit = deal.hand.some((c) => c.press);
    for (const c of deal.hand) {
      const node = cardNode(c, false);
      if (!c.press && lit) node.classList.add("dim");
      row.append(node);
    }
    dock.append(row);
  }
  if (deal.discards && deal.discards.length) {
    const row = el("div", "row");
    row.append(el("span", "hint", words.discards + ":"));
    for (const c of deal.discards) row.append(cardNode(c, true));
    dock.append(row);
  }
  if (deal.buttons && deal.buttons.length) {
    const row = el("div", "row actions");
    for (const b of deal.buttons) row.append(wordButton(b));
    dock.append(row);
  }
}

function drawChoices(dock) {
  for (const choices of view.choices || []) {
    const row = el("div", "row actions");
    for (const c of choices) row.append(wordButton(c, "table"));
    dock.append(row);
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
  const clock = document.getElementById("clock");
  if (deadline === null || !view) { clock.textContent = ""; return; }
  const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
  const deal = view.deal;
  const mover = deal && (deal.seats || []).find((s) => s.to_act);
  clock.textContent = (mover ? mover.name + " · " : "") + clockText(left);
}

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

function connect() {
  const url = new URL(api("ws"));
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  const mine = new WebSocket(url.href);
  socket = mine;
  // the launch data goes in the first message, never in the address (proxies log addresses)
  mine.addEventListener("open", () => mine.send(JSON.stringify({ init: initData })));
  mine.addEventListener("message", (event) => {
    if (socket !== mine) return;
    retry = 500;
    show(JSON.parse(event.data));
  });
  mine.addEventListener("close", (event) => {
    if (socket !== mine) return;
    socket = null;
    setTimeout(event.code === 1008 ? recheck : connect, retry);
    retry = Math.min(retry * 2, 15000);
  });
}

async function recheck() {
  // the server refused the socket (the player left the group, the launch data grew too old):
  // the page says why, or goes on live if the refusal has passed
  if (await load()) connect();
}

async function load() {
  const response = await fetch(api("view"), { headers: { Authorization: "tma " + initData } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) { refuse(body, response.status); return false; }
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
  if (tg) {
    try { tg.ready(); tg.expand(); } catch (e) { /* an old client */ }
    try { tg.onEvent("themeChanged", theme); } catch (e) { /* an old client */ }
    try { tg.BackButton.onClick(closeSub); } catch (e) { /* an old client */ }
  }
  if (!(await load())) return;
  document.body.dataset.state = "live";
  connect();
  setInterval(tick, 1000);
}

start();
