"""``bench.arena_replay`` plays the arena's tables with no transport, for instruction counts:
the same deals, the same decisions, the messages batched as the gRPC writer batches them."""

from __future__ import annotations

from bench.arena_replay import replay


def test_the_replay_plays_every_deal_through_the_arena_with_batched_messages() -> None:
    first = replay(tables=8, deals=8)
    again = replay(tables=8, deals=8)
    assert first["deals"] == 8 and first["decisions"] > 8 * 4  # more than the bids
    # Seeded deals and a deterministic bot: the same decisions on every run (infractions are
    # asserted inside: a fake bot that answered wrong would fail there).
    assert again["decisions"] == first["decisions"]
    # Several tables' messages leave in one batch, as the gRPC writer sends them: far fewer
    # messages than the requests and events they carry (about 0.45 a decision at 8 tables, each
    # bot holding a seat at every table).
    assert 0 < first["messages_to_bots"] < 0.75 * first["decisions"]
    assert first["cpu_us_per_decision"] > 0
