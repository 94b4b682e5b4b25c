// Preferans's pulya sheet, a sub-view a tap away: each player's pulya and gora, and the sheet's
// picture as the group's photo shows it (fetched once per deal).

import { api, authorized, el, words } from "./shared.js";
import { closeButton } from "./telegram.js";

let sheetUrl = null;
let sheetDeals = -1;

export function drawSheet(deal) {
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
  fetch(api("sheet"), { headers: authorized() })
    .then((r) => (r.ok ? r.blob() : null))
    .then((blob) => {
      if (!blob) return;
      if (sheetUrl) URL.revokeObjectURL(sheetUrl);
      sheetUrl = URL.createObjectURL(blob);
      box.querySelector("img").src = sheetUrl;
      box.dataset.deals = String(deal.sheet.deals);
    });
}
