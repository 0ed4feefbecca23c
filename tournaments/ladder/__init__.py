"""The ladder: a standing duplicate competition that bots join, leave and come back to.

Its settings (:mod:`.settings`), the rating fitted to its duplicate results (:mod:`.rating`),
who plays which board next (:mod:`.matchmaking`), all pure; the service that keeps every ladder
playing on an arena (:mod:`.service`) with the one tournament runner. docs/ladder.md says how
it is played and what the rating means.
"""
