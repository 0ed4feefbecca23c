"""Which events an action produces: French Tarot's, now in the engine
(:mod:`arena.games.french_tarot.events`); this name stays until the runner speaks the game
interface."""

from arena.games.french_tarot.events import EVERYONE, event_mark, events_after

__all__ = ["EVERYONE", "event_mark", "events_after"]
