"""The one place where protocol messages and domain values meet, both directions.

The server encodes table messages and decodes answers; the Python SDK decodes what the server
sends. Decoding a bot's answer never raises: a bad answer becomes :class:`Malformed` with the
reason, which the table runner records as an infraction.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from arena.games.french_tarot import (
    ANNOUNCE_CHELEM,
    NO_CHELEM,
    PASS,
    Action,
    Bid,
    CallCard,
    ChelemChoice,
    Contract,
    DealOutcome,
    DealRecord,
    DealResult,
    DeclarePoignee,
    Direction,
    Discard,
    HideTrump,
    Observation,
    Pass,
    Phase,
    Play,
    PoigneeLevel,
    RecordError,
    ShownPoignee,
    TableOptions,
    Trick,
    parse_action,
)
from arena.games.french_tarot.actions import BIDS, CALLS, DISCARDS, HIDES, PLAYS, POIGNEES
from arena.games.french_tarot.cards import DECK_SIZE
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.table.messages import (
    BidMade,
    CardCalled,
    CardDiscarded,
    CardPlayed,
    ChelemDecided,
    ChienShown,
    DecisionRequest,
    Event,
    InfractionKind,
    Malformed,
    Notice,
    PartnerRevealed,
    PlayerInfo,
    PoigneeShown,
    TableEnd,
    TableEvent,
    TableStart,
    TrickWon,
    TrumpDiscarded,
)

PROTOCOL_VERSION: Final = 1


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
    Phase.BIDDING: pb.DECIDE_BID, Phase.CALLING: pb.DECIDE_CALL,
    Phase.DISCARDING: pb.DECIDE_DISCARD, Phase.CHELEM: pb.DECIDE_CHELEM,
    Phase.PLAYING: pb.DECIDE_PLAY, Phase.POIGNEE: pb.DECIDE_POIGNEE,
}
_DECISION_PHASE: Final = {v: k for k, v in _DECISION_KIND.items()}
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

def action_to_pb(action: Action) -> pb.Action:
    if isinstance(action, Play):
        return pb.Action(play=action.card)
    if isinstance(action, Pass):
        return pb.Action(**{"pass": pb.Empty()})
    if isinstance(action, Bid):
        return pb.Action(bid=_CONTRACT_TO_PB[action.contract])
    if isinstance(action, CallCard):
        return pb.Action(call=action.card)
    if isinstance(action, Discard):
        return pb.Action(discard=action.card)
    if isinstance(action, ChelemChoice):
        return pb.Action(chelem=action.announce)
    if isinstance(action, DeclarePoignee):
        return pb.Action(poignee=_LEVEL_TO_PB[action.level])
    if isinstance(action, HideTrump):
        return pb.Action(hide=action.card)
    raise TypeError(f"not an action: {action!r}")


def action_from_pb(message: pb.Action) -> Action | Malformed:
    """The action a protocol message names, or :class:`Malformed` saying what is wrong."""
    kind = message.WhichOneof("kind")
    if kind is None:
        return Malformed("the action is empty: set exactly one field of Action")
    if kind == "pass":
        return PASS
    if kind == "bid":
        contract = _CONTRACT_FROM_PB.get(message.bid)
        return BIDS[contract] if contract else Malformed(f"unknown contract {message.bid}")
    if kind == "chelem":
        return ANNOUNCE_CHELEM if message.chelem else NO_CHELEM
    if kind == "poignee":
        level = _LEVEL_FROM_PB.get(message.poignee)
        return POIGNEES[level] if level else Malformed(
            f"unknown poignee level {message.poignee}"
        )
    if kind == "notation":
        try:
            return parse_action(message.notation[:64])
        except ValueError as exc:
            return Malformed(str(exc))
    card = getattr(message, kind)
    if not 0 <= card < DECK_SIZE:
        return Malformed(f"card {card} does not exist: cards are numbered 0..77")
    table = {"call": CALLS, "discard": DISCARDS, "play": PLAYS, "hide": HIDES}[kind]
    return table[card]


def action_or_raise(message: pb.Action) -> Action:
    """Decode an action the arena itself sent (legal lists): malformed is a protocol bug."""
    action = action_from_pb(message)
    if isinstance(action, Malformed):
        raise ValueError(action.reason)
    return action


# ------------------------------------------------------------------------------- views

def options_to_pb(options: TableOptions) -> pb.TableOptions:
    return pb.TableOptions(
        players=options.players, beginner=options.beginner,
        direction=_DIRECTION_TO_PB[options.direction],
    )


def options_from_pb(message: pb.TableOptions) -> TableOptions:
    return TableOptions(
        players=message.players,
        beginner=message.beginner,
        direction=_DIRECTION_FROM_PB.get(message.direction, Direction.COUNTER_CLOCKWISE),
    )


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


def view_to_pb(view: Observation) -> pb.SeatView:
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
    return message


def view_from_pb(
    message: pb.SeatView, seat: int, options: TableOptions, dealer: int
) -> Observation:
    """A seat's view as the bot receives it (no legal actions, result or revealed deal)."""
    current = message.current_trick
    n = options.players
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
    )


# ------------------------------------------------------------------------ table messages

def start_to_pb(start: TableStart) -> pb.ArenaMessage:
    return pb.ArenaMessage(table_start=pb.TableStart(
        table_id=start.table_id,
        seat=start.seat,
        options=options_to_pb(start.options),
        dealer=start.dealer,
        players=[pb.Player(seat=p.seat, bot_id=p.bot_id, bot_name=p.bot_name)
                 for p in start.players],
        view=view_to_pb(start.view),
        resumed=start.resumed,
        next_sequence=start.next_sequence,
    ))


def start_from_pb(message: pb.TableStart) -> TableStart:
    options = options_from_pb(message.options)
    return TableStart(
        table_id=message.table_id,
        seat=message.seat,
        options=options,
        dealer=message.dealer,
        players=tuple(PlayerInfo(p.seat, p.bot_id, p.bot_name) for p in message.players),
        view=view_from_pb(message.view, message.seat, options, message.dealer),
        resumed=message.resumed,
        next_sequence=message.next_sequence,
    )


class _LastEncoded:
    """The most recent deal record encoded, kept by identity: a table sends its record to
    every seat, one after the other. One tuple, replaced whole (safe across threads)."""

    record: tuple[DealRecord | None, str] = (None, "")


def event_to_pb(message: TableEvent) -> pb.ArenaMessage:
    """The reference encoding; the arena writes the same bytes faster with :mod:`.wire`."""
    wrapper = pb.ArenaMessage()
    out = wrapper.event  # filled in place: wrapping a finished message would copy it
    out.table_id = message.table_id
    out.sequence = message.sequence
    out.seat = message.seat
    fill_event(out, message.event)
    return wrapper


def _record_json(record: DealRecord) -> str:
    last = _LastEncoded.record
    if last[0] is not record:
        last = _LastEncoded.record = (record, record.dumps())
    return last[1]


def fill_event(out: pb.TableEvent, event: Event) -> None:
    if isinstance(event, CardPlayed):
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
    else:  # pragma: no cover - the Event union is closed
        raise TypeError(f"not an event: {event!r}")


def event_from_pb(message: pb.TableEvent) -> Event:
    kind = message.WhichOneof("kind")
    if kind == "card_played":
        return CardPlayed(message.card_played.seat, message.card_played.action.play)
    if kind == "trick_won":
        return TrickWon(message.trick_won.index, trick_from_pb(message.trick_won))
    if kind == "bid":
        return BidMade(message.bid.seat, action_or_raise(message.bid.action))
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
    raise ValueError(f"unknown event kind {kind!r}")


def table_event_from_pb(message: pb.TableEvent) -> TableEvent:
    """A table event with its addressing; a ``TrickWon``'s index is -1 (not on the wire)."""
    return TableEvent(message.table_id, message.seat, message.sequence, event_from_pb(message))


def request_to_pb(request: DecisionRequest) -> pb.ArenaMessage:
    """The reference encoding; the arena writes the same bytes faster with :mod:`.wire`."""
    message = request_fields_to_pb(request)
    message.legal_actions.extend([action_to_pb(a) for a in request.legal_actions])
    return pb.ArenaMessage(request=message)


def request_fields_to_pb(request: DecisionRequest) -> pb.DecisionRequest:
    """The request without its legal actions (see :mod:`.wire`)."""
    return pb.DecisionRequest(
        table_id=request.table_id,
        request_id=request.request_id,
        kind=_DECISION_KIND[request.phase],
        time_limit_ms=round(request.time_limit * 1000),
        time_bank_ms=round(request.time_bank * 1000),
        hand=request.hand,
        seat=request.seat,
    )


def request_from_pb(message: pb.DecisionRequest) -> DecisionRequest:
    return DecisionRequest(
        table_id=message.table_id,
        seat=message.seat,
        request_id=message.request_id,
        phase=_DECISION_PHASE[message.kind],
        legal_actions=tuple(action_or_raise(a) for a in message.legal_actions),
        time_limit=message.time_limit_ms / 1000,
        time_bank=message.time_bank_ms / 1000,
        hand=tuple(message.hand),
    )


def notice_to_pb(notice: Notice) -> pb.ArenaMessage:
    return pb.ArenaMessage(notice=pb.Notice(
        table_id=notice.table_id,
        request_id=notice.request_id,
        kind=_INFRACTION_TO_PB[notice.kind],
        message=notice.message,
        fallback=action_to_pb(notice.fallback) if notice.fallback is not None else None,
        seat=notice.seat,
    ))


def notice_from_pb(message: pb.Notice) -> Notice:
    """Raises ValueError for an infraction kind this version does not know. The seat is None
    when the notice concerns no seat of the bot (an answer to an unknown request)."""
    kind = _INFRACTION_FROM_PB.get(message.kind)
    if kind is None:
        raise ValueError(f"unknown infraction kind {message.kind}")
    fallback = action_or_raise(message.fallback) if message.HasField("fallback") else None
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


def infraction_kind_to_pb(kind: InfractionKind) -> pb.InfractionKind.ValueType:
    return _INFRACTION_TO_PB[kind]


def infraction_kind_from_pb(kind: int) -> InfractionKind:
    return _INFRACTION_FROM_PB[kind]  # type: ignore[index]


def end_to_pb(end: TableEnd) -> pb.ArenaMessage:
    return pb.ArenaMessage(table_end=table_end_message(end))


def table_end_message(end: TableEnd) -> pb.TableEnd:
    """A deal not revealed (``end.deal`` None) leaves hands, chien, discard and record empty."""
    message = pb.TableEnd(
        table_id=end.table_id,
        outcome=_OUTCOME_TO_PB[end.result.outcome],
        scores=end.result.scores,
        seat=end.seat,
    )
    if end.deal is not None and end.record is not None:
        message.hands.extend(pb.CardList(cards=h) for h in end.deal.hands)
        message.chien.extend(end.deal.chien)
        message.discard.extend(end.discard)
        message.record_json = _record_json(end.record)
    return message


def end_from_pb(message: pb.TableEnd) -> TableEnd:
    """The result and the revealed deal, both taken from the JSON record the message carries;
    without a record (a deal not revealed), the outcome and scores alone.

    Raises ValueError when the record is malformed or has no result.
    """
    if not message.record_json:
        outcome = _OUTCOME_FROM_PB.get(message.outcome)
        if outcome is None:
            raise ValueError(f"table end of {message.table_id!r}: unknown outcome "
                             f"{message.outcome}")
        result = DealResult(outcome, tuple(message.scores))
        return TableEnd(message.table_id, message.seat, result, None, (), None)
    try:
        record = DealRecord.loads(message.record_json)
    except RecordError as exc:
        raise ValueError(f"table end of {message.table_id!r}: {exc}") from exc
    if record.result is None:
        raise ValueError(f"table end of {message.table_id!r}: the record has no result")
    return TableEnd(
        message.table_id, message.seat, record.result, record.deal, tuple(message.discard), record
    )


# ------------------------------------------------------------------------- bot messages

def hello_to_pb(
    token: str, name: str, version: str, max_tables: int, batching: bool = True
) -> pb.BotMessage:
    return pb.BotMessage(hello=pb.Hello(
        token=token, bot_name=name, bot_version=version,
        protocol_version=PROTOCOL_VERSION, max_tables=max_tables, batching=batching,
    ))


def decision_to_pb(table_id: str, request_id: int, action: Action) -> pb.BotMessage:
    return pb.BotMessage(decision=pb.Decision(
        table_id=table_id, request_id=request_id, action=action_to_pb(action),
    ))


def welcome_from_pb(message: pb.Welcome) -> Welcome:
    return Welcome(
        message.bot_id, message.protocol_version, message.max_tables, message.max_message_bytes,
        message.batching,
    )


def unbatch(message: pb.ArenaMessage) -> list[pb.ArenaMessage]:
    """The messages a MessageBatch holds, in order, or ``[message]`` if it is not a batch: a
    batch is exactly its messages sent one by one, so a bot decodes each as it would alone."""
    if message.WhichOneof("kind") == "batch":
        return list(message.batch.messages)
    return [message]


def arena_message_from_pb(message: pb.ArenaMessage) -> DecodedArenaMessage:
    """Decode one message the arena sends a bot (a batch is :func:`unbatch`-ed first);
    ValueError for what this version cannot read."""
    kind = message.WhichOneof("kind")
    if kind == "event":
        return table_event_from_pb(message.event)
    if kind == "request":
        return request_from_pb(message.request)
    if kind == "table_start":
        return start_from_pb(message.table_start)
    if kind == "notice":
        return notice_from_pb(message.notice)
    if kind == "table_end":
        return end_from_pb(message.table_end)
    if kind == "welcome":
        return welcome_from_pb(message.welcome)
    if kind == "goodbye":
        return goodbye_from_pb(message.goodbye)
    raise ValueError(f"unknown arena message kind {kind!r}")


def describe_action(message: pb.Action) -> str:
    """Short text of a protocol action for logs."""
    action = action_from_pb(message)
    if isinstance(action, Malformed):
        return f"<malformed: {action.reason}>"
    return str(action)


__all__ = [
    "PROTOCOL_VERSION",
    "DecodedArenaMessage",
    "Goodbye",
    "GoodbyeReason",
    "Welcome",
    "action_from_pb",
    "action_or_raise",
    "action_to_pb",
    "arena_message_from_pb",
    "decision_to_pb",
    "end_from_pb",
    "end_to_pb",
    "event_from_pb",
    "event_to_pb",
    "goodbye_from_pb",
    "goodbye_to_pb",
    "hello_to_pb",
    "infraction_kind_from_pb",
    "infraction_kind_to_pb",
    "notice_from_pb",
    "notice_to_pb",
    "options_from_pb",
    "options_to_pb",
    "request_from_pb",
    "request_to_pb",
    "start_from_pb",
    "start_to_pb",
    "table_end_message",
    "table_event_from_pb",
    "trick_from_pb",
    "unbatch",
    "view_from_pb",
    "view_to_pb",
    "welcome_from_pb",
]
