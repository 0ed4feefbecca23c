"""Bots for the compare tests, importable as ``tests.compare.weaker:Name``."""

from __future__ import annotations

from arena.games.french_tarot import PASS, Action
from clients.heuristic_bot import HeuristicBot
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
