"""The bot's Telegram client, its modules together: `api.py` (python-telegram-bot's ExtBot with
the presenter's two calls, and a message's neutral buttons as an inline keyboard), `http.py` (the
Bot API's requests over aiohttp) and `ratelimit.py` (Telegram's flood limits for new messages)."""
