"""Play someone now: players ask for a game of a kind and are seated with strangers of close ratings
(docs/pairing.md), and may block a player they never want to be seated with again."""
