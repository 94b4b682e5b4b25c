// A stand-in for telegram-web-app.js in the browser tests (the machine has no network): it reads
// the launch parameters from the URL's fragment as the real script does and offers the parts of
// window.Telegram.WebApp the page uses, recording every call in window.__telegram.calls so a test
// can count haptic feedback, see the BackButton shown, and change the theme as a client does;
// the main button under the page is tapped by window.__telegram.main(), as a player taps it, and
// the secondary one beside it by window.__telegram.secondary().
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
  // the secondary button beside it (Bot API 7.10), stubbed the same way
  const second = { text: "", isVisible: false, isActive: true, position: "left", clicks: [] };
  second.setText = (text) => { calls.push(["SecondaryButton.setText", text]); second.text = text; };
  second.show = () => { calls.push(["SecondaryButton.show"]); second.isVisible = true; };
  second.hide = () => { calls.push(["SecondaryButton.hide"]); second.isVisible = false; };
  second.enable = () => { second.isActive = true; };
  second.disable = () => { second.isActive = false; };
  second.setParams = (params) => {
    calls.push(["SecondaryButton.setParams", params]);
    if (params.position) second.position = params.position;
  };
  second.onClick = (f) => { second.clicks.push(f); };
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
    isVersionAtLeast(v) {  // as the real script compares them: "7.10" is after "7.7"
      const [a, b] = [app.version, v].map((x) => String(x).split(".").map(Number));
      for (let i = 0; i < Math.max(a.length, b.length); i++) {
        if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) > (b[i] || 0);
      }
      return true;
    },
    onEvent(name, f) { (handlers[name] = handlers[name] || []).push(f); },
    offEvent(name, f) { handlers[name] = (handlers[name] || []).filter((g) => g !== f); },
    HapticFeedback: {
      impactOccurred: record("impactOccurred"),
      notificationOccurred: record("notificationOccurred"),
      selectionChanged: record("selectionChanged"),
    },
    BackButton: back,
    MainButton: main,
    SecondaryButton: second,
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
    secondary() {  // the player taps the secondary button, as the main one
      if (!second.isVisible || !second.isActive) return false;
      for (const f of second.clicks.slice()) f();
      return true;
    },
    secondaryText() { return second.isVisible ? second.text : null; },
  };
})();
