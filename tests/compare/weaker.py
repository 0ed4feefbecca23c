"""Bots for the compare tests, importable as ``tests.compare.weaker:Name``."""

from __future__ import annotations

import itertools

from arena.games.french_tarot import PASS, Action
from clients.heuristic_bot import HeuristicBot
from clients.random_bot import RandomBot
from clients.sdk import DecisionRequest, TableView


class NeverBids(HeuristicBot):
    """The heuristic bot, except that it never takes."""

    name = "never-bids"

    def bid(self, table: TableView, request: DecisionRequest) -> Action:
        return PASS


class Broken(HeuristicBot):
    """A bot whose every decision raises: its seats get the arena's fallbacks."""

    name = "broken"

    def decide(self, table: TableView, request: DecisionRequest) -> Action:
        raise RuntimeError("broken on purpose")

    bid = play = call = discard = chelem = decide  # type: ignore[assignment]


class Unseeded(RandomBot):
    """The random bot with another seed for each instance made in the process: two copies
    play differently (an A/A check of a bot whose play is not reproducible), the same way in
    every run."""

    name = "unseeded"
    made = itertools.count()

    def __init__(self) -> None:
        super().__init__(next(self.made))
