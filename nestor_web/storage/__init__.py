"""The storage manager: every key, every codec and version, the archive of games in progress,
setting aside unreadable data, and the memory fallback."""
