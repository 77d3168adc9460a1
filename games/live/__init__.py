"""The live path: the websocket consumer, protocol parsing, the move core and its two drivers,
broadcast, presence, rate limits and the dice source."""
