"""Bots of known order for the ladder's tests and bench, and an in-process arena that bots
join and leave."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import trio

from arena.table import DecisionRequest
from clients.heuristic_bot import HeuristicBot
from clients.local import LocalArena
from clients.sdk import Bot, TableView
from clients.tre_bots import TreHeuristicBot


class Noisy(Bot):
    """Another bot that, at a share of its decisions drawn from the cards it sees, plays a
    legal action at random instead: weaker the noisier, and still reproducible."""

    threaded = False

    def __init__(self, inner: Bot, noise: float, seed: int = 0) -> None:
        self.inner = inner
        self.noise = noise
        self.seed = seed
        self.games = inner.games
        self.name = f"{inner.display_name}-noise{noise:g}"

    def method_for(self, request: DecisionRequest) -> Any:
        own = self.inner.method_for(request)

        def decide(table: TableView, asked: DecisionRequest) -> Any:
            key = f"{self.seed}/{table.seat}/{table.dealer}/{table.hand}/{table.decisions}"
            rng = random.Random(hashlib.sha256(key.encode()).digest())
            if rng.random() < self.noise:
                return rng.choice(asked.legal_actions)
            return own(table, asked)

        return decide


def heuristic(game: str) -> Bot:
    return TreHeuristicBot() if game == "tre-e-venticinque" else HeuristicBot()


class ComingAndGoing(LocalArena):
    """An in-process arena whose bots arrive and leave, saying so to whoever waits."""

    def __init__(self, bots: Mapping[str, Bot]) -> None:
        super().__init__(bots)
        self._changed = trio.Event()

    def arrive(self, bot_id: str, bot: Bot) -> None:
        self.bots[bot_id] = bot
        self._changed.set()
        self._changed = trio.Event()

    def leave(self, bot_id: str) -> None:
        self.bots.pop(bot_id, None)
        self._changed.set()
        self._changed = trio.Event()

    def connected_bots(self) -> Collection[str]:
        return list(self.bots)

    def awaiting(self, bot_ids: Sequence[str], game: str) -> list[str]:
        return super().awaiting(bot_ids, game)

    async def wait_change(self) -> None:
        await self._changed.wait()
