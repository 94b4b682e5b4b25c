// Telegram's client around the page, each feature guarded for older clients: the theme, the main
// button under the page and the secondary one beside it, no swipe-to-close mid-deal, the
// BackButton closing a sub-view (the sheet, the last trick, the last deal, the review),
// fullscreen on a phone.

import { el, hash, haptic, primaryOf, press, state, tg } from "./shared.js";

export function theme() {
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
export function primaryChoice() {
  if (!tg || !tg.MainButton) return null;
  return primaryOf(state.view);
}

export function setMain(choice) {
  state.mainPress = choice ? choice.press : null;
  if (choice) document.body.dataset.main = choice.press; else delete document.body.dataset.main;
  if (!tg || !tg.MainButton) return;
  try {
    if (choice) { tg.MainButton.setText(choice.label); tg.MainButton.enable(); tg.MainButton.show(); }
    else tg.MainButton.hide();
  } catch (e) { /* an old client */ }
}

// A second step beside the main button (Bot API 7.10; at a result, the review): `action`, its
// label and what a tap does, or null. Hidden while a sub-view is open (it opens one); an older
// client has none, and the page keeps its own button for it (`hasSecondary`).
let second = null;

export function hasSecondary() {
  return Boolean(tg && tg.SecondaryButton && tg.isVersionAtLeast && tg.isVersionAtLeast("7.10"));
}

export function setSecondary(action) {
  second = action;
  showSecondary();
}

function showSecondary() {
  if (!hasSecondary()) return;
  const shown = second && !document.querySelector(".sub:not([hidden])");
  try {
    if (shown) {
      tg.SecondaryButton.setText(second.label);
      tg.SecondaryButton.enable();
      tg.SecondaryButton.show();
    } else tg.SecondaryButton.hide();
  } catch (e) { /* an old client */ }
}

// During a deal a vertical drag (over the hand, say) must not close the app (Bot API 7.7).
let swipesOff = false; // as a client opens the app

export function swipes(off) {
  if (!tg || off === swipesOff || !(tg.isVersionAtLeast && tg.isVersionAtLeast("7.7"))) return;
  swipesOff = off;
  try { if (off) tg.disableVerticalSwipes(); else tg.enableVerticalSwipes(); } catch (e) { /* old */ }
}

export function openSub(id) {
  closeSub();
  const box = document.getElementById(id);
  box.hidden = false;
  if (tg && tg.BackButton) { try { tg.BackButton.show(); } catch (e) { /* old */ } }
  showSecondary();
}

export function closeSub() {
  for (const box of document.querySelectorAll(".sub")) box.hidden = true;
  if (tg && tg.BackButton) { try { tg.BackButton.hide(); } catch (e) { /* old */ } }
  showSecondary();
}

export function subOpen(id) {
  return !document.getElementById(id).hidden;
}

// A button of the felt's tools that opens a sub-view.
export function toolButton(label, id) {
  const button = el("button", "tool", label);
  button.type = "button";
  button.dataset.open = id;
  button.addEventListener("click", () => { haptic("impact", "light"); openSub(id); });
  return button;
}

export function closeButton() {
  const button = el("button", "tool close", "✕");
  button.type = "button";
  button.addEventListener("click", closeSub);
  return button;
}

// The client told the page is here: ready, expanded, its theme followed, its Back, main and
// secondary buttons heard (the secondary one left of the main one); fullscreen on a phone (Bot API 8.0): the table takes the whole screen, inside
// its safe areas.
export function greet() {
  if (!tg) return;
  try { tg.ready(); tg.expand(); } catch (e) { /* an old client */ }
  try { tg.onEvent("themeChanged", theme); } catch (e) { /* an old client */ }
  try { tg.BackButton.onClick(closeSub); } catch (e) { /* an old client */ }
  try { tg.MainButton.onClick(() => { if (state.mainPress) press(state.mainPress); }); } catch (e) { /* old */ }
  if (hasSecondary()) {
    try {
      tg.SecondaryButton.setParams({ position: "left" });
      tg.SecondaryButton.onClick(() => { if (second) { haptic("impact", "light"); second.run(); } });
    } catch (e) { /* an old client */ }
  }
  if (tg.isVersionAtLeast && tg.isVersionAtLeast("8.0") && ["android", "ios"].includes(tg.platform)) {
    try { tg.requestFullscreen(); } catch (e) { /* an old client */ }
  }
}
