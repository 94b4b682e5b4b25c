// The lobby drawn as the table: the game's name on the felt, a chair on it for each player
// seated (his avatar, his name, his rating), and an empty chair while the table has room.

import { el, state, words } from "./shared.js";
import { plate } from "./table.js";

export function drawLobby(seats) {
  const view = state.view;
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

// The league's rating of a player in this game ("?": provisional), beside his name.
export function ratingNode(rating) {
  const node = el("span", "rating", "🏆 " + rating);
  node.title = words.rating || "";
  return node;
}
