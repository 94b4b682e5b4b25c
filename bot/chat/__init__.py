"""The chat's game-neutral messages and menus, which read the game registry: the lobby's
message (`lobby`), /pot and the /history lines and accounts each game tells (`lines`), the
settings menu, /stats, the evening's summary (`evening`) and what a player is told about his
turn (`turns`)."""
