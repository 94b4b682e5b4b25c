"""The table as a Telegram Mini App: the page, its API and its WebSocket, served by
the bot's own process with aiohttp; a page is one more front end that receives a seat's view
and sends a seat's press through the same service path as a chat button."""
