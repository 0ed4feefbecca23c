"""A database with one small tournament of every game form, played in-process with random
legal moves: French Tarot for 2 (with the dummy), 3, 4 and 5 players and its beginner variant,
Tre e Venticinque, and the toy game (registered for the test only, as a plugin would be).

Some decisions at the dummy's seat are infractions (the defender's bot answers nonsense there),
so that the pages can be checked to charge them to the defender.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import trio

from arena import games
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.table import PlayerInfo, TableRunner, TimeControl
from arena.table.messages import DecisionRequest
from tests.table.fakes import FakeSeat
from tests.toy_game.game import TOY_GAME
from tournaments.duplicate.settings import TournamentSettings
from tournaments.store import TournamentStore

FORMS: dict[str, dict[str, object]] = {
    "french-2": {"players": 2},
    "french-3": {"players": 3},
    "french-4": {"players": 4},
    "french-5": {"players": 5},
    "beginner-4": {"players": 4, "game_settings": {"beginner": True}},
    "tre": {"game": "tre-e-venticinque", "players": 3, "boards": 3},
    "toy": {"game": "toy", "players": 3},
}


@dataclass
class EveryGame:
    store: TournamentStore
    bots: tuple[str, ...]
    names: dict[str, str]
    tournaments: dict[str, str] = field(default_factory=dict)
    """form -> tournament id."""

    def table(self, form: str, played: bool = True) -> str:
        """The first table of ``form``'s tournament (with a played deal if ``played``)."""
        for table, _ in self.store.tables(self.tournaments[form]):
            if not played or table.outcome == "played":
                return table.id
        raise AssertionError(f"no played table in {form}")


def play_at_random(store: TournamentStore, tid: str, seed: int, dummy_blunders: bool = False
                   ) -> None:
    """Every table of ``tid``, each seat choosing a legal action at random (``seed``)."""
    rng = random.Random(seed)

    async def choose(request: DecisionRequest) -> object:
        # with the dummy: the defender answers nonsense for the dummy now and then
        if dummy_blunders and request.seat == 2 and rng.random() < 0.3:
            return "not an action"
        return rng.choice(request.legal_actions)

    while (claim := store.claim_next(tid, "w", 30.0)) is not None:
        seats = [FakeSeat(choose) for _ in claim.bots]
        players = [PlayerInfo(s, b, b) for s, b in enumerate(claim.bots)]
        outcome = trio.run(TableRunner(claim.table_id, claim.state, seats, players,
                                       TimeControl(1.0)).run)
        assert store.finish(claim.table_id, "w", outcome)


def build(folder: Path) -> EveryGame:
    engine = make_engine(f"sqlite:///{folder}/arena.db")
    registry = BotRegistry(engine)
    names = ("ann", "bob", "cyd", "dee", "eve")
    bots = tuple(registry.register(name)[0].id for name in names)
    store = TournamentStore(engine)
    data = EveryGame(store, bots, dict(zip(bots, names, strict=True)))
    for seed, (form, settings) in enumerate(FORMS.items(), start=1):
        options = dict(settings)
        players = int(options.pop("players"))  # type: ignore[call-overload]
        boards = int(options.pop("boards", 2))  # type: ignore[call-overload]
        tid = store.create(TournamentSettings(
            form, bots[:max(players, 2)], players=players, boards=boards, seed=seed,
            **options))  # type: ignore[arg-type]
        play_at_random(store, tid, seed, dummy_blunders=players == 2)
        data.tournaments[form] = tid
    return data


@pytest.fixture(scope="module")
def every_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EveryGame]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(games._GAMES, TOY_GAME.name, TOY_GAME)
        yield build(tmp_path_factory.mktemp("every_game"))
