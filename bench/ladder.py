"""The ladder against a fixed competition and a plain rating: deals until a close pair is told
apart.

The close pair is ``HeuristicBot`` and the same bot playing a random legal action at a share
(``--noise``) of its decisions; the field around them is two more heuristic bots and two
random ones (three-player French Tarot by default, ``--players``; twice as many bots as seats).
Each method "needs" the deals played when the pair's 95 % intervals first stop overlapping
(checked every ``--step`` deals; a method that never gets there within the cap is reported as
such):

- **ladder-margin**: the ladder's own service plays the bots in this process (matchmaking,
  boards drawn on demand, every table stored) and :func:`tournaments.ladder.standings.fitted`
  rates the results so far with the margin model, the ladder's default (the score
  differences of the duplicate comparisons; the intervals of docs/ladder.md);
- **ladder-wins**: the same ladder's very results rated by who won each comparison
  (Bradley-Terry, the ``wins`` model);
- **competition**: a competition tournament of the same bots (two tables a board, no bot
  twice on a board), played board after board by the tournament runner; the standings of the
  boards so far (each bot's mean datum per board and its 95 % t interval);
- **plain**: the ladder's very deals rated without duplicate: Bradley-Terry on the results of
  the seats of one table against each other (who outscored whom at the table, as an Elo-style
  ladder rates games), the same fit and intervals as the ladder's.

Every repetition (``--seeds``) uses a new ladder seed, tournament seed and matchmaking; the
figures are each method's deals needed per seed and their medians, and the ratios to the
margin ladder's. The deals are played once per method (the ladder's serve both its models and
its plain rating; its matchmaking reads the margin model's ratings).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import trio

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.table import DecisionRequest
from clients.heuristic_bot import HeuristicBot
from clients.local import LocalArena
from clients.random_bot import RandomBot
from clients.sdk import Bot, TableView
from tournaments.duplicate.scoring import compute_standings
from tournaments.duplicate.settings import Seating, TournamentSettings
from tournaments.ladder.rating import Play, RatingModel, fit
from tournaments.ladder.service import LadderService
from tournaments.ladder.settings import LadderSettings
from tournaments.ladder.standings import fitted
from tournaments.play.runner import TournamentRunner
from tournaments.storage.ladders import LadderStore
from tournaments.store import TournamentStore

METHODS = ("ladder-margin", "ladder-wins", "competition", "plain")


class NoisyHeuristic(HeuristicBot):
    """The heuristic bot, playing a legal action at random at a share of its decisions (drawn
    from what its seat sees: reproducible)."""

    def __init__(self, noise: float, seed: int) -> None:
        self.noise = noise
        self.seed = seed

    def method_for(self, request: DecisionRequest) -> Any:
        own = super().method_for(request)

        def decide(table: TableView, asked: DecisionRequest) -> Any:
            key = f"{self.seed}/{table.seat}/{table.dealer}/{table.hand}/{table.decisions}"
            rng = random.Random(hashlib.sha256(key.encode()).digest())
            return rng.choice(asked.legal_actions) if rng.random() < self.noise else own(
                table, asked)

        return decide


def field(noise: float, seed: int) -> list[tuple[str, Bot]]:
    """The close pair first, then the others: (name, bot)."""
    return [("heuristic", HeuristicBot()), ("noisy", NoisyHeuristic(noise, seed)),
            ("heuristic-2", HeuristicBot()), ("heuristic-3", HeuristicBot()),
            ("random-1", RandomBot(seed)), ("random-2", RandomBot(seed + 1))]


def registered(store: TournamentStore, bots: Sequence[tuple[str, Bot]], players: int
               ) -> dict[str, Bot]:
    registry = BotRegistry(store.engine)
    wanted = [bots[i % len(bots)] for i in range(max(len(bots), 2 * players))]
    return {registry.register(f"{name}-{i}")[0].id: bot for i, (name, bot) in enumerate(wanted)}


def first_apart(ids: tuple[str, str], checks: Sequence[tuple[int, Any]]) -> int | None:
    """The deals at the first check whose intervals for the pair do not overlap."""
    for deals, intervals in checks:
        (a_low, a_high), (b_low, b_high) = intervals[ids[0]], intervals[ids[1]]
        if a_low > b_high or b_low > a_high:
            return deals
    return None


def ladder_run(players: int, noise: float, seed: int, cap: int, step: int, folder: Path
               ) -> tuple[int | None, int | None, int | None]:
    """Deals the ladder's margin rating, its wins rating and a plain rating of its games
    needed."""
    store = TournamentStore(make_engine(f"sqlite:///{folder}/ladder-{seed}.db"))
    ladders = LadderStore(store.engine)
    settings = LadderSettings(name="bench", players=players, per_decision=60.0,
                              model=RatingModel.MARGIN)
    by_wins = replace(settings, model=RatingModel.WINS)
    lid = ladders.create(settings, seed=seed).id
    bots = registered(store, field(noise, seed), players)
    for bot in bots:
        ladders.join(lid, bot)
    service = LadderService(store, LocalArena(bots), recheck=0.2, rng=random.Random(seed))

    async def play() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(service.run, lid)
            while await trio.to_thread.run_sync(ladders.tables_done, lid) < cap:
                await trio.sleep(0.1)
            nursery.cancel_scope.cancel()

    trio.run(play)
    rows = ladders.plays(lid)
    entries = ladders.entries(lid)
    entry_of = {e.bot_id: e.id for e in entries}
    pair = tuple(list(bots)[:2])
    order = list(dict.fromkeys(r.table_id for r in rows))
    margin: list[tuple[int, Any]] = []
    wins: list[tuple[int, Any]] = []
    plain: list[tuple[int, Any]] = []
    for deals in range(step, len(order) + 1, step):
        known = set(order[:deals])
        some = [r for r in rows if r.table_id in known]
        for checks, ratings in ((margin, fitted(some, entries, settings)),
                                (wins, fitted(some, entries, by_wins)),
                                (plain, plain_fit(some))):
            checks.append((deals, {b: (ratings[entry_of[b]].low, ratings[entry_of[b]].high)
                                   for b in pair}))
    ids = (pair[0], pair[1])
    return first_apart(ids, margin), first_apart(ids, wins), first_apart(ids, plain)


def plain_fit(rows: Sequence[Any]) -> Any:
    """Bradley-Terry on who outscored whom at each table (no duplicate): each table is a
    "board" of its own whose seats are one group, so every pair of its seats is compared."""
    return fit(Play(hash(r.table_id) & 0xFFFFFFF, 0, r.entry_id, r.score) for r in rows)


def competition_run(players: int, noise: float, seed: int, cap: int, step: int,
                    folder: Path) -> int | None:
    """Deals a fixed competition of the same bots needed."""
    store = TournamentStore(make_engine(f"sqlite:///{folder}/competition-{seed}.db"))
    bots = registered(store, field(noise, seed), players)
    tables = len(bots) // players
    boards = max(1, cap // tables)
    settings = TournamentSettings(
        name="bench", bots=tuple(bots), seating=Seating.COMPETITION, players=players,
        boards=boards, seed=seed, per_decision=60.0, tables_per_board=tables)
    tid = store.create(settings)
    runner = TournamentRunner(store, LocalArena(bots), tid, seat_timeout=None,
                              wait_elsewhere=False)
    trio.run(runner.run)
    entries = store.entries(tid)
    pair = list(bots)[:2]
    checks = []
    for deals in range(step, boards * tables + 1, step):
        upto = deals // tables
        rows = {r.bot_id: r for r in compute_standings(
            e for e in entries if e.board < upto).rows}
        if all(b in rows for b in pair):
            checks.append((deals, {b: (rows[b].per_board.mean - rows[b].per_board.half_width,
                                       rows[b].per_board.mean + rows[b].per_board.half_width)
                                   for b in pair}))
    return first_apart((pair[0], pair[1]), checks)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--noise", type=float, default=0.25,
                        help="the noisy bot's share of random decisions")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--deals", type=int, default=240, help="cap per method and seed")
    parser.add_argument("--step", type=int, default=12, help="deals between checks")
    args = parser.parse_args(argv)
    figures: dict[str, list[int | None]] = defaultdict(list)
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(1, args.seeds + 1):
            margin, wins, plain = ladder_run(args.players, args.noise, seed, args.deals,
                                             args.step, Path(folder))
            competition = competition_run(args.players, args.noise, seed, args.deals,
                                          args.step, Path(folder))
            found = dict(zip(METHODS, (margin, wins, competition, plain), strict=True))
            for name, value in found.items():
                figures[name].append(value)
            print(f"seed {seed}: " + ", ".join(f"{name} {_deals(value, args.deals)}"
                                               for name, value in found.items()), flush=True)
    print(f"\nFrench Tarot, {args.players} players: heuristic against itself with "
          f"{args.noise:.0%} random decisions, among 2 heuristics and 2 random bots; deals "
          f"until their 95 % intervals part (cap {args.deals}, checked every {args.step}), "
          f"{args.seeds} seeds, {time.perf_counter() - began:.0f} s")
    base = _median(figures["ladder-margin"], args.deals)
    for name in METHODS:
        median = _median(figures[name], args.deals)
        censored = sum(v is None for v in figures[name])
        ratio = f"{median / base:.2f} x the margin ladder's" if base else "-"
        print(f"  {name:<14} median {median:>5.0f} deals ({censored} of {args.seeds} not "
              f"within the cap, counted at it)  {ratio}")


def _deals(value: int | None, cap: int) -> str:
    return f"{value} deals" if value is not None else f"not within {cap}"


def _median(values: Sequence[int | None], cap: int) -> float:
    return statistics.median(v if v is not None else cap for v in values)


if __name__ == "__main__":
    main(sys.argv[1:])
