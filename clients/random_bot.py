"""A bot that picks uniformly among the legal actions, reproducibly.

Its choices depend only on (seed, the seat's hand as dealt, the dealer, the seat, how many
decisions that seat has been asked at that table): not on timing, on which tables run alongside,
on table ids or on the arena's request ids. So every tournament with the same boards replays the
same decisions. SHA-256 rather than :func:`hash`, whose value for strings changes with every
process.
"""

from __future__ import annotations

import hashlib
import random

from clients.sdk import Action, Bot, DecisionRequest, TableView


class RandomBot(Bot):
    name = "random"
    version = "1"
    threaded = False  # a choice costs less than a thread hop

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def rng_for(self, table: TableView) -> random.Random:
        """The generator for ``table``'s current decision."""
        dealt = ",".join(map(str, table.dealt_hand()))
        key = (f"tarot-arena/random-bot/{self.seed}/{dealt}/{table.dealer}/{table.seat}/"
               f"{table.decisions}")
        digest = hashlib.sha256(key.encode()).digest()
        return random.Random(int.from_bytes(digest[:8], "little"))

    def decide(self, table: TableView, request: DecisionRequest) -> Action:
        return self.rng_for(table).choice(request.legal_actions)
