"""Random positions for the sampler and search-bot tests: seeded deals played by uniformly random
legal actions to a random point, seen from one seat as the SDK sees them."""

from __future__ import annotations

import random

from arena.games.french_tarot import GameState, TableOptions, apply, legal_actions, observe
from arena.games.french_tarot.cards import cards_of
from arena.games.french_tarot.deal import dealer_seats
from arena.table import DecisionRequest, PlayerInfo, TableStart
from clients.sdk import TableView

GENEROUS = 60.0
"""The default time limit of a test's request, as in-process play gives
(:data:`clients.local.LOCAL_TIME_CONTROL`): a search at fixed draws keeps its deadline, and
a test of its reproducibility must not depend on how fast the machine makes the draws."""


def random_position(seed: int, players: int, *, min_cards: int = 0) -> GameState:
    """A deal of ``seed`` played at random to a random point (not over), with at least
    ``min_cards`` cards played when the deal gets that far."""
    rng = random.Random(seed)
    options = TableOptions(players=players)
    dealers = dealer_seats(players)
    state = GameState.from_seed(seed, options, dealer=dealers[seed % len(dealers)])
    history: list[GameState] = []
    while state.to_act is not None:
        history.append(state.copy())
        legal = legal_actions(state)
        apply(state, legal[rng.randrange(len(legal))])
    if len(history) <= 1:
        return history[0] if history else state
    played = [h for h in history
              if sum(len(t.cards) for t in h.tricks) + len(h.trick) >= min_cards]
    pool = played or history
    return pool[rng.randrange(len(pool))]


def view_of(state: GameState, seat: int) -> TableView:
    """What ``seat`` sees of ``state``, as the SDK builds it from a TableStart."""
    players = tuple(PlayerInfo(s, f"bot{s}", f"bot{s}") for s in range(state.players))
    obs = observe(state, seat)
    return TableView.from_start(TableStart("t", seat, state.options, state.dealer, players, obs))


def request_of(state: GameState, time_limit: float = GENEROUS) -> DecisionRequest:
    """The request the arena sends for the seat to act: with the dummy to act, to the defender
    (``player``), with the dummy's hand."""
    seat, player = state.to_act, state.decider
    assert seat is not None and player is not None
    obs = observe(state, player)
    return DecisionRequest("t", seat, 1, obs.phase, legal_actions(state), time_limit, 0.0,
                           tuple(cards_of(state.hands[seat])), player=player)
