"""Two-player French Tarot with the dummy plays a whole tournament through real processes over
gRPC: created with the CLI (``--players 2``, two bots, rotation: each bot holds each player's
hand of every board), served by ``tournament run``, the heuristic and the random bot as SDK bot
processes, the defender's bot answering for the dummy's seat. Standings, replay, export and the
web page's replay show the variant."""

from __future__ import annotations

import json
import random
import re
import urllib.request
from collections.abc import Iterable
from pathlib import Path

import trio

from arena.games.french_tarot import DealRecord, replay
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.transport.server import ArenaServer
from tests.processes import cli, play_through_processes
from tests.tournaments.test_competition import RawSpy
from tests.web.conftest import WebServer
from tournaments.duplicate.settings import Seating, TournamentSettings
from tournaments.play.remote import RemoteArena
from tournaments.play.runner import TournamentRunner
from tournaments.store import TournamentStore

BOARDS = 6


def test_a_two_player_tournament_through_bot_processes(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/arena.db"
    registry = BotRegistry(make_engine(db))
    tokens = {name: registry.register(name)[1] for name in ("heuristic", "random")}
    ids = {name: registry.authenticate(token).id  # type: ignore[union-attr]
           for name, token in tokens.items()}
    refused = cli("--db", db, "tournament", "create", "--players", "2", "--boards", "2",
                  ids["heuristic"], ids["random"], ids["heuristic"] + "x")
    assert refused.returncode != 0 and "exactly 2 bots" in refused.stderr
    created = cli("--db", db, "tournament", "create", "--players", "2", "--boards", str(BOARDS),
                  "--seed", "13", "--per-decision", "5", "--json", *ids.values())
    assert created.returncode == 0, created.stderr
    tid = json.loads(created.stdout)["id"]
    classes = {"heuristic": "clients.heuristic_bot:HeuristicBot",
               "random": "clients.random_bot:RandomBot"}
    play_through_processes(db, tid, {
        name: (classes[name], token) for name, token in tokens.items()
    }, tmp_path)

    store = TournamentStore(make_engine(db))
    assert store.progress(tid).done == 2 * BOARDS  # rotation: each bot in each player's seat
    assert store.progress(tid).infractions == 0
    assert all(board.dealer == 1 for board in store.boards(tid))  # seat 1 always deals
    deals: dict[int, set[str]] = {}
    dummy_played = 0
    for table, seats in store.tables(tid):
        assert len(seats) == 2
        record = DealRecord.loads(table.record_json or "")
        assert record.deal.players == 2 and len(record.deal.hands) == 3
        state = replay(record)
        assert state.result is not None and sum(state.result.scores) == 0
        dummy_played += sum(1 for seat, _ in record.actions if seat == 2)
        deals.setdefault(table.board_number, set()).add(json.dumps(record.deal.hands))
    assert dummy_played > 0
    assert len(deals) == BOARDS and all(len(d) == 1 for d in deals.values())  # duplicate

    standings = cli("--db", db, "standings", tid, "--json")
    assert standings.returncode == 0, standings.stderr
    rows = json.loads(standings.stdout)["standings"]
    assert {row["bot"] for row in rows} == {"heuristic", "random"}, rows
    assert rows[0]["bot"] == "heuristic", rows
    text = cli("--db", db, "standings", tid)
    assert text.returncode == 0 and "heuristic" in text.stdout

    played = next(t for t, _ in store.tables(tid)
                  if any(s == 2 for s, _ in DealRecord.loads(t.record_json or "").actions))
    replayed = cli("--db", db, "replay", played.id)
    assert replayed.returncode == 0, replayed.stderr
    assert "dummy" in replayed.stdout, replayed.stdout

    export = cli("--db", db, "export", tid, "--out", str(tmp_path / "export"))
    assert export.returncode == 0, export.stderr

    engine = make_engine(db)
    server = WebServer(engine).start()
    try:
        with urllib.request.urlopen(f"{server.url}/tables/{played.id}", timeout=30) as page:
            body = page.read().decode()
    finally:
        server.stop()
        engine.dispose()
    viewer = json.loads(re.search(
        r'<script type="application/json" id="replay-data">(.*?)</script>', body, re.S)[1])
    assert viewer["viewer"]["roles"]["2"] == "dummy" and list(viewer["viewer"]["unheld"]) == ["2"]
    assert len(viewer["viewer"]["steps"][0]["hands"]) == 3
    assert viewer["names"][2].startswith("the dummy (played by ")
    assert 'id="seat-2"' in body and "the dummy (played by" in body


# ------------------------------------------------------------------- spies on the real wire
class RandomSpy(RawSpy):
    """A spy on the real wire that answers at random (a spy that always passes would never see
    a dummy shown)."""

    def __init__(self, target: str, token: str, seed: int) -> None:
        super().__init__(target, token)
        self.rng = random.Random(seed)

    def choose(self, request: pb.DecisionRequest) -> pb.Action:
        return self.rng.choice(list(request.legal_actions))


def action_card(action: pb.Action) -> int | None:
    kind = action.WhichOneof("kind")
    return getattr(action, kind) if kind in ("play", "discard", "hide") else None


def dummy_leaks(table_id: str, me: int, record: DealRecord,
                messages: list[pb.ArenaMessage]) -> tuple[list[str], bool]:
    """What one player of a two-player table was sent that it could not know then, and whether
    the dummy was shown. It knows its own hand; then what is shown to all: the chien of a
    Petite or Garde, the dummy's hand once shown, played cards, trumps discarded, poignées."""
    deal = record.deal
    state = replay(record)
    known = set(deal.hands[me])
    found: list[str] = []
    shown = False

    def check(cards: Iterable[int], what: str) -> None:
        hidden = set(cards) - known
        if hidden:
            found.append(f"seat {me} at {table_id}: {what} {sorted(hidden)}")

    for message in messages:
        kind = message.WhichOneof("kind")
        if kind == "table_start":
            view = message.table_start.view
            if message.table_start.table_id != table_id:
                continue
            check(view.hand, "its first view holds")
            if view.HasField("dummy") or view.chien or view.discard:
                found.append(f"seat {me} at {table_id}: its first view shows more than its hand")
        elif kind == "event" and message.event.table_id == table_id:
            event = message.event
            which = event.WhichOneof("kind")
            if which == "dummy_shown":
                if set(event.dummy_shown.cards) != set(deal.hands[2]):
                    found.append(f"seat {me} at {table_id}: a dummy that is not the dummy's")
                known.update(event.dummy_shown.cards)
                shown = True
            elif which == "chien_shown":
                if state.contract is None or not state.contract.chien_shown:
                    found.append(f"seat {me} at {table_id}: the chien of a Garde Sans/Contre")
                known.update(event.chien_shown.cards)
            elif which == "card_played":
                known.add(event.card_played.action.play)
            elif which == "trump_discarded":
                known.add(event.trump_discarded)
            elif which == "card_discarded":
                if me != state.taker:
                    found.append(f"seat {me} at {table_id}: a card of the taker's discard")
                check([event.card_discarded], "was told a discard")
            elif which == "poignee":
                known.update(event.poignee.cards)
            elif which == "trick_won":
                check(event.trick_won.cards, "a trick holds")
        elif kind == "request" and message.request.table_id == table_id:
            request = message.request
            if request.seat == 2:
                if request.player != me or me == state.taker:
                    found.append(f"seat {me} at {table_id}: asked for the dummy, not defending")
            elif request.seat != me:
                found.append(f"seat {me} at {table_id}: asked for seat {request.seat}")
            check(request.hand, "a request's hand holds")
            check([c for a in request.legal_actions if (c := action_card(a)) is not None],
                  "a legal action names")
        elif kind == "table_end" and message.table_end.table_id == table_id:
            break  # rotation reveals the deal at its end
    return found, shown


async def test_spies_on_the_wire_learn_no_hidden_card_of_two_players(tmp_path: Path) -> None:
    """Two random spies over gRPC, 24 boards in rotation (48 deals): neither is ever sent the
    other player's hand, the dummy before it is shown, a hidden chien or the taker's discard,
    and only the defender is asked for the dummy's seat."""
    store = TournamentStore(make_engine(f"sqlite:///{tmp_path}/arena.db"))
    registry = BotRegistry(store.engine)
    registered = [registry.register(f"spy-{i}") for i in range(2)]
    tid = store.create(TournamentSettings(
        name="spied", bots=tuple(bot.id for bot, _ in registered), seating=Seating.ROTATION,
        players=2, boards=24, seed=4242, per_decision=10.0,
    ))
    server = ArenaServer(BotRegistry(store.engine))
    spies: dict[str, RandomSpy] = {}
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        for number, (bot, token) in enumerate(registered):
            spy = spies[bot.id] = RandomSpy(f"127.0.0.1:{port}", token, number)
            nursery.start_soon(trio.to_thread.run_sync, spy.run)
        try:
            with trio.fail_after(120):
                for spy in spies.values():
                    await trio.to_thread.run_sync(spy.welcomed.wait)
                await TournamentRunner(store, RemoteArena(server), tid, concurrency=8,
                                       seat_timeout=30).run()
        finally:
            for spy in spies.values():
                spy.stop()
        nursery.cancel_scope.cancel()
    assert store.progress(tid).done == 48 and store.progress(tid).infractions == 0
    found: list[str] = []
    shown = 0
    for table, seats in store.tables(tid):
        record = store.record(table.id)
        for seat in seats:
            leaks, saw = dummy_leaks(table.id, seat.seat, record, spies[seat.bot_id].messages)
            found += leaks
            shown += saw
    assert found == []
    assert shown >= 20  # the dummy was shown in enough deals for the check to mean something
