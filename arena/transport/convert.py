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
from arena.games.frozen import builder
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.table import TableOutcome, TimeControl
from arena.table.messages import (
    Answer,
    DecisionRequest,
    InfractionKind,
    Notice,
    PlayerInfo,
    TableEnd,
    TableEvent,
    TableStart,
)

from . import pb_forms
from .authenticator import RegisteredBot
from .codec_french_tarot import poignee_from_pb as poignee_from_pb
from .codec_french_tarot import poignee_to_pb as poignee_to_pb
from .codecs import PROTOCOL_VERSION, PROTOCOL_VERSIONS, codec_for
from .pb_forms import current_trick_to_pb as current_trick_to_pb
from .pb_forms import trick_from_pb as trick_from_pb
from .pb_forms import trick_to_pb as trick_to_pb
from .pb_forms import wire_from_pb as wire_from_pb
from .pb_forms import wire_to_pb as wire_to_pb

DEFAULT_GAME: Final = games.game(games.DEFAULT_GAME)
"""The one game of protocol version 1, whose messages name no game."""
FRENCH_TAROT: Final = DEFAULT_GAME
"""The name this had before every game had its codec (:mod:`.codecs`)."""


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
    offered: tuple[GameOffer, ...] = ()
    """Every game the arena plays and its forms (version 2: :func:`offers`; none in version
    1, whose Welcome is as it always was)."""


@dataclass(frozen=True, slots=True)
class GameOffer:
    """One game an arena plays, as ``Welcome.offered`` tells a bot: its declaration's name,
    player counts, settings, score unit and decisions."""

    name: str
    title: str
    players: tuple[int, ...]
    settings: Mapping[str, Any]
    """Setting name -> ``{"default", "choices", "meaning"}``."""
    score_unit: str
    score_per_point: int
    decisions: tuple[str, ...]

    @classmethod
    def of(cls, game: Game) -> GameOffer:
        declared = game.declaration
        return cls(
            declared.name, declared.title, declared.seat_counts,
            {s.name: {"default": s.default, "choices": list(s.choices), "meaning": s.meaning}
             for s in declared.settings},
            declared.score.long_name, declared.score.per_point, tuple(declared.decisions),
        )


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

_DECISION_KIND: Final = {
    "bid": pb.DECIDE_BID, "call": pb.DECIDE_CALL, "discard": pb.DECIDE_DISCARD,
    "chelem": pb.DECIDE_CHELEM, "play": pb.DECIDE_PLAY, "poignee": pb.DECIDE_POIGNEE,
}
_DECISION_KIND_FROM_PB: Final = {v: k for k, v in _DECISION_KIND.items()}
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
# ------------------------------------------------------------------------------- actions

def action_to_pb(action: Any, game: Game = DEFAULT_GAME) -> pb.Action:
    return pb_forms.action_to_pb(action, game)


def action_from_pb(message: pb.Action, game: Game = DEFAULT_GAME) -> Any:
    """The game's action a protocol message names, or :class:`Malformed` saying what is
    wrong."""
    return pb_forms.action_from_pb(message, game)


def action_from_wire(wire: WireAction | None, game: Game) -> Answer:
    """The game's action a neutral action names (None: no field was set), or
    :class:`Malformed` saying what is wrong; never raises."""
    return pb_forms.action_from_wire(wire, game)


def action_or_raise(message: pb.Action, game: Game = DEFAULT_GAME) -> Any:
    """Decode an action the arena itself sent (legal lists): malformed is a protocol bug."""
    return pb_forms.action_or_raise(message, game)


# ------------------------------------------------------------------------------- views

def options_to_pb(options: Any, game: Game = DEFAULT_GAME) -> pb.TableOptions:
    """A table's options in its game's codec: French Tarot's typed fields with no game name
    (as protocol 1 has them), another game's name and its settings in JSON."""
    return codec_for(game).options_to_pb(options)


def game_options_from_pb(message: pb.TableOptions) -> tuple[Game, Any]:
    """The game a table plays and its options; ValueError for an unknown game or bad
    settings."""
    game = games.game(message.game or games.DEFAULT_GAME)
    return game, codec_for(game).options_from_pb(message)


def options_from_pb(message: pb.TableOptions) -> Any:
    return game_options_from_pb(message)[1]


def view_to_pb(view: Any, game: Game = DEFAULT_GAME) -> pb.SeatView:
    return codec_for(game).view_to_pb(view)


def view_from_pb(
    message: pb.SeatView, seat: int, options: Any, dealer: int, game: Game = DEFAULT_GAME
) -> Any:
    """A seat's view as the bot receives it (no legal actions, result or revealed deal);
    ValueError if it is malformed."""
    return codec_for(game).view_from_pb(message, seat, options, dealer)


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


def event_to_pb(message: TableEvent, game: Game = DEFAULT_GAME) -> pb.ArenaMessage:
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


def fill_event(out: pb.TableEvent, event: Any, game: Game = DEFAULT_GAME) -> None:
    codec_for(game).fill_event(out, event)


def event_from_pb(message: pb.TableEvent, game: Game = DEFAULT_GAME) -> Any:
    """ValueError for an event this version cannot read."""
    return codec_for(game).event_from_pb(message)


def event_reader(game: Game) -> Callable[[pb.TableEvent], Any]:
    """:func:`event_from_pb` for ``game``'s events, its codec looked up once (a bot reads
    several events a decision)."""
    return codec_for(game).event_from_pb


def table_event_from_pb(message: pb.TableEvent, game: Game = DEFAULT_GAME) -> TableEvent:
    """A table event with its addressing."""
    return TableEvent(
        message.table_id, message.seat, message.sequence, event_from_pb(message, game)
    )


def request_to_pb(request: DecisionRequest, game: Game = DEFAULT_GAME) -> pb.ArenaMessage:
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
        previous_request_id=request.previous_request_id,
        # uint32: 71 minutes, past any limit and bank a tournament allows (600 s + 3,600 s).
        previous_elapsed_us=min(round(request.previous_elapsed * 1_000_000), 0xFFFF_FFFF),
    )


def request_from_pb(message: pb.DecisionRequest, game: Game = DEFAULT_GAME) -> DecisionRequest:
    """ValueError for a decision kind or an action this version cannot read."""
    kind = _DECISION_KIND_FROM_PB.get(message.kind)
    if kind is None:
        raise ValueError(f"unknown decision kind {message.kind}")
    legal, hand = pb_forms.request_parts(message, game)
    seat = message.seat
    # Every field given, kind and player included: what __post_init__ would fill is filled.
    return _build_request(
        message.table_id, seat, message.request_id, game.decision_phase(kind), legal,
        message.time_limit_ms / 1000, message.time_bank_ms / 1000, hand, kind,
        message.player if message.HasField("player") else seat,
        message.previous_request_id, message.previous_elapsed_us / 1_000_000,
    )


_build_request: Final = builder(DecisionRequest, unchecked=True)
"""A decoded request, every field given (see :func:`request_from_pb`), without the
constructor's ``object.__setattr__`` per field: a bot decodes one per decision."""


def notice_to_pb(notice: Notice, game: Game = DEFAULT_GAME) -> pb.ArenaMessage:
    return pb.ArenaMessage(notice=pb.Notice(
        table_id=notice.table_id,
        request_id=notice.request_id,
        kind=_INFRACTION_TO_PB[notice.kind],
        message=notice.message,
        fallback=action_to_pb(notice.fallback, game) if notice.fallback is not None else None,
        seat=notice.seat,
    ))


def notice_from_pb(message: pb.Notice, game: Game = DEFAULT_GAME) -> Notice:
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


def end_to_pb(end: TableEnd, game: Game = DEFAULT_GAME) -> pb.ArenaMessage:
    return pb.ArenaMessage(table_end=table_end_message(end, game))


def table_end_message(end: TableEnd, game: Game = DEFAULT_GAME) -> pb.TableEnd:
    """A deal not revealed (``end.cards`` None) leaves hands, chien, discard and record
    empty."""
    message = pb.TableEnd(
        table_id=end.table_id,
        outcome=codec_for(game).outcome_to_pb(end.result.outcome),
        scores=end.result.scores,
        seat=end.seat,
    )
    if end.cards is not None and end.record is not None:
        message.hands.extend(pb.CardList(cards=h) for h in end.cards.hands)
        message.chien.extend(end.cards.undealt)
        message.discard.extend(end.cards.discard)
        message.record_json = _record_json(end.record)
    return message


def end_from_pb(message: pb.TableEnd, game: Game = DEFAULT_GAME) -> TableEnd:
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
    others = [name for name in games if name != DEFAULT_GAME.name]
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


_ACTION_MESSAGES: dict[str, dict[Any, pb.Action]] = {}
"""The protocol's form of each action a bot answered, per game name (at most
:data:`~.pb_forms.READ_ACTIONS_KEPT` each): a bot answers with the same few actions again and
again, and building each from its neutral form was a tenth of the SDK's answering. Only
copied from (a message's constructor copies what it is given), never changed."""


def decision_to_pb(
    table_id: str, request_id: int, action: Any, game: Game = DEFAULT_GAME
) -> pb.BotMessage:
    known = _ACTION_MESSAGES.get(game.name)
    if known is None:
        known = _ACTION_MESSAGES[game.name] = {}
    try:
        encoded = known.get(action)
    except TypeError:  # an action that is no hashable value: encoded every time
        encoded = action_to_pb(action, game)
    else:
        if encoded is None:
            encoded = action_to_pb(action, game)
            if len(known) < pb_forms.READ_ACTIONS_KEPT:
                known[action] = encoded
    # Filled in place: a Decision built by keywords and then copied into its BotMessage cost
    # 15.6 k instructions, this 8.7 k (callgrind); a bot sends one per decision.
    message = pb.BotMessage()
    decision = message.decision
    decision.table_id = table_id
    decision.request_id = request_id
    decision.action.CopyFrom(encoded)
    return message


def decision_from_pb(message: pb.Decision) -> Decision:
    """Never raises: the action stays in its neutral form until the seat asked reads it in its
    table's game (an unknown card, say, is then :class:`Malformed`)."""
    return Decision(message.table_id, message.request_id, wire_from_pb(message.action))


def offers() -> tuple[GameOffer, ...]:
    """Every game registered in this arena, as ``Welcome.offered`` lists them."""
    return tuple(GameOffer.of(games.game(name)) for name in games.names())


def _offer_to_pb(offer: GameOffer) -> pb.GameOffer:
    return pb.GameOffer(
        name=offer.name, title=offer.title, players=offer.players,
        settings_json=json.dumps(offer.settings, sort_keys=True, separators=(",", ":")),
        score_unit=offer.score_unit, score_per_point=offer.score_per_point,
        decisions=offer.decisions,
    )


def _offer_from_pb(message: pb.GameOffer) -> GameOffer:
    try:
        settings = json.loads(message.settings_json) if message.settings_json else {}
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"offered game {message.name!r}: settings_json is not JSON: {exc}") from None
    if not isinstance(settings, dict):
        raise ValueError(f"offered game {message.name!r}: settings_json must be a JSON object")
    return GameOffer(
        message.name, message.title, tuple(message.players), settings, message.score_unit,
        message.score_per_point or 1, tuple(message.decisions),
    )


def welcome_to_pb(welcome: Welcome) -> pb.ArenaMessage:
    offered = welcome.offered
    return pb.ArenaMessage(welcome=pb.Welcome(
        bot_id=welcome.bot_id, protocol_version=welcome.protocol_version,
        max_tables=welcome.max_tables, max_message_bytes=welcome.max_message_bytes,
        batching=welcome.batching, games=welcome.games,
        offered=[_offer_to_pb(offer) for offer in offered],
    ))


def welcome_from_pb(message: pb.Welcome) -> Welcome:
    """ValueError for an offered game whose settings are not a JSON object."""
    return Welcome(
        message.bot_id, message.protocol_version, message.max_tables, message.max_message_bytes,
        message.batching, tuple(message.games) or (games.DEFAULT_GAME,),
        tuple(_offer_from_pb(offer) for offer in message.offered),
    )


def unbatch(message: pb.ArenaMessage) -> list[pb.ArenaMessage]:
    """The messages a MessageBatch holds, in order, or ``[message]`` if it is not a batch: a
    batch is exactly its messages sent one by one, so a bot decodes each as it would alone."""
    if message.WhichOneof("kind") == "batch":
        return list(message.batch.messages)
    return [message]


def _default_game(table_id: str) -> Game:
    return DEFAULT_GAME


def arena_message_from_pb(
    message: pb.ArenaMessage, game_of: Callable[[str], Game] | None = None
) -> DecodedArenaMessage:
    """Decode one message the arena sends a bot (a batch is :func:`unbatch`-ed first);
    ValueError for what this version cannot read. ``game_of(table_id)``: the game of a table
    whose TableStart was received (French Tarot if not given)."""
    kind = message.WhichOneof("kind")
    game = _default_game if game_of is None else game_of
    # The event first, then the request: most of what a bot reads.
    if kind == "event":
        event = message.event
        return TableEvent(event.table_id, event.seat, event.sequence,
                          event_from_pb(event, game(event.table_id)))
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
    "DEFAULT_GAME",
    "FRENCH_TAROT",
    "PROTOCOL_VERSION",
    "PROTOCOL_VERSIONS",
    "ConnectionSummary",
    "Decision",
    "DecodedArenaMessage",
    "GameOffer",
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
    "offers",
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
