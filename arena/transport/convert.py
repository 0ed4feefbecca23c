"""The one place where protocol messages and domain values meet, both directions.

The arena's services decode what they receive here and encode their answers here, so that
everything behind them (connections, tables, the admin's requests) handles domain values only;
the Python SDK decodes what the arena sends. :mod:`.wire` frames the hottest messages as bytes
by hand, from the parts built here. Decoding a bot's answer never raises: a bad answer becomes
:class:`Malformed` with the reason, which the table runner records as an infraction.
"""

from __future__ import annotations

import functools
import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from arena import games
from arena.games import Game, State, WireAction
from arena.games.base import Record, Revealed
from arena.games.french_tarot import (
    Contract,
    DealOutcome,
    Direction,
    Observation,
    Phase,
    PoigneeLevel,
    ShownPoignee,
    TableOptions,
    Trick,
)
from arena.games.french_tarot.events import (
    BidMade,
    CardCalled,
    CardDiscarded,
    CardPlayed,
    ChelemDecided,
    ChienShown,
    DummyShown,
    PartnerRevealed,
    PoigneeShown,
    TrickWon,
    TrumpDiscarded,
)
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.table import TableOutcome, TimeControl
from arena.table.messages import (
    Answer,
    DecisionRequest,
    InfractionKind,
    Malformed,
    Notice,
    PlayerInfo,
    TableEnd,
    TableEvent,
    TableStart,
)

from .authenticator import RegisteredBot

PROTOCOL_VERSIONS: Final = (1, 2)
"""1: French Tarot only; 2: also the games a bot lists in Hello.games (see the .proto)."""
PROTOCOL_VERSION: Final = 2
"""The newest version; the bundled SDK asks for 1 when it plays French Tarot alone, so that it
also plays with arenas older than version 2."""
FRENCH_TAROT: Final = games.game("french-tarot")


@dataclass(frozen=True, slots=True)
class Hello:
    """A bot's first message on a stream: the connection-level messages have no table-domain
    counterpart in :mod:`arena.table.messages`, so their value types live here."""

    token: str
    bot_name: str
    bot_version: str
    protocol_version: int
    max_tables: int
    """Tables the bot can play at once on this stream (the arena checks 1..1024)."""
    batching: bool = False
    """The bot reads MessageBatch: the arena may then send several messages as one."""
    games: tuple[str, ...] = ()
    """The games the bot plays, as it listed them (none: French Tarot alone)."""


@dataclass(frozen=True, slots=True)
class Welcome:
    """The arena's answer to a Hello: the connection-level message has no table-domain
    counterpart in :mod:`arena.table.messages`, so its value type lives here."""

    bot_id: str
    protocol_version: int
    max_tables: int
    """Tables the arena may seat this connection at, at once."""
    max_message_bytes: int
    """Bigger messages from the bot end the stream with RESOURCE_EXHAUSTED."""
    batching: bool = False
    """The arena may send several messages as one MessageBatch (see :func:`unbatch`)."""
    games: tuple[str, ...] = (games.DEFAULT_GAME,)
    """The games the arena may seat this connection at (French Tarot alone, from an arena that
    does not say)."""


class GoodbyeReason(Enum):
    NO_MORE_WORK = "no-more-work"
    """No tournament the arena runs has a table left for the bot: its work is done."""
    ARENA_STOPPING = "arena-stopping"
    """The arena is shutting down; unfinished work may resume when it is back."""


@dataclass(frozen=True, slots=True)
class Goodbye:
    """The arena's last message on a stream, which it then ends with OK: it tells a bot whether
    to exit (no more work) or to reconnect (the arena is stopping)."""

    reason: GoodbyeReason
    message: str = ""


@dataclass(frozen=True, slots=True)
class Decision:
    """A bot's answer to one request, in the protocol's neutral form of an action: which game
    reads it is the table's business (see :func:`action_from_wire`)."""

    table_id: str
    request_id: int
    action: WireAction | None
    """None when the bot set no field of its Action."""


@dataclass(frozen=True, slots=True)
class ConnectionSummary:
    """One open stream as the admin service's ListConnections shows it, taken at one moment."""

    bot_id: str
    bot_name: str
    bot_version: str
    max_tables: int
    tables: int
    """Tables it plays now."""


@dataclass(frozen=True, slots=True)
class TableOrder:
    """An admin's PlayTable request: a deal to play now with bots connected to this arena."""

    table_id: str
    state: State
    """A fresh deal of the table's game."""
    bot_ids: tuple[str, ...]
    """By seat."""
    time_control: TimeControl


DecodedArenaMessage = (
    Welcome | TableStart | TableEvent | DecisionRequest | Notice | TableEnd | Goodbye
)
"""What a bot receives, decoded (see :func:`arena_message_from_pb`)."""

_CONTRACT_TO_PB: Final = {
    Contract.PETITE: pb.PETITE, Contract.GARDE: pb.GARDE,
    Contract.GARDE_SANS: pb.GARDE_SANS, Contract.GARDE_CONTRE: pb.GARDE_CONTRE,
}
_CONTRACT_FROM_PB: Final = {v: k for k, v in _CONTRACT_TO_PB.items()}
_LEVEL_TO_PB: Final = {
    PoigneeLevel.SIMPLE: pb.SIMPLE, PoigneeLevel.DOUBLE: pb.DOUBLE, PoigneeLevel.TRIPLE: pb.TRIPLE,
}
_LEVEL_FROM_PB: Final = {v: k for k, v in _LEVEL_TO_PB.items()}
_PHASE_TO_PB: Final = {
    Phase.BIDDING: pb.BIDDING, Phase.CALLING: pb.CALLING, Phase.DISCARDING: pb.DISCARDING,
    Phase.CHELEM: pb.CHELEM, Phase.PLAYING: pb.PLAYING, Phase.FINISHED: pb.FINISHED,
    # Only the seat choosing the trumps to hide from its poignée sees Phase.POIGNEE: its
    # request says so (DECIDE_POIGNEE), its SeatView the play phase it is part of.
    Phase.POIGNEE: pb.PLAYING,
}
_PHASE_FROM_PB: Final = {v: k for k, v in _PHASE_TO_PB.items() if k is not Phase.POIGNEE}
_DECISION_KIND: Final = {
    "bid": pb.DECIDE_BID, "call": pb.DECIDE_CALL, "discard": pb.DECIDE_DISCARD,
    "chelem": pb.DECIDE_CHELEM, "play": pb.DECIDE_PLAY, "poignee": pb.DECIDE_POIGNEE,
}
_DECISION_KIND_FROM_PB: Final = {v: k for k, v in _DECISION_KIND.items()}
_DIRECTION_TO_PB: Final = {
    Direction.COUNTER_CLOCKWISE: pb.COUNTER_CLOCKWISE, Direction.CLOCKWISE: pb.CLOCKWISE,
}
_DIRECTION_FROM_PB: Final = {v: k for k, v in _DIRECTION_TO_PB.items()}
_INFRACTION_TO_PB: Final = {
    InfractionKind.TIMEOUT: pb.TIMEOUT,
    InfractionKind.ILLEGAL_ACTION: pb.ILLEGAL_ACTION,
    InfractionKind.MALFORMED_ACTION: pb.MALFORMED_ACTION,
    InfractionKind.DISCONNECTED: pb.DISCONNECTED,
    InfractionKind.LATE_ANSWER: pb.LATE_ANSWER,
    InfractionKind.UNKNOWN_REQUEST: pb.UNKNOWN_REQUEST,
}
_INFRACTION_FROM_PB: Final = {v: k for k, v in _INFRACTION_TO_PB.items()}
_GOODBYE_TO_PB: Final = {
    GoodbyeReason.NO_MORE_WORK: pb.Goodbye.NO_MORE_WORK,
    GoodbyeReason.ARENA_STOPPING: pb.Goodbye.ARENA_STOPPING,
}
_GOODBYE_FROM_PB: Final = {v: k for k, v in _GOODBYE_TO_PB.items()}
_OUTCOME_TO_PB: Final = {
    DealOutcome.PLAYED: pb.PLAYED, DealOutcome.ALL_PASSED: pb.ALL_PASSED,
    DealOutcome.PETIT_SEC: pb.PETIT_SEC,
}
_OUTCOME_FROM_PB: Final = {v: k for k, v in _OUTCOME_TO_PB.items()}


# ------------------------------------------------------------------------------- actions

def wire_to_pb(wire: WireAction) -> pb.Action:
    kind = wire.kind
    if kind == "pass":
        return pb.Action(**{"pass": pb.Empty()})
    if kind == "chelem":
        return pb.Action(chelem=bool(wire.argument))
    if kind == "notation":
        return pb.Action(notation=wire.text)
    return pb.Action(**{kind: wire.argument})


def wire_from_pb(message: pb.Action) -> WireAction | None:
    """The neutral form of a protocol action; None when no field is set."""
    kind = message.WhichOneof("kind")
    if kind is None:
        return None
    if kind == "notation":
        return WireAction("notation", text=message.notation[:64])
    if kind == "pass":
        return WireAction("pass")
    if kind == "chelem":
        return WireAction("chelem", int(message.chelem))
    return WireAction(kind, getattr(message, kind))


def action_to_pb(action: Any, game: Game = FRENCH_TAROT) -> pb.Action:
    return wire_to_pb(game.action_to_wire(action))


def action_from_pb(message: pb.Action, game: Game = FRENCH_TAROT) -> Any:
    """The game's action a protocol message names, or :class:`Malformed` saying what is
    wrong."""
    return action_from_wire(wire_from_pb(message), game)


def action_from_wire(wire: WireAction | None, game: Game) -> Answer:
    """The game's action a neutral action names (None: no field was set), or
    :class:`Malformed` saying what is wrong; never raises."""
    if wire is None:
        return Malformed("the action is empty: set exactly one field of Action")
    try:
        action: Answer = game.action_from_wire(wire)
    except ValueError as exc:
        return Malformed(str(exc))
    return action


def action_or_raise(message: pb.Action, game: Game = FRENCH_TAROT) -> Any:
    """Decode an action the arena itself sent (legal lists): malformed is a protocol bug."""
    action = action_from_pb(message, game)
    if isinstance(action, Malformed):
        raise ValueError(action.reason)
    return action


# ------------------------------------------------------------------------------- views

def options_to_pb(options: Any, game: Game = FRENCH_TAROT) -> pb.TableOptions:
    """French Tarot's options as the typed fields, with no game name (as protocol 1 has
    them); another game's as its name and its settings in JSON."""
    if game is FRENCH_TAROT:
        return pb.TableOptions(
            players=options.players, beginner=options.beginner,
            direction=_DIRECTION_TO_PB[options.direction],
        )
    settings = game.options_to_json(options)
    players = settings.pop("players")
    return pb.TableOptions(
        players=players, game=game.name,
        settings_json=json.dumps(settings, sort_keys=True) if settings else "",
    )


def game_options_from_pb(message: pb.TableOptions) -> tuple[Game, Any]:
    """The game a table plays and its options; ValueError for an unknown game or bad
    settings."""
    game = games.game(message.game or games.DEFAULT_GAME)
    if game is FRENCH_TAROT:
        return game, TableOptions(
            players=message.players,
            beginner=message.beginner,
            direction=_DIRECTION_FROM_PB.get(message.direction, Direction.COUNTER_CLOCKWISE),
        )
    try:
        settings = json.loads(message.settings_json) if message.settings_json else {}
    except json.JSONDecodeError as exc:
        raise ValueError(f"settings_json is not JSON: {exc}") from None
    if not isinstance(settings, dict):
        raise ValueError("settings_json must be a JSON object")
    return game, game.options_from_json({**settings, "players": message.players})


def options_from_pb(message: pb.TableOptions) -> Any:
    return game_options_from_pb(message)[1]


def trick_to_pb(trick: Trick, index: int) -> pb.Trick:
    """A finished trick: leader and winner are always present, seat 0 included."""
    return pb.Trick(leader=trick.leader, cards=trick.cards, winner=trick.winner, index=index)


def current_trick_to_pb(current: tuple[tuple[int, int], ...], index: int) -> pb.Trick:
    """The trick being played, as ``(seat, card)`` pairs: no winner yet, and no leader until
    its first card (0 would name seat 0)."""
    return pb.Trick(leader=current[0][0] if current else None, cards=[c for _, c in current],
                    index=index)


def trick_from_pb(message: pb.Trick) -> Trick:
    """A finished trick (in ``SeatView.tricks`` or ``TableEvent.trick_won``); ValueError if it
    has no winner. An arena older than the ``optional`` markers left a winner 0 unset, which
    reads as 0 here when the trick is complete, so both decode alike."""
    if not message.HasField("winner") and not message.cards:
        raise ValueError(f"trick {message.index} has no winner: it is not finished")
    return Trick(message.leader, tuple(message.cards), message.winner)


def _optional(message: pb.SeatView, field: str, flag: bool) -> int | None:
    """An ``optional`` field of a view, also read from its has_* flag (set alike)."""
    return getattr(message, field) if flag or message.HasField(field) else None


def poignee_to_pb(poignee: ShownPoignee) -> pb.ShownPoignee:
    return pb.ShownPoignee(
        seat=poignee.seat, level=_LEVEL_TO_PB[poignee.level], cards=poignee.cards
    )


def poignee_from_pb(message: pb.ShownPoignee) -> ShownPoignee:
    return ShownPoignee(message.seat, _LEVEL_FROM_PB[message.level], tuple(message.cards))


def _phase_to_pb(phase: Any) -> pb.Phase.ValueType:
    """A game's phase as the protocol's Phase of the same name, if there is one."""
    if isinstance(phase, Phase):
        return _PHASE_TO_PB[phase]
    name = str(getattr(phase, "value", phase)).upper().replace("-", "_")
    known = pb.Phase.DESCRIPTOR.values_by_name
    return known[name].number if name in known else pb.PHASE_UNSPECIFIED


def _generic_view_to_pb(view: Any, game: Game) -> pb.SeatView:
    """Another game's view: the common fields where the observation has them, and the whole
    view as the game's JSON."""
    current = tuple(getattr(view, "current_trick", ()))
    tricks = tuple(getattr(view, "tricks", ()))
    to_act = getattr(view, "to_act", None)
    return pb.SeatView(
        phase=_phase_to_pb(getattr(view, "phase", None)),
        hand=getattr(view, "hand", ()),
        tricks=[trick_to_pb(t, i) for i, t in enumerate(tricks)],
        current_trick=current_trick_to_pb(current, len(tricks)),
        to_act=to_act,
        has_to_act=to_act is not None,
        details_json=json.dumps(game.observation_to_json(view), separators=(",", ":")),
    )


def view_to_pb(view: Any, game: Game = FRENCH_TAROT) -> pb.SeatView:
    if game is not FRENCH_TAROT:
        return _generic_view_to_pb(view, game)
    current = view.current_trick
    message = pb.SeatView(
        phase=_PHASE_TO_PB[view.phase],
        hand=view.hand,
        bids=[pb.SeatAction(seat=s, action=action_to_pb(a)) for s, a in view.bids],
        has_contract=view.contract is not None,
        contract=_CONTRACT_TO_PB[view.contract] if view.contract else pb.CONTRACT_UNSPECIFIED,
        taker=view.taker if view.contract is not None else None,
        has_called_card=view.called_card is not None,
        called_card=view.called_card,
        partner_revealed=view.partner_known,
        partner=(view.partner if view.partner is not None else view.taker)
        if view.partner_known else None,
        chien=view.chien or (),
        discard=view.discard or (),
        discarded_trumps=view.discarded_trumps,
        chelem_announced=view.chelem_announced,
        poignees=[poignee_to_pb(p) for p in view.poignees],
        tricks=[trick_to_pb(t, i) for i, t in enumerate(view.tricks)],
        current_trick=current_trick_to_pb(current, len(view.tricks)),
        to_act=view.to_act,
        has_to_act=view.to_act is not None,
    )
    if view.dummy is not None:
        message.dummy.CopyFrom(pb.CardList(cards=view.dummy))
    return message


def view_from_pb(
    message: pb.SeatView, seat: int, options: Any, dealer: int, game: Game = FRENCH_TAROT
) -> Any:
    """A seat's view as the bot receives it (no legal actions, result or revealed deal);
    ValueError if another game's JSON view is malformed."""
    if game is not FRENCH_TAROT:
        try:
            data = json.loads(message.details_json)
        except json.JSONDecodeError as exc:
            raise ValueError(f"details_json is not JSON: {exc}") from None
        return game.observation_from_json(data)
    current = message.current_trick
    n = options.seats  # with the dummy, three hands play to a trick
    taker = _optional(message, "taker", message.has_contract)
    partner = _optional(message, "partner", message.partner_revealed)
    return Observation(
        seat=seat,
        options=options,
        dealer=dealer,
        phase=_PHASE_FROM_PB[message.phase],
        to_act=_optional(message, "to_act", message.has_to_act),
        hand=tuple(message.hand),
        legal_actions=(),
        bids=tuple((b.seat, action_or_raise(b.action)) for b in message.bids),
        contract=_CONTRACT_FROM_PB[message.contract] if message.has_contract else None,
        taker=taker,
        called_card=_optional(message, "called_card", message.has_called_card),
        partner=partner if partner != taker else None,
        partner_known=message.partner_revealed,
        chien=tuple(message.chien) or None,
        discard=tuple(message.discard) or None,
        discarded_trumps=tuple(message.discarded_trumps),
        chelem_announced=message.chelem_announced,
        poignees=tuple(poignee_from_pb(p) for p in message.poignees),
        tricks=tuple(trick_from_pb(t) for t in message.tricks),
        current_trick=tuple(
            ((current.leader + i) % n, c) for i, c in enumerate(current.cards)
        ),
        result=None,
        deal=None,
        dummy=tuple(message.dummy.cards) if message.HasField("dummy") else None,
    )


# ------------------------------------------------------------------------ table messages

@functools.cache
def game_info(game: Game) -> pb.GameInfo:
    return pb.GameInfo(
        name=game.name, title=game.title,
        cards=[game.card_name(card) for card in range(game.deck_size)],
    )


def start_to_pb(start: TableStart) -> pb.ArenaMessage:
    game = start.game
    return pb.ArenaMessage(table_start=pb.TableStart(
        table_id=start.table_id,
        seat=start.seat,
        options=options_to_pb(start.options, game),
        dealer=start.dealer,
        players=[pb.Player(seat=p.seat, bot_id=p.bot_id, bot_name=p.bot_name)
                 for p in start.players],
        view=view_to_pb(start.view, game),
        resumed=start.resumed,
        next_sequence=start.next_sequence,
        game=game_info(game),
    ))


def start_from_pb(message: pb.TableStart) -> TableStart:
    """ValueError for a game this SDK does not know, or a malformed view."""
    game, options = game_options_from_pb(message.options)
    return TableStart(
        table_id=message.table_id,
        seat=message.seat,
        options=options,
        dealer=message.dealer,
        players=tuple(PlayerInfo(p.seat, p.bot_id, p.bot_name) for p in message.players),
        view=view_from_pb(message.view, message.seat, options, message.dealer, game),
        resumed=message.resumed,
        next_sequence=message.next_sequence,
        game=game,
    )


class _LastEncoded:
    """The most recent deal record encoded, kept by identity: a table sends its record to
    every seat, one after the other. One tuple, replaced whole (safe across threads)."""

    record: tuple[Record | None, str] = (None, "")


def event_to_pb(message: TableEvent, game: Game = FRENCH_TAROT) -> pb.ArenaMessage:
    """The reference encoding; the arena writes the same bytes faster with :mod:`.wire`."""
    wrapper = pb.ArenaMessage()
    out = wrapper.event  # filled in place: wrapping a finished message would copy it
    out.table_id = message.table_id
    out.sequence = message.sequence
    out.seat = message.seat
    fill_event(out, message.event, game)
    return wrapper


def _record_json(record: Record) -> str:
    last = _LastEncoded.record
    if last[0] is not record:
        last = _LastEncoded.record = (record, record.dumps())
    return last[1]


def fill_event(out: pb.TableEvent, event: Any, game: Game = FRENCH_TAROT) -> None:
    if game is not FRENCH_TAROT:
        kind, data = game.event_to_json(event)
        out.game_event.kind = kind
        out.game_event.json = json.dumps(data, separators=(",", ":"))
    elif isinstance(event, CardPlayed):
        out.card_played.CopyFrom(pb.SeatAction(seat=event.seat, action=pb.Action(play=event.card)))
    elif isinstance(event, TrickWon):
        out.trick_won.CopyFrom(trick_to_pb(event.trick, event.index))
    elif isinstance(event, BidMade):
        out.bid.CopyFrom(pb.SeatAction(seat=event.seat, action=action_to_pb(event.action)))
    elif isinstance(event, CardCalled):
        out.card_called = event.card
    elif isinstance(event, ChienShown):
        out.chien_shown.CopyFrom(pb.CardList(cards=event.cards))
    elif isinstance(event, CardDiscarded):
        out.card_discarded = event.card
    elif isinstance(event, TrumpDiscarded):
        out.trump_discarded = event.card
    elif isinstance(event, ChelemDecided):
        out.chelem.CopyFrom(pb.SeatAction(seat=event.seat, action=pb.Action(chelem=event.announce)))
    elif isinstance(event, PoigneeShown):
        out.poignee.CopyFrom(poignee_to_pb(event.poignee))
    elif isinstance(event, PartnerRevealed):
        out.partner_revealed = event.seat
    elif isinstance(event, DummyShown):
        out.dummy_shown.CopyFrom(pb.CardList(cards=event.cards))
    else:  # pragma: no cover - the Event union is closed
        raise TypeError(f"not an event: {event!r}")


def event_from_pb(message: pb.TableEvent, game: Game = FRENCH_TAROT) -> Any:
    """ValueError for an event this version cannot read."""
    kind = message.WhichOneof("kind")
    if game is not FRENCH_TAROT:
        if kind != "game_event":
            raise ValueError(f"{game.title} has no event {kind!r}")
        try:
            data = json.loads(message.game_event.json)
        except json.JSONDecodeError as exc:
            raise ValueError(f"event {message.game_event.kind!r} is not JSON: {exc}") from None
        return game.event_from_json(message.game_event.kind, data)
    if kind == "card_played":
        return CardPlayed(message.card_played.seat, message.card_played.action.play)
    if kind == "trick_won":
        return TrickWon(message.trick_won.index, trick_from_pb(message.trick_won))
    if kind == "bid":
        return BidMade(message.bid.seat, action_or_raise(message.bid.action, game))
    if kind == "card_called":
        return CardCalled(message.card_called)
    if kind == "chien_shown":
        return ChienShown(tuple(message.chien_shown.cards))
    if kind == "card_discarded":
        return CardDiscarded(message.card_discarded)
    if kind == "trump_discarded":
        return TrumpDiscarded(message.trump_discarded)
    if kind == "chelem":
        return ChelemDecided(message.chelem.seat, message.chelem.action.chelem)
    if kind == "poignee":
        return PoigneeShown(poignee_from_pb(message.poignee))
    if kind == "partner_revealed":
        return PartnerRevealed(message.partner_revealed)
    if kind == "dummy_shown":
        return DummyShown(tuple(message.dummy_shown.cards))
    raise ValueError(f"unknown event kind {kind!r}")


def table_event_from_pb(message: pb.TableEvent, game: Game = FRENCH_TAROT) -> TableEvent:
    """A table event with its addressing."""
    return TableEvent(
        message.table_id, message.seat, message.sequence, event_from_pb(message, game)
    )


def request_to_pb(request: DecisionRequest, game: Game = FRENCH_TAROT) -> pb.ArenaMessage:
    """The reference encoding; the arena writes the same bytes faster with :mod:`.wire`."""
    message = request_fields_to_pb(request)
    message.legal_actions.extend([action_to_pb(a, game) for a in request.legal_actions])
    return pb.ArenaMessage(request=message)


def request_fields_to_pb(request: DecisionRequest) -> pb.DecisionRequest:
    """The request without its legal actions (see :mod:`.wire`)."""
    return pb.DecisionRequest(
        table_id=request.table_id,
        request_id=request.request_id,
        kind=_DECISION_KIND[request.kind],
        time_limit_ms=round(request.time_limit * 1000),
        time_bank_ms=round(request.time_bank * 1000),
        hand=request.hand,
        seat=request.seat,
        player=request.player if request.player != request.seat else None,
    )


def request_from_pb(message: pb.DecisionRequest, game: Game = FRENCH_TAROT) -> DecisionRequest:
    """ValueError for a decision kind or an action this version cannot read."""
    kind = _DECISION_KIND_FROM_PB.get(message.kind)
    if kind is None:
        raise ValueError(f"unknown decision kind {message.kind}")
    return DecisionRequest(
        table_id=message.table_id,
        seat=message.seat,
        request_id=message.request_id,
        phase=game.decision_phase(kind),
        kind=kind,
        player=message.player if message.HasField("player") else message.seat,
        legal_actions=tuple(action_or_raise(a, game) for a in message.legal_actions),
        time_limit=message.time_limit_ms / 1000,
        time_bank=message.time_bank_ms / 1000,
        hand=tuple(message.hand),
    )


def notice_to_pb(notice: Notice, game: Game = FRENCH_TAROT) -> pb.ArenaMessage:
    return pb.ArenaMessage(notice=pb.Notice(
        table_id=notice.table_id,
        request_id=notice.request_id,
        kind=_INFRACTION_TO_PB[notice.kind],
        message=notice.message,
        fallback=action_to_pb(notice.fallback, game) if notice.fallback is not None else None,
        seat=notice.seat,
    ))


def notice_from_pb(message: pb.Notice, game: Game = FRENCH_TAROT) -> Notice:
    """Raises ValueError for an infraction kind this version does not know. The seat is None
    when the notice concerns no seat of the bot (an answer to an unknown request)."""
    kind = _INFRACTION_FROM_PB.get(message.kind)
    if kind is None:
        raise ValueError(f"unknown infraction kind {message.kind}")
    fallback = action_or_raise(message.fallback, game) if message.HasField("fallback") else None
    seat = message.seat if message.HasField("seat") else None
    return Notice(message.table_id, seat, message.request_id, kind, message.message, fallback)


def goodbye_to_pb(goodbye: Goodbye) -> pb.ArenaMessage:
    return pb.ArenaMessage(goodbye=pb.Goodbye(
        reason=_GOODBYE_TO_PB[goodbye.reason], message=goodbye.message,
    ))


def goodbye_from_pb(message: pb.Goodbye) -> Goodbye:
    """An unknown reason (a newer arena) reads as ARENA_STOPPING: reconnecting is the safe
    answer, since a bot with no work is told so again."""
    reason = _GOODBYE_FROM_PB.get(message.reason, GoodbyeReason.ARENA_STOPPING)
    return Goodbye(reason, message.message)


def end_to_pb(end: TableEnd, game: Game = FRENCH_TAROT) -> pb.ArenaMessage:
    return pb.ArenaMessage(table_end=table_end_message(end, game))


def _outcome_to_pb(outcome: Any) -> pb.DealOutcome.ValueType:
    if isinstance(outcome, DealOutcome):
        return _OUTCOME_TO_PB[outcome]
    name = str(getattr(outcome, "value", outcome)).upper().replace("-", "_")
    known = pb.DealOutcome.DESCRIPTOR.values_by_name
    return known[name].number if name in known else pb.PLAYED


def table_end_message(end: TableEnd, game: Game = FRENCH_TAROT) -> pb.TableEnd:
    """A deal not revealed (``end.cards`` None) leaves hands, chien, discard and record
    empty."""
    message = pb.TableEnd(
        table_id=end.table_id,
        outcome=_outcome_to_pb(end.result.outcome),
        scores=end.result.scores,
        seat=end.seat,
    )
    if end.cards is not None and end.record is not None:
        message.hands.extend(pb.CardList(cards=h) for h in end.cards.hands)
        message.chien.extend(end.cards.undealt)
        message.discard.extend(end.cards.discard)
        message.record_json = _record_json(end.record)
    return message


def end_from_pb(message: pb.TableEnd, game: Game = FRENCH_TAROT) -> TableEnd:
    """The result taken from the JSON record the message carries, and the revealed cards;
    without a record (a deal not revealed), the outcome and scores alone.

    Raises ValueError when the record is malformed or has no result.
    """
    if not message.record_json:
        value = pb.DealOutcome.DESCRIPTOR.values_by_number.get(message.outcome)
        if value is None or message.outcome == pb.OUTCOME_UNSPECIFIED:
            raise ValueError(f"table end of {message.table_id!r}: unknown outcome "
                             f"{message.outcome}")
        try:
            result = game.bare_result(value.name.lower().replace("_", "-"), tuple(message.scores))
        except ValueError as exc:
            raise ValueError(f"table end of {message.table_id!r}: {exc}") from None
        return TableEnd(message.table_id, message.seat, result)
    try:
        data = json.loads(message.record_json)
        if not isinstance(data, dict):
            raise ValueError("a deal record is a JSON object")
        record = game.load_record(data)
    except ValueError as exc:
        raise ValueError(f"table end of {message.table_id!r}: {exc}") from exc
    result = record.result
    if result is None:
        raise ValueError(f"table end of {message.table_id!r}: the record has no result")
    cards = Revealed(
        tuple(tuple(h.cards) for h in message.hands), tuple(message.chien),
        tuple(message.discard),
    )
    return TableEnd(message.table_id, message.seat, result, cards, record)


# ------------------------------------------------------------------------- bot messages

def hello_to_pb(
    token: str, name: str, version: str, max_tables: int, batching: bool = True,
    games: Sequence[str] = (),
) -> pb.BotMessage:
    others = [name for name in games if name != FRENCH_TAROT.name]
    return pb.BotMessage(hello=pb.Hello(
        token=token, bot_name=name, bot_version=version,
        protocol_version=PROTOCOL_VERSION if others else 1, max_tables=max_tables,
        batching=batching, games=games,
    ))


def hello_from_pb(message: pb.Hello) -> Hello:
    """As sent: the services check it (version, names, max_tables, games) before anything
    else."""
    return Hello(
        message.token, message.bot_name, message.bot_version, message.protocol_version,
        message.max_tables, message.batching, tuple(message.games),
    )


def decision_to_pb(
    table_id: str, request_id: int, action: Any, game: Game = FRENCH_TAROT
) -> pb.BotMessage:
    return pb.BotMessage(decision=pb.Decision(
        table_id=table_id, request_id=request_id, action=action_to_pb(action, game),
    ))


def decision_from_pb(message: pb.Decision) -> Decision:
    """Never raises: the action stays in its neutral form until the seat asked reads it in its
    table's game (an unknown card, say, is then :class:`Malformed`)."""
    return Decision(message.table_id, message.request_id, wire_from_pb(message.action))


def welcome_to_pb(welcome: Welcome) -> pb.ArenaMessage:
    return pb.ArenaMessage(welcome=pb.Welcome(
        bot_id=welcome.bot_id, protocol_version=welcome.protocol_version,
        max_tables=welcome.max_tables, max_message_bytes=welcome.max_message_bytes,
        batching=welcome.batching, games=welcome.games,
    ))


def welcome_from_pb(message: pb.Welcome) -> Welcome:
    return Welcome(
        message.bot_id, message.protocol_version, message.max_tables, message.max_message_bytes,
        message.batching, tuple(message.games) or (games.DEFAULT_GAME,),
    )


def unbatch(message: pb.ArenaMessage) -> list[pb.ArenaMessage]:
    """The messages a MessageBatch holds, in order, or ``[message]`` if it is not a batch: a
    batch is exactly its messages sent one by one, so a bot decodes each as it would alone."""
    if message.WhichOneof("kind") == "batch":
        return list(message.batch.messages)
    return [message]


def arena_message_from_pb(
    message: pb.ArenaMessage, game_of: Callable[[str], Game] | None = None
) -> DecodedArenaMessage:
    """Decode one message the arena sends a bot (a batch is :func:`unbatch`-ed first);
    ValueError for what this version cannot read. ``game_of(table_id)``: the game of a table
    whose TableStart was received (French Tarot if not given)."""
    kind = message.WhichOneof("kind")

    def game(table_id: str) -> Game:
        return game_of(table_id) if game_of is not None else FRENCH_TAROT

    if kind == "event":
        return table_event_from_pb(message.event, game(message.event.table_id))
    if kind == "request":
        return request_from_pb(message.request, game(message.request.table_id))
    if kind == "table_start":
        return start_from_pb(message.table_start)
    if kind == "notice":
        return notice_from_pb(message.notice, game(message.notice.table_id))
    if kind == "table_end":
        return end_from_pb(message.table_end, game(message.table_end.table_id))
    if kind == "welcome":
        return welcome_from_pb(message.welcome)
    if kind == "goodbye":
        return goodbye_from_pb(message.goodbye)
    raise ValueError(f"unknown arena message kind {kind!r}")


# ------------------------------------------------------------------------ admin service

def registered_to_pb(bot: RegisteredBot, token: str) -> pb.RegisterBotResponse:
    return pb.RegisterBotResponse(bot_id=bot.id, token=token)


def bots_to_pb(
    bots: Sequence[RegisteredBot], connections: Mapping[str, int]
) -> pb.ListBotsResponse:
    """``connections``: open streams per bot id (a bot not in it has none)."""
    return pb.ListBotsResponse(bots=[
        pb.BotInfo(bot_id=b.id, name=b.name, owner=b.owner, revoked=b.revoked,
                   created_at=b.created_at, connections=connections.get(b.id, 0))
        for b in bots
    ])


def revoked_to_pb(changed: bool) -> pb.RevokeBotResponse:
    return pb.RevokeBotResponse(revoked=changed)


def connections_to_pb(connections: Sequence[ConnectionSummary]) -> pb.ListConnectionsResponse:
    return pb.ListConnectionsResponse(connections=[
        pb.ConnectionInfo(bot_id=c.bot_id, bot_name=c.bot_name, bot_version=c.bot_version,
                          max_tables=c.max_tables, tables=c.tables)
        for c in connections
    ])


def table_order_from_pb(message: pb.PlayTableRequest) -> TableOrder:
    """ValueError saying what is wrong (game, options, dealer, time control, number of bots).
    A request that names no table gets a new random id."""
    game, options = game_options_from_pb(message.options)
    state = game.new_deal(message.seed, options, message.dealer)
    control = message.time_control
    time_control = TimeControl(
        (control.per_decision_ms or 1000) / 1000, control.time_bank_ms / 1000
    )
    if len(message.bot_ids) != state.players:
        raise ValueError(f"{len(message.bot_ids)} bot ids for a {state.players}-player table")
    table_id = message.table_id or "table_" + secrets.token_hex(6)
    return TableOrder(table_id, state, tuple(message.bot_ids), time_control)


def played_to_pb(outcome: TableOutcome) -> pb.PlayTableResponse:
    """The deal an admin ordered, played: its end as seat 0 would see it revealed (hands,
    undealt cards, discard, record), and every infraction."""
    game = outcome.state.game
    end = TableEnd(outcome.table_id, 0, outcome.result, game.revealed(outcome.state),
                   outcome.record)
    return pb.PlayTableResponse(
        table_id=outcome.table_id,
        end=table_end_message(end, game),
        infractions=[
            pb.Infraction(seat=i.seat, kind=_INFRACTION_TO_PB[i.kind], message=i.message,
                          decision_index=i.decision_index)
            for i in outcome.infractions
        ],
    )


__all__ = [
    "FRENCH_TAROT",
    "PROTOCOL_VERSION",
    "PROTOCOL_VERSIONS",
    "ConnectionSummary",
    "Decision",
    "DecodedArenaMessage",
    "Goodbye",
    "GoodbyeReason",
    "Hello",
    "TableOrder",
    "Welcome",
    "action_from_pb",
    "action_from_wire",
    "action_or_raise",
    "action_to_pb",
    "arena_message_from_pb",
    "bots_to_pb",
    "connections_to_pb",
    "decision_from_pb",
    "decision_to_pb",
    "end_from_pb",
    "end_to_pb",
    "event_from_pb",
    "event_to_pb",
    "game_info",
    "game_options_from_pb",
    "goodbye_from_pb",
    "goodbye_to_pb",
    "hello_from_pb",
    "hello_to_pb",
    "notice_from_pb",
    "notice_to_pb",
    "options_from_pb",
    "options_to_pb",
    "played_to_pb",
    "registered_to_pb",
    "request_from_pb",
    "request_to_pb",
    "revoked_to_pb",
    "start_from_pb",
    "start_to_pb",
    "table_end_message",
    "table_event_from_pb",
    "table_order_from_pb",
    "trick_from_pb",
    "unbatch",
    "view_from_pb",
    "view_to_pb",
    "welcome_from_pb",
    "welcome_to_pb",
    "wire_from_pb",
    "wire_to_pb",
]
