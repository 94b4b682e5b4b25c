// A stand-in for telegram-web-app.js in the browser tests (the machine has no network): it reads
// the launch parameters from the URL's fragment as the real script does and offers the parts of
// window.Telegram.WebApp the page uses, recording every call in window.__telegram.calls so a test
// can count haptic feedback, see the BackButton shown, and change the theme as a client does;
// the main button under the page is tapped by window.__telegram.main(), as a player taps it.
(function () {
  "use strict";
  const hash = new URLSearchParams(location.hash.slice(1));
  const calls = [];
  const handlers = {};
  let theme = {};
  try { theme = JSON.parse(hash.get("tgWebAppThemeParams") || "{}"); } catch (e) { theme = {}; }
  const initData = hash.get("tgWebAppData") || "";
  const record = (name) => (...args) => { calls.push([name, ...args]); };
  const back = { isVisible: false, clicks: [] };
  back.show = () => { calls.push(["BackButton.show"]); back.isVisible = true; };
  back.hide = () => { calls.push(["BackButton.hide"]); back.isVisible = false; };
  back.onClick = (f) => { back.clicks.push(f); };
  back.offClick = (f) => { back.clicks = back.clicks.filter((g) => g !== f); };
  const main = { text: "", isVisible: false, isActive: true, clicks: [] };
  main.setText = (text) => { calls.push(["MainButton.setText", text]); main.text = text; };
  main.show = () => { calls.push(["MainButton.show"]); main.isVisible = true; };
  main.hide = () => { calls.push(["MainButton.hide"]); main.isVisible = false; };
  main.enable = () => { main.isActive = true; };
  main.disable = () => { main.isActive = false; };
  main.onClick = (f) => { main.clicks.push(f); };
  // CloudStorage: the user's keys, kept across the page's loads (in the browser's storage)
  const cloudKeys = () => JSON.parse(localStorage.getItem("__cloud") || "{}");
  const cloud = {
    setItem(key, value, done) {
      calls.push(["CloudStorage.setItem", key, value]);
      localStorage.setItem("__cloud", JSON.stringify({ ...cloudKeys(), [key]: value }));
      if (done) setTimeout(() => done(null, true));
    },
    getItem(key, done) { setTimeout(() => done(null, cloudKeys()[key] || "")); },
  };
  const app = {
    initData,
    version: hash.get("tgWebAppVersion") || "6.0",
    platform: hash.get("tgWebAppPlatform") || "unknown",
    themeParams: theme,
    colorScheme: "light",
    isExpanded: false,
    ready: record("ready"),
    expand() { calls.push(["expand"]); app.isExpanded = true; },
    close: record("close"),
    openTelegramLink: record("openTelegramLink"),
    isVersionAtLeast(v) { return parseFloat(app.version) >= parseFloat(v); },
    onEvent(name, f) { (handlers[name] = handlers[name] || []).push(f); },
    offEvent(name, f) { handlers[name] = (handlers[name] || []).filter((g) => g !== f); },
    HapticFeedback: {
      impactOccurred: record("impactOccurred"),
      notificationOccurred: record("notificationOccurred"),
      selectionChanged: record("selectionChanged"),
    },
    BackButton: back,
    MainButton: main,
    CloudStorage: cloud,
    disableVerticalSwipes: record("disableVerticalSwipes"),
    enableVerticalSwipes: record("enableVerticalSwipes"),
    requestFullscreen: record("requestFullscreen"),
  };
  window.Telegram = { WebApp: app };
  window.__telegram = {
    calls,
    count(name, arg) {
      return calls.filter((c) => c[0] === name && (arg == null || c[1] === arg)).length;
    },
    setTheme(params, scheme) {  // what a client does when its user switches the theme
      app.themeParams = params; app.colorScheme = scheme || "dark";
      for (const f of handlers.themeChanged || []) f.call(app);
    },
    back() { for (const f of back.clicks.slice()) f(); },
    main() {  // the player taps the main button: nothing while it is hidden or greyed out
      if (!main.isVisible || !main.isActive) return false;
      for (const f of main.clicks.slice()) f();
      return true;
    },
    mainText() { return main.isVisible ? main.text : null; },
  };
})();
