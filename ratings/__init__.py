"""Players' ratings per game kind: openskill's Plackett-Luce model, updated when a rated
game ends, in the transaction that ends it (games.effects.GameEnded). See docs/ratings.md."""
