"""The protocol's forms every game's codec shares: actions in their neutral form, tricks, and a
game's phase or outcome as the protocol's enum of the same name."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

from arena.games import Game, WireAction
from arena.games.tricks import Trick
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.table.messages import Answer, Malformed


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


def action_to_pb(action: Any, game: Game) -> pb.Action:
    return wire_to_pb(game.action_to_wire(action))


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


def action_from_pb(message: pb.Action, game: Game) -> Any:
    """The game's action a protocol message names, or :class:`Malformed` saying what is
    wrong."""
    return action_from_wire(wire_from_pb(message), game)


READ_ACTIONS_KEPT: Final = 4096
"""Actions read per game at most in :data:`_READ_ACTIONS`: a game's actions are few (French
Tarot's are under 200), so the cap only bounds what a misbehaving arena could make a bot keep."""
_READ_ACTIONS: dict[str, dict[object, Any]] = {}
"""The actions :func:`action_or_raise` read, per game name and (field, value): a bot reads a
legal list with every request, most of its actions seen many times already, and reading one
through its neutral form was an eighth of the SDK's decoding per decision."""


def action_or_raise(message: pb.Action, game: Game) -> Any:
    """Decode an action the arena itself sent (legal lists): malformed is a protocol bug.

    The same field and value always read as the same action of a game (actions are frozen
    values), so each is read once and then looked up."""
    kind = message.WhichOneof("kind")
    key = kind if kind is None or kind == "pass" else (kind, getattr(message, kind))
    known = _READ_ACTIONS.get(game.name)
    if known is None:
        known = _READ_ACTIONS[game.name] = {}
    action = known.get(key)
    if action is not None:
        return action
    action = action_from_pb(message, game)
    if isinstance(action, Malformed):
        raise ValueError(action.reason)
    if len(known) < READ_ACTIONS_KEPT:
        known[key] = action
    return action


def actions_or_raise(messages: Iterable[pb.Action], game: Game) -> tuple[Any, ...]:
    """:func:`action_or_raise` for each of a legal list, the game's actions looked up once."""
    known = _READ_ACTIONS.get(game.name)
    if known is None:
        known = _READ_ACTIONS[game.name] = {}
    out = []
    for message in messages:
        kind = message.WhichOneof("kind")
        key = kind if kind is None or kind == "pass" else (kind, getattr(message, kind))
        action = known.get(key)
        out.append(action_or_raise(message, game) if action is None else action)
    return tuple(out)


def _request_bytes_class() -> Any:
    """A message of DecisionRequest's fields and numbers, but its legal actions as ``repeated
    bytes`` and its hand as ``bytes``: the same wire format (an embedded message and a packed
    repeated field are both length-delimited), read without a Python object per action and
    card. Made here from DecisionRequest's own descriptor, in a pool of its own."""
    file = descriptor_pb2.FileDescriptorProto(
        name="tarot_arena/internal/request_bytes.proto", package="tarot_arena.internal",
        syntax="proto3",
    )
    pb.DecisionRequest.DESCRIPTOR.CopyToProto(file.message_type.add())
    message = file.message_type[0]
    message.name = "RequestBytes"
    for field in message.field:
        if field.name in ("legal_actions", "hand"):
            field.type = descriptor_pb2.FieldDescriptorProto.TYPE_BYTES
            field.ClearField("type_name")
            if field.name == "hand":
                field.label = descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL
    pool = descriptor_pool.DescriptorPool()
    for dependency in pb.DESCRIPTOR.dependencies:  # the enums' and options' files
        dependency_file = descriptor_pb2.FileDescriptorProto()
        dependency.CopyToProto(dependency_file)
        pool.Add(dependency_file)
    own = descriptor_pb2.FileDescriptorProto()
    pb.DESCRIPTOR.CopyToProto(own)
    pool.Add(own)
    file.dependency.append(own.name)
    pool.Add(file)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(
        "tarot_arena.internal.RequestBytes"))


_REQUEST_BYTES: Final = _request_bytes_class()
_ACTIONS_BY_BYTES: dict[str, dict[bytes, Any]] = {}
"""Per game, the action each encoding of an Action read as (:func:`request_parts`): bounded
like :data:`_READ_ACTIONS`."""


def request_parts(
    message: pb.DecisionRequest, game: Game
) -> tuple[tuple[Any, ...], tuple[int, ...]]:
    """A request's legal actions (as :func:`actions_or_raise`) and hand, read from its bytes.

    Read field by field, a legal list cost a Python object, a oneof test and a look-up per
    action (23 us for a hand's 19 plays, most of what decoding a request cost); serialized
    again and read as bytes (:func:`_request_bytes_class`), it costs one look-up per action
    (the encoding of each action read once), and a hand of cards under 128 (every game's) is
    its bytes. Anything else reads field by field, as before: a hand with a larger number, or
    an encoding that does not match the message's own counts (a hand sent unpacked)."""
    legal_fields = message.legal_actions
    hand_field = message.hand
    raw = _REQUEST_BYTES.FromString(message.SerializeToString())
    encoded = raw.legal_actions
    if len(encoded) == len(legal_fields):
        known = _ACTIONS_BY_BYTES.get(game.name)
        if known is None:
            known = _ACTIONS_BY_BYTES[game.name] = {}
        legal = []
        for data in encoded:
            action = known.get(data)
            if action is None:
                action = action_or_raise(pb.Action.FromString(data), game)
                if len(known) < READ_ACTIONS_KEPT:
                    known[data] = action
            legal.append(action)
        actions = tuple(legal)
    else:  # pragma: no cover - the counts always match: a defence, not a path
        actions = actions_or_raise(legal_fields, game)
    packed = raw.hand
    # Bytes under 128 are one varint each: then a packed field of as many bytes as the hand has
    # cards holds all of them (a field sent in parts keeps only its last part here).
    hand = (tuple(packed) if len(packed) == len(hand_field) and packed.isascii()
            else tuple(hand_field))
    return actions, hand


def trick_to_pb(trick: Any, index: int) -> pb.Trick:
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


def phase_to_pb(phase: Any) -> pb.Phase.ValueType:
    """A game's phase as the protocol's Phase of the same name, if there is one."""
    name = str(getattr(phase, "value", phase)).upper().replace("-", "_")
    known = pb.Phase.DESCRIPTOR.values_by_name
    return known[name].number if name in known else pb.PHASE_UNSPECIFIED


def outcome_to_pb(outcome: Any) -> pb.DealOutcome.ValueType:
    """A game's outcome as the protocol's DealOutcome of the same name (PLAYED if none)."""
    name = str(getattr(outcome, "value", outcome)).upper().replace("-", "_")
    known = pb.DealOutcome.DESCRIPTOR.values_by_name
    return known[name].number if name in known else pb.PLAYED
