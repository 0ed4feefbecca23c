"""Competitions whose tables are claimed board after board, for tests that need a set state
(a board finished everywhere, the next one half played) from the first tables claimed.

A safe seating's tables are claimed in the order of their opaque ids, drawn at random when the
tournament is created (see ``tournaments.store._claim_order``); inside this context manager the
random ids are handed out sorted, so that their order is the board order. The ids stay as
random and as opaque as ever: only their order is fixed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from unittest import mock

from tournaments import store as store_module
from tournaments.duplicate.seatings import TablePlan


@contextlib.contextmanager
def claimed_in_board_order() -> Iterator[None]:
    real = store_module.new_table_ids

    def sorted_ids(tournament_id: str, plans: list[TablePlan], opaque: bool) -> list[str]:
        return sorted(real(tournament_id, plans, opaque))

    with mock.patch.object(store_module, "new_table_ids", sorted_ids):
        yield
