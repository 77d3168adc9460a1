"""Results of finished games: statistics, high-score lists, the history and seeded data."""
