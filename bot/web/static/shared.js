// What every part of the page shares: the launch data and the API's address, the view shown and
// the page's words, el() (every text goes in as text, textContent, never as HTML), haptics, and
// `press`, the one function through which every press is sent (a card, a bid, a word, the lobby's
// buttons, Telegram's main button, the review's "play again"), by the same path as a chat press.

export const hash = new URLSearchParams(location.hash.slice(1));
export const tg = (window.Telegram && window.Telegram.WebApp) || null;
export const initData = (tg && tg.initData) || hash.get("tgWebAppData") || "";
// the API beside the page's own scripts (WEBAPP_URL's path), whatever address Telegram opened
export const base = new URL("..", import.meta.url);

// The page's state: the table it follows, the view shown (stamped where it was made), the press
// on Telegram's main button, whether the bot has gone silent.
export const state = {
  table: new URLSearchParams(location.search).get("table") || "",
  view: null,
  made: 0,
  mainPress: null,
  silent: false,
};

// the page's words: sent with the opening view and each connection's first message
export const words = {};

export function setWords(next) {
  for (const key of Object.keys(words)) delete words[key];
  Object.assign(words, next);
}

// What the entry module fills in: drawing the view anew, taking a view the bot sent, and saying
// why the page is refused (the modules below it call them without importing it).
export const page = {
  render: () => {},
  show: () => {},
  refuse: () => {},
};

export function api(path) {
  const url = new URL("api/" + path, base);
  if (state.table) url.searchParams.set("table", state.table);
  return url.href;
}

export function authorized() {
  return { Authorization: "tma " + initData };
}

// Telegram's haptic feedback, guarded for older clients.
export function haptic(kind, value) {
  const feedback = tg && tg.HapticFeedback;
  if (!feedback || (tg.isVersionAtLeast && !tg.isVersionAtLeast("6.1"))) return;
  try {
    if (kind === "impact") feedback.impactOccurred(value);
    else feedback.notificationOccurred(value);
  } catch (e) { /* an old client */ }
}

export function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

// A message sent as data (its runs of words, the stressed ones `strong`) drawn as text.
export function saidNode(tag, cls, said) {
  const node = el(tag, cls);
  if (said) appendSaid(node, said);
  return node;
}

export function appendSaid(node, said) {
  for (const run of said.text) {
    node.append(run.strong ? el("strong", null, run.text) : document.createTextNode(run.text));
  }
}

export function notice(text) {
  const box = document.getElementById("notice");
  box.textContent = text || "";
  box.hidden = !text;
}

// A choice of the table as a real <button> whose press is the chat button's callback data.
export function wordButton(choice, cls) {
  const button = el("button", "word" + (cls ? " " + cls : "") + (choice.primary ? " primary" : ""),
    choice.label);
  button.type = "button";
  button.dataset.press = choice.press;
  button.addEventListener("click", () => press(choice.press));
  return button;
}

// The choice that moves the table on (Start, the next deal, a discard confirmed), if any.
export function primaryOf(view) {
  if (!view) return null;
  const choices = [...((view.deal && view.deal.choices) || []), ...(view.choices || []).flat()];
  return choices.find((c) => c.primary) || null;
}

// Every press goes here: the page's buttons greyed out until the bot answers, the answer drawn
// (a refusal said in the bot's words, with its link where it has one).
export async function press(data) {
  haptic("impact", "light");
  for (const b of document.querySelectorAll("button[data-press]")) b.disabled = true;
  if (data === state.mainPress) { try { tg.MainButton.disable(); } catch (e) { /* an old client */ } }
  try {
    const response = await fetch(api("press"), {
      method: "POST",
      headers: { ...authorized(), "Content-Type": "application/json" },
      body: JSON.stringify({ press: data }),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      haptic("notification", "error");
      if (response.status === 401) { page.refuse(body, response.status); return; }
      page.render();
      notice(body.text || String(response.status));
      if (body.url) document.getElementById("notice").append(" ", linkButton(body.url));
      return;
    }
    page.show(body);
  } catch (e) {
    page.render();
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
