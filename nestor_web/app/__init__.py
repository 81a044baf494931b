"""State and commands: the game manager, settings, statistics rules and the URL."""
