"""Pages and URLs: views for the games, the lobby, players' statistics, history and high scores."""
