"""A database with tournaments in every state the page must show, played in-process.

- ``finished``: a rotation tournament played to the end, with an infraction (a bot that
  answers nonsense now and then: the arena records it and plays its fallback);
- ``running``: a rotation tournament half played: a board finished everywhere, a board
  finished at some tables only, a table claimed and being played, tables waiting;
- ``sealed``: a competition (sealed while it runs) in the same state.

Tables are claimed and committed through the real store, as the arena's runner does.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import trio

from arena.games.french_tarot import DealRecord
from arena.storage.bots import BotRegistry
from arena.storage.models import TableStatus, TournamentStatus
from clients.heuristic_bot import HeuristicBot
from clients.local import play_local
from clients.random_bot import RandomBot
from clients.sdk import Bot, TableView
from tests.claim_order import claimed_in_board_order
from tournaments.duplicate.settings import Seating, TournamentSettings
from tournaments.store import TournamentStore, new_worker_id


class Blunderer(RandomBot):
    """Fails on its first card of the deals it deals: an infraction every few deals (the
    arena records it and plays its fallback)."""

    name = "blunderer"

    def decide(self, table: TableView, request: Any) -> Any:
        if table.phase.value == "playing" and not table.tricks and table.dealer == table.seat:
            raise ValueError("lost my cards")
        return super().decide(table, request)


@dataclass
class ArenaData:
    store: TournamentStore
    bots: dict[str, Bot] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    finished: str = ""
    running: str = ""
    sealed: str = ""
    running_table: str = ""
    """A table of ``running`` claimed and being played (no result yet)."""
    worker: str = field(default_factory=new_worker_id)

    def register(self, name: str, bot: Bot) -> str:
        summary, _ = BotRegistry(self.store.engine).register(name)
        self.bots[summary.id] = bot
        self.names[summary.id] = name
        return summary.id

    def play(self, tournament_id: str, tables: int) -> list[str]:
        """Claim and play the next ``tables`` tables; their ids."""
        settings = self.store.settings(tournament_id)
        played = []
        for _ in range(tables):
            claim = self.store.claim_next(tournament_id, self.worker)
            if claim is None:
                break
            outcome = trio.run(lambda c=claim: play_local(
                c.deal, settings.table_options, [self.bots[b] for b in c.bots], c.table_id,
                bot_ids=list(c.bots), strict=False))
            assert self.store.finish(claim.table_id, self.worker, outcome)
            played.append(claim.table_id)
        return played

    def finish_running_table(self) -> str:
        """Play the table left claimed in ``running``: the page must show the change."""
        settings = self.store.settings(self.running)
        table_id = self.running_table
        for table, seats in self.store.tables(self.running):
            if table.id == table_id:
                deal = DealRecord.loads(self.store.boards(self.running)[table.board_number]
                                        .deal_json).deal
                bots = [s.bot_id for s in seats]
        outcome = trio.run(lambda: play_local(
            deal, settings.table_options, [self.bots[b] for b in bots], table_id,
            bot_ids=bots, strict=False))
        assert self.store.finish(table_id, self.worker, outcome)
        return table_id

    def hidden_tables(self, tournament_id: str) -> list[str]:
        """Tables whose cards must not be shown yet: of a board not finished everywhere."""
        tables = self.store.tables(tournament_id)
        open_boards = {t.board_number for t, _ in tables if t.status != TableStatus.DONE}
        return [t.id for t, _ in tables if t.board_number in open_boards]


VERSIONS_SEEN = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
"""When the heuristic first connected (with version 1.0; 2.0-rc1 two hours later)."""


def build(store: TournamentStore) -> ArenaData:
    logging.getLogger("clients.local").setLevel(logging.CRITICAL)  # the blunderer's errors
    data = ArenaData(store)
    heuristic = data.register("heuristic", HeuristicBot())
    blunder = data.register("blunderer", Blunderer(7))
    randoms = [data.register(f"random-{i}", RandomBot(i)) for i in range(1, 7)]
    registry = BotRegistry(store.engine)  # the versions the heuristic connected with
    registry.record_hello(heuristic, "HeuristicBot", "1.0", VERSIONS_SEEN)
    registry.record_hello(heuristic, "HeuristicBot", "1.0", VERSIONS_SEEN + timedelta(hours=1))
    registry.record_hello(heuristic, "HeuristicBot <beta>", "2.0-rc1",
                          VERSIONS_SEEN + timedelta(hours=2))
    four = [heuristic, blunder, *randoms[:2]]
    data.finished = store.create(TournamentSettings(
        name="Finished rotation", bots=tuple(four), boards=12, seed=11))
    store.set_status(data.finished, TournamentStatus.RUNNING)
    data.play(data.finished, 48)
    store.set_status(data.finished, TournamentStatus.FINISHED)

    data.running = store.create(TournamentSettings(
        name="Running rotation", bots=tuple(four), boards=3, seed=12))
    store.set_status(data.running, TournamentStatus.RUNNING)
    data.play(data.running, 6)  # board 0 complete, board 1 half played
    claim = store.claim_next(data.running, data.worker)
    assert claim is not None
    data.running_table = claim.table_id

    eight = [heuristic, blunder, *randoms]
    with claimed_in_board_order():
        data.sealed = store.create(TournamentSettings(
            name="Sealed competition", bots=tuple(eight), boards=4,
            seating=Seating.COMPETITION, seed=99991234))
    store.set_status(data.sealed, TournamentStatus.RUNNING)
    data.play(data.sealed, 3)  # board 0 (two tables) complete, board 1 half played
    return data
