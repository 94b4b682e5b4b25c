"""The bot's leaf presentation kit: what a message is (`message.Rendered`); nothing here imports
the games, the service or the chat pages."""
