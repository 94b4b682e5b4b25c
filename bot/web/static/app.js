// The table as a Telegram Mini App (issue 24). Every text goes in as text (textContent), never
// as HTML; every action is a real <button> whose text is the chat button's ("7♠", "Pass").
"use strict";

const hash = new URLSearchParams(location.hash.slice(1));
const tg = window.Telegram && window.Telegram.WebApp;
const initData = (tg && tg.initData) || hash.get("tgWebAppData") || "";
const query = new URLSearchParams(location.search);
const table = query.get("table") || "";
const api = (path) => "api/" + path + (table ? "?table=" + encodeURIComponent(table) : "");
let view = null;
let words = {}; // the page's words: sent with the opening view and each connection's first message
let deadline = null;
let socket = null;
let retry = 500;

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
}

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

function hasPresses() {
  const deal = view.deal;
  return Boolean(deal && deal.hand && deal.hand.some((c) => c.press));
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
  render();
}

function render() {
  document.body.dataset.step = String(view.deal_no || 0) + ":" + String(view.step || 0);
  document.body.dataset.phase = (view.deal && view.deal.phase) || view.status || "";
  document.documentElement.lang = view.lang || "en";
  document.getElementById("title").textContent =
    [view.game, view.chat].filter(Boolean).join(" · ") + (view.deal_no ? " #" + view.deal_no : "");
  const seats = document.getElementById("seats");
  const center = document.getElementById("center");
  const mine = document.getElementById("mine");
  const result = document.getElementById("result");
  const sheet = document.getElementById("sheet");
  seats.replaceChildren(); center.replaceChildren(); mine.replaceChildren();
  result.replaceChildren(); sheet.replaceChildren();
  document.getElementById("texts-title").textContent = words.table || "";
  const deal = view.deal;
  document.getElementById("table-text").textContent = (deal && deal.table_text) || "";
  deadline = view.time_left !== null && view.time_left !== undefined
    ? Date.now() + view.time_left * 1000 : null;
  tick();
  if (view.status === "closed") { notice(words.closed); return; }
  if (view.status === "lobby" || !deal) {
    notice(words.lobby);
    const row = el("div", "row");
    for (const name of view.players || []) row.append(el("span", "badge", name));
    seats.append(row);
    return;
  }
  notice(view.seat === null ? words.watching : "");
  const names = (deal.seats || []).map((s) => s.name);
  for (const s of deal.seats || []) {
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
    seats.append(box);
  }
  const facts = el("div", "row info");
  if (deal.trump) facts.append(el("span", null, words.trump + ": " + deal.trump));
  if (deal.contract) facts.append(el("span", null, " · " + words.contract + ": " + deal.contract));
  if (deal.pot !== undefined) facts.append(el("span", null, " · " + words.pot + ": " + deal.pot));
  if (deal.raspasy) facts.append(el("span", null, " · " + words.raspasy));
  center.append(facts);
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
  if (deal.last_trick && deal.last_trick.length) {
    const last = el("details");
    last.append(el("summary", null, words.show_last), playsNode(deal.last_trick, names));
    center.append(last);
  }
  if (deal.hand) {
    mine.append(el("h2", null, words.hand));
    const row = el("div", "row hand");
    const lit = hasPresses();
    for (const c of deal.hand) {
      const node = cardNode(c, false);
      if (!c.press && lit) node.classList.add("dim");
      row.append(node);
    }
    mine.append(row);
  }
  if (deal.hidden) mine.append(el("p", null, words.hidden));
  if (deal.discards && deal.discards.length) {
    mine.append(el("h2", null, words.discards));
    const row = el("div", "row");
    for (const c of deal.discards) row.append(cardNode(c, true));
    mine.append(row);
  }
  if (deal.buttons && deal.buttons.length) {
    const row = el("div", "row actions");
    for (const b of deal.buttons) {
      const button = el("button", "word", b.label);
      button.type = "button";
      button.dataset.press = b.press;
      button.addEventListener("click", () => press(b.press));
      row.append(button);
    }
    mine.append(row);
  }
  if (deal.private_text) mine.append(el("pre", "private", deal.private_text));
  if (deal.result) {
    result.hidden = false;
    result.append(el("h2", null, words.result), el("pre", null, deal.result));
  } else {
    result.hidden = true;
  }
  if (deal.sheet) drawSheet(sheet, deal, words);
  else sheet.hidden = true;
}

let sheetUrl = null;
let sheetDeals = -1;

function drawSheet(box, deal, words) {
  box.hidden = false;
  box.append(el("h2", null, words.sheet));
  const figures = el("table", "figures");
  const names = (deal.seats || []).map((s) => s.name);
  deal.sheet.pulya.forEach((p, i) => {
    const tr = el("tr");
    tr.append(el("th", null, names[i] || String(i + 1)),
      el("td", null, words.pulya + " " + p), el("td", null, words.gora + " " + deal.sheet.gora[i]));
    figures.append(tr);
  });
  box.append(figures);
  const img = el("img");
  img.alt = words.sheet;
  box.append(img);
  if (sheetUrl && sheetDeals === deal.sheet.deals) { img.src = sheetUrl; return; }
  sheetDeals = deal.sheet.deals;
  fetch(api("sheet"), { headers: { Authorization: "tma " + initData } })
    .then((r) => (r.ok ? r.blob() : null))
    .then((blob) => {
      if (!blob) return;
      if (sheetUrl) URL.revokeObjectURL(sheetUrl);
      sheetUrl = URL.createObjectURL(blob);
      img.src = sheetUrl;
    });
}

function tick() {
  const clock = document.getElementById("clock");
  if (deadline === null || !view || !words.time_left) { clock.textContent = ""; return; }
  const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
  clock.textContent = words.time_left.replace("{s}", String(left));
}

async function press(data) {
  for (const b of document.querySelectorAll("button[data-press]")) b.disabled = true;
  try {
    const response = await fetch(api("press"), {
      method: "POST",
      headers: { Authorization: "tma " + initData, "Content-Type": "application/json" },
      body: JSON.stringify({ press: data }),
    });
    const body = await response.json();
    if (!response.ok) { render(); notice(body.error || String(response.status)); return; }
    show(body);
  } catch (e) {
    render();
    notice(String(e));
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const url = new URL(api("ws"), location.href);
  url.protocol = scheme;
  url.searchParams.set("init", initData);
  socket = new WebSocket(url.href);
  socket.addEventListener("open", () => { retry = 500; });
  socket.addEventListener("message", (event) => {
    show(JSON.parse(event.data));
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 1008) return;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 15000);
  });
}

async function start() {
  theme();
  if (tg) { try { tg.ready(); tg.expand(); } catch (e) { /* an old client */ } }
  const response = await fetch(api("view"), { headers: { Authorization: "tma " + initData } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) { notice(body.error || String(response.status)); document.body.dataset.state = "refused"; return; }
  show(body);
  document.body.dataset.state = "live";
  connect();
  setInterval(tick, 1000);
}

start();
