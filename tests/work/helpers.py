"""A small local compare queued for workers, for the tests of the work queue."""

from __future__ import annotations

from arena.storage.db import make_engine
from clients.run import load_bot
from tournaments.cli.local_bots import SdkBots
from tournaments.duplicate.sprt import SprtSettings, Units
from tournaments.play import compare
from tournaments.store import TournamentStore
from tournaments.work.compares import pin_compare

HEURISTIC = "heuristic"
NEVER_BIDS = "tests.compare.weaker:NeverBids"
SETTINGS = SprtSettings(0, 10, Units.POINTS, max_boards=40, min_boards=10)
"""Decides within 10-20 boards: the heuristic bot against itself that never takes."""


def queued_compare(store: TournamentStore, seed: int = 11, players: int = 3,
                   candidate: str = HEURISTIC, baseline: str = NEVER_BIDS,
                   settings: SprtSettings = SETTINGS) -> str:
    """A local compare of ``candidate`` against ``baseline``, queued with its bots pinned."""
    config = compare.CompareConfig(True, candidate, baseline, settings)
    ids = compare.local_bot_ids(store, candidate, baseline)
    tid = compare.create(store, config, ids, players=players, seed=seed, per_decision=60.0)
    pin_compare(store, tid, {ids[0]: load_bot(candidate, {}), ids[1]: load_bot(baseline, {})},
                SdkBots())
    return tid


def new_store(url: str) -> TournamentStore:
    return TournamentStore(make_engine(url))
