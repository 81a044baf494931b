"""Storage: every key the game keeps, the format and version of each, and the stores."""
