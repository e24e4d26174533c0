"""Table referee for the Shadows Upon Lassadar games (the solo referee is the next milestone)."""
