"""The README's standings table of the bundled bots (random, heuristic, search), reproducible.

A duplicate tournament of the three bundled bots at 4-player French Tarot, played in-process
(``clients.local``: the arena's table runner, no network) and scored by the product's own
standings code (``tournaments.duplicate.scoring.compute_standings``, datum scoring: each seat's
score against the mean of everyone who held that seat of that board).

Seating: three bots for four seats, so each board seats the three plus a second copy of one of
them, in turn (board ``k``: bot ``k mod 3``), and plays that line-up in rotation (four tables,
each line-up member holding every hand of the board once). Over a multiple of three boards each
bot holds every seat equally often; the boards must be a multiple of three.

The search bot plays a fixed number of sampled deals per card (``--samples``), never the clock,
and every bot is seeded: the same seed gives the same table on any machine, however loaded.
The time limit per decision is generous (60 s, as ``tarot-arena try``): an infraction here
would be a bug, and the table says so in its infractions column.

    python -m bench.standings [--boards 120] [--seed 2026] [--samples 40]   (make standings-table)

It prints the Markdown table the README shows, then the command that made it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from arena.games.french_tarot import TableOptions
from clients.heuristic_bot import HeuristicBot
from clients.local import play_plans
from clients.random_bot import RandomBot
from clients.sdk import Bot
from clients.search_bot import BID_SAMPLES, SearchBot
from tournaments.duplicate.scoring import Standings, compute_standings
from tournaments.duplicate.seatings import TablePlan, rotation

BOTS = ("random", "heuristic", "search")
PLAYERS = 4
DEFAULT_BOARDS = 120
DEFAULT_SEED = 2026
DEFAULT_SAMPLES = 40


def plans(boards: int) -> list[TablePlan]:
    """Board ``k``: the three bots plus a second copy of bot ``k mod 3``, in rotation. The
    copies are keyed apart (``name#2``) for the rotation and score as one bot."""
    if boards < 1 or boards % len(BOTS):
        raise ValueError(f"boards must be a positive multiple of {len(BOTS)} (each bot holds "
                         f"every seat equally often), got {boards}")
    out = []
    for board in range(boards):
        line_up = [*BOTS, f"{BOTS[board % len(BOTS)]}#2"]
        out += [TablePlan(board, p.number, p.bots, p.scored) for p in rotation(line_up, 1)]
    return out


def bundled_bots(seed: int, samples: int, bid_samples: int = BID_SAMPLES) -> dict[str, Bot]:
    """Each bot and its copy by key (one object each: the bots keep no state between
    decisions that changes a choice)."""
    made: dict[str, Bot] = {
        "random": RandomBot(seed),
        "heuristic": HeuristicBot(),
        "search": SearchBot(samples=samples, seed=seed, bid_samples=bid_samples),
    }
    return {**made, **{f"{name}#2": bot for name, bot in made.items()}}


def standings(boards: int, seed: int, samples: int, bid_samples: int = BID_SAMPLES) -> Standings:
    bots = bundled_bots(seed, samples, bid_samples)
    entries = play_plans(
        plans(boards), bots, seed=seed, options=TableOptions(players=PLAYERS),
        entry_ids={key: key.split("#")[0] for key in bots},
        match_id=f"standings-{seed}",
    )
    return compute_standings(entries)


def markdown(table: Standings) -> list[str]:
    lines = [
        "| rank | bot | mean per board | 95 % interval | matchpoints | boards | infractions |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in table.rows:
        interval = row.per_board
        lines.append(
            f"| {row.rank} | {row.bot_id} | {interval.mean:+.1f} | {interval.low:+.1f} to "
            f"{interval.high:+.1f} | {row.matchpoint_pct:.1f} % | {row.boards} | "
            f"{sum(row.infractions.values()) or 'none'} |"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=DEFAULT_BOARDS,
                        help="boards, a multiple of 3 (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help="the boards' and bots' seed (default: %(default)s)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES,
                        help="the search bot's sampled deals per card (default: %(default)s)")
    parser.add_argument("--bid-samples", type=int, default=BID_SAMPLES,
                        help="the search bot's sampled deals per bid (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.samples < 1 or args.bid_samples < 1:
        parser.error(f"--samples and --bid-samples must be at least 1, got {args.samples} "
                     f"and {args.bid_samples}")
    try:
        plans(args.boards)
    except ValueError as exc:
        parser.error(str(exc))
    started = time.perf_counter()
    table = standings(args.boards, args.seed, args.samples, args.bid_samples)
    print("\n".join(markdown(table)))
    bids = f" --bid-samples {args.bid_samples}" if args.bid_samples != BID_SAMPLES else ""
    print(f"\n`python -m bench.standings --boards {args.boards} --seed {args.seed} "
          f"--samples {args.samples}{bids}`")
    print(f"{args.boards} boards, {args.boards * PLAYERS} tables in "
          f"{time.perf_counter() - started:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
