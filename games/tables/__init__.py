"""Tables: create, join, leave, start and play again; the lobby's reads; the new-game form."""
