"""The bot's leaf presentation values, neutral to every front end: what a message is
(`message.Rendered`, its text and rows of buttons) and what one seat sees of a deal
(`screen.Screen`); nothing here imports the games, the service, the chat pages or Telegram."""
