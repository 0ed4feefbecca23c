"""The games of the arena, one package each, and the interface they share."""
