"""Bots for Tre e Venticinque, written with the SDK like any bot: the policies of
:mod:`clients.tre_heuristic` on the view's observation.

    tarot-arena bot clients.tre_bots:TreHeuristicBot --server HOST:PORT --token-file bot.token

The search bot plays both games: ``tarot-arena bot clients.search_bot:SearchBot`` (or
:class:`TreSearchBot`, this game only).

The arena knows the game once it is registered, or named by ``TAROT_ARENA_GAMES=
arena.games.tre_e_venticinque:TRE_E_VENTICINQUE`` in the environments of the arena and the bots.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from arena.table.messages import DecisionRequest
from clients.sdk import Bot, TableView
from clients.search_timing import TimedSearch
from clients.tre_heuristic import heuristic_choice, random_choice
from clients.tre_search import tre_play


class TreHeuristicBot(Bot):
    """Saves the Matto, takes the 1 and the 21, plays to the points (see
    :mod:`clients.tre_heuristic`)."""

    name = "tre-heuristic"
    version = "1"
    threaded = False  # a choice costs well under a millisecond
    games = ("tre-e-venticinque",)

    def decide(self, table: TableView, request: DecisionRequest) -> Any:
        return heuristic_choice(table.observation)


class TreRandomBot(Bot):
    """A legal action picked uniformly, reproducibly: the choice depends only on the seed and
    on what the seat sees (its hand, the dealer, the tricks so far), never on timing or ids."""

    name = "tre-random"
    version = "1"
    threaded = False
    games = ("tre-e-venticinque",)

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, table: TableView, request: DecisionRequest) -> Any:
        view = table.observation
        key = (f"tarot-arena/tre-random-bot/{self.seed}/{view.seat}/{view.dealer}/{view.hand}/"
               f"{len(view.tricks)}/{view.current_trick}")
        digest = hashlib.sha256(key.encode()).digest()
        return random_choice(view, random.Random(int.from_bytes(digest[:8], "little")))


class TreSearchBot(TimedSearch, Bot):
    """Determinized Monte Carlo card play over the heuristic's discard (see
    :mod:`clients.tre_search`); the knobs of :class:`clients.search_bot.SearchBot`, which plays
    this game the same way (``samples=N`` draws per decision, reproducible; otherwise the
    request's time limit less a margin)."""

    name = "tre-search"
    version = "1"
    threaded = True  # a decision takes its whole time: keep the connection's messages flowing
    games = ("tre-e-venticinque",)

    def decide(self, table: TableView, request: DecisionRequest) -> Any:
        return tre_play(self, table, request)
