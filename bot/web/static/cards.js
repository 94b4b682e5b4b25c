// Cards drawn as cards: a face (rank over suit in the corner, a big pip), a row of them, the
// backs of a hand not in view, and the deck's colours the player picks.

import { el, haptic, page, press, state, tg, words } from "./shared.js";

const RED = new Set(["H", "D"]);

// A card drawn as a card: its rank in the player's language and its suit, named as the chat
// names it (8♠, Д♥); `press`: a button (a card to play now, or to mark for the discard). A card
// of the player's own hand (`held`) is a button even when not to play now, disabled then.
export function cardNode(card, size, held) {
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

export function cardsRow(cards, size, cls, held) {
  const row = el("div", "cards " + (cls || ""));
  for (const c of cards) row.append(cardNode(c, size, held));
  return row;
}

// While some card is to play, the cards of `row` that are not are dimmed.
export function dimUnplayable(row, cards) {
  if (!anyPlayable()) return;
  cards.forEach((c, i) => { if (!c.press) row.children[i].classList.add("dim"); });
}

function anyPlayable() {
  const deal = state.view.deal;
  const playable = (cards) => (cards || []).some((c) => c.press);
  return playable(deal.hand) || deal.seats.some((s) => playable(s.open_hand));
}

// A hand not in view: its backs fanned, with their count.
export function backs(n) {
  const box = el("div", "backs");
  box.dataset.count = String(n);
  const fan = el("span", "fan");
  for (let i = 0; i < Math.min(n, 6); i++) fan.append(el("span", "back"));
  box.append(fan, el("span", "count", "×" + n));
  return box;
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

export function loadDeck() {
  try { setDeck(localStorage.getItem("deck") === "4"); } catch (e) { /* no storage */ }
  const store = cloud();
  if (!store) return;
  try { store.getItem("deck", (error, value) => { if (!error && value) setDeck(value === "4"); }); }
  catch (e) { /* an old client */ }
}

export function deckButton() {
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
    page.render();
  });
  return button;
}

// Every hand as dealt (beside a result where the chat shows them, and in the review), the talon
// and the discard under them.
export function handsNodes(hands, talonWord, discardWord) {
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
