// The live channel to the bot: the view fetched whole, then a WebSocket that pushes each change;
// its health (the page asks "ping" every other second and anything the bot says counts as an
// answer; a closed socket, or no answer for 3 s, a bot killed or hung with the socket open,
// shows "reconnecting…" and stops the clock until the bot answers again); a refusal said; the
// chat's next table followed once this one closes.

import {
  api, authorized, haptic, initData, notice, page, setWords, state, words,
} from "./shared.js";
import { tick } from "./table.js";

let socket = null;
let retry = 500;
let heard = 0;
let beats = 0;

// Each view is stamped where it is made; an answer to a press that crossed a later push on the
// way is older than the view shown, and is dropped. A new connection starts the count anew
// (the bot may have restarted).
export function show(body) {
  if (typeof body.made === "number") {
    if (body.made < state.made) return;
    state.made = body.made;
  }
  if (body.words) setWords(body.words);
  state.view = body;
  if (body.status === "closed" && body.follow) { follow(body.follow); return; }
  page.render();
}

export function refuse(body, status) {
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

function setSilent(now) {
  if (now === state.silent) return;
  state.silent = now;
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
    state.made = 0; // the connection's first view is its greeting, the newest there is
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
  const response = await fetch(api("view"), { headers: authorized() });
  const body = await response.json().catch(() => ({}));
  loaded = response.status;
  if (!response.ok) { refuse(body, response.status); return false; }
  document.getElementById("refusal").hidden = true;
  document.getElementById("board").hidden = false;
  state.made = 0; // a view fetched whole: the newest there is
  show(body);
  return true;
}

async function follow(next) {
  // the chat opened a new table since this one closed: the page goes on there
  state.table = String(next);
  if (socket) { const old = socket; socket = null; old.close(); }
  if (await load()) connect();
}

// The page opened: the view fetched (again every 5 s while the bot starts), then live.
export async function open() {
  while (!(await load())) {
    if (loaded !== 503) return;
    await new Promise((done) => setTimeout(done, 5000));
  }
  document.body.dataset.state = "live";
  heard = Date.now();
  connect();
  setInterval(beat, 1000);
}
