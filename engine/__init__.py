"""The pure game engine: rules as data and state machines; no Telegram, storage, text or asyncio."""
