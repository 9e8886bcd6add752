"""Writing a render plan to disk: the state file, conflict checks, atomic all-or-nothing apply."""
