"""Random positions of Tre e Venticinque for the sampler and search-bot tests: seeded deals
played to a random point, by the random policy or the heuristic (whose play shows more voids),
seen from one seat as the SDK sees them."""

from __future__ import annotations

import random

from arena.games.tre_e_venticinque import (
    TRE_E_VENTICINQUE,
    DealState,
    Phase,
    apply,
    legal_actions,
    observe,
)
from arena.table import DecisionRequest, PlayerInfo, TableStart
from clients.sdk import TableView
from clients.tre_heuristic import heuristic_choice

from .positions import GENEROUS


def tre_position(seed: int, *, min_cards: int = 0, heuristic: bool = False) -> DealState:
    """A deal of ``seed`` played to a random point in its playing phase (not over), with at
    least ``min_cards`` cards played; ``heuristic``: every seat plays the heuristic, with a
    random card now and then."""
    rng = random.Random(seed)
    state = DealState.from_seed(seed, seed % 3)
    history: list[DealState] = []
    while state.to_act is not None:
        if state.phase is Phase.PLAYING:
            history.append(state.copy())
        legal = legal_actions(state)
        if heuristic and rng.random() < 0.8:
            action = heuristic_choice(observe(state, state.to_act))
        else:
            action = legal[rng.randrange(len(legal))]
        apply(state, action)
    pool = [h for h in history if 3 * len(h.tricks) + len(h.trick) >= min_cards] or history
    return pool[rng.randrange(len(pool))]


def tre_view(state: DealState, seat: int) -> TableView:
    """What ``seat`` sees of ``state``, as the SDK builds it from a TableStart."""
    players = tuple(PlayerInfo(s, f"bot{s}", f"bot{s}") for s in range(3))
    return TableView.from_start(TableStart("t", seat, state.options, state.dealer, players,
                                           observe(state, seat), game=TRE_E_VENTICINQUE))


def tre_request(state: DealState, time_limit: float = GENEROUS) -> DecisionRequest:
    seat = state.to_act
    assert seat is not None
    return DecisionRequest("t", seat, 1, state.phase, legal_actions(state), time_limit, 0.0,
                           tuple(observe(state, seat).hand),
                           TRE_E_VENTICINQUE.decision_kind(state))
