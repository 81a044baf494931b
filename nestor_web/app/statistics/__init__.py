"""Statistics per variant: games played and won, streaks, the fastest win, the daily record."""
