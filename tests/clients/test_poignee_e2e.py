"""A poignée with trumps to hide, end to end: the bundled HeuristicBot holds every seat through
the SDK and a real arena on a loopback port, so the declaration, each DECIDE_POIGNEE request and
each ``hide`` answer cross gRPC."""

from __future__ import annotations

import trio

from arena.games.french_tarot import (
    DeclarePoignee,
    GameState,
    HideTrump,
    PoigneeLevel,
    TableOptions,
    trump,
)
from arena.games.french_tarot.cards import PETIT
from arena.table import TimeControl
from clients.heuristic_bot import HeuristicBot
from tests.french_tarot.builders import make_deal

from .conftest import Arena, eventually


async def test_the_heuristic_bot_chooses_its_poignee_over_the_wire(arena: Arena) -> None:
    # Seat 1 speaks first with 12 trumps, the Petit and the 21 among them, and all the Kings:
    # it takes, and shows a simple poignée of ten, keeping the Petit and the 21 hidden.
    hand = " ".join(f"T{n}" for n in range(1, 12)) + " T21 KS KH KD KC QS QH"
    deal = make_deal(4, 0, {1: hand})
    bot = HeuristicBot()
    client = await arena.client(bot, max_tables=4)
    with trio.fail_after(20):
        outcome = await arena.server.play_table(
            "poignee", GameState(deal, TableOptions(4)), arena.ids(0, 0, 0, 0), TimeControl(2.0),
            seat_timeout=5.0,
        )
    assert outcome.infractions == []
    actions = [(d.seat, d.action) for d in outcome.decisions]
    assert (1, DeclarePoignee(PoigneeLevel.SIMPLE)) in actions
    hidden = [a.card for seat, a in actions if isinstance(a, HideTrump)]
    assert hidden == [PETIT, trump(21)]
    shown = outcome.state.poignees
    assert [(p.seat, p.cards) for p in shown] == [(1, tuple(trump(n) for n in range(11, 1, -1)))]
    await eventually(lambda: client.tables == {})
