"""A compare's page, as fishtest shows a test: the LLR over the boards counted, between the
bounds where it accepts and rejects, the boards played, the verdict so far, and each worker's
share (throughput, last report, flags: :mod:`tournaments.work.flags`).

Read-only, as every page: what it shows is what the database holds now; the test is computed
from the completed prefix of boards, exactly as the command and the workers compute it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine

from arena.games.display import game_form

from ..duplicate.sprt import Sprt, Status
from ..play.compare import CompareConfig, load
from ..storage.work import Failure, WorkQueue
from ..store import TournamentStore, UnknownTournamentError
from ..work.flags import Share, shares
from .plot import Plot, cumulative_plot
from .views import NotFound


@dataclass(frozen=True, slots=True)
class ComparePage:
    tournament_id: str
    name: str
    status: str
    config: CompareConfig
    game: str
    """The game and its form (``Tre e Venticinque, 3 players``)."""
    test: Status
    played: int
    """Boards finished at all their tables, counted or not (workers may be ahead)."""
    tables_done: int
    tables: int
    plot: Plot | None
    workers: list[Share]
    failures: list[Failure]


def llr_series(values: list[float], test: Sprt) -> dict[str, list[tuple[int, float, float]]]:
    """The LLR after each board counted, and the two bounds, as lines for the plot."""
    replay = Sprt(test.settings)
    llr = []
    for board, value in enumerate(values):
        replay.add(value)
        llr.append((board, replay.llr, math.nan))
    last = max(len(values) - 1, 1)
    lower, upper = test.settings.lower_bound, test.settings.upper_bound
    return {"llr": llr,
            "upper": [(0, upper, math.nan), (last, upper, math.nan)],
            "lower": [(0, lower, math.nan), (last, lower, math.nan)]}


def compare_page(engine: Engine, tournament_id: str) -> ComparePage:
    store = TournamentStore(engine)
    try:
        settings, config, boards = load(store, tournament_id)
    except UnknownTournamentError:
        raise NotFound(f"no compare {tournament_id!r}") from None
    except ValueError:  # a tournament, not a compare
        raise NotFound(f"{tournament_id!r} is a tournament, not a compare") from None
    test = boards.test
    names = {"llr": "LLR", "upper": f"accept above {test.settings.upper_bound:+.2f}",
             "lower": f"reject below {test.settings.lower_bound:+.2f}"}
    plot = cumulative_plot(llr_series(list(test.values), test), names,
                           ["llr", "upper", "lower"], max(test.n, 2)) if test.n >= 2 else None
    progress = store.progress(tournament_id)
    played = len(store.boards_done(tournament_id))
    row = store.tournament(tournament_id)
    return ComparePage(tournament_id, row.name, row.status.value, config,
                       game_form(settings.rules, settings.table_options), test.status(),
                       played, progress.done, progress.total, plot,
                       shares(store, tournament_id), WorkQueue(store).failures(tournament_id))


def context(page: ComparePage) -> dict[str, Any]:
    half = page.test.half_width
    return {"c": page, "title": page.name,
            "half": f" ± {half:.1f}" if math.isfinite(half) else ""}
