"""French Tarot's typed messages: the protocol's own fields for its options (``beginner``,
``direction``), its view (``bids``, ``contract``, ``chien``...) and its events (``bid``,
``card_played``, ``trick_won``...), as protocol version 1 defined them before the arena played
other games. Protocol versions 1 and 2 carry French Tarot this way, byte for byte as they always
did (``tests/transport/test_hello_versions.py``, ``tests/protocol``); every other game, and any
later form, goes through :mod:`.codec_generic`."""

from __future__ import annotations

import json
from typing import Any, Final

from arena.games import Game
from arena.games.french_tarot import (
    Contract,
    DealOutcome,
    Direction,
    Observation,
    Phase,
    PoigneeLevel,
    ShownPoignee,
    TableOptions,
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
from arena.games.frozen import twin
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb

from .codec_generic import GenericCodec
from .pb_forms import (
    action_or_raise,
    action_to_pb,
    current_trick_to_pb,
    trick_from_pb,
    trick_to_pb,
)

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
_DIRECTION_TO_PB: Final = {
    Direction.COUNTER_CLOCKWISE: pb.COUNTER_CLOCKWISE, Direction.CLOCKWISE: pb.CLOCKWISE,
}
_DIRECTION_FROM_PB: Final = {v: k for k, v in _DIRECTION_TO_PB.items()}
TYPED_EVENTS: Final = {
    "bid-made": "bid", "card-called": "card_called", "chien-shown": "chien_shown",
    "card-discarded": "card_discarded", "trump-discarded": "trump_discarded",
    "chelem-decided": "chelem", "poignee-shown": "poignee", "card-played": "card_played",
    "trick-won": "trick_won", "partner-revealed": "partner_revealed",
    "dummy-shown": "dummy_shown",
}
"""Each French Tarot event kind (as the game declares it) and the TableEvent field that carries
it in versions 1 and 2."""
_TYPED_SETTINGS: Final = frozenset({"players", "beginner", "direction"})
_OUTCOME_TO_PB: Final = {
    DealOutcome.PLAYED: pb.PLAYED, DealOutcome.ALL_PASSED: pb.ALL_PASSED,
    DealOutcome.PETIT_SEC: pb.PETIT_SEC,
}


def poignee_to_pb(poignee: ShownPoignee) -> pb.ShownPoignee:
    return pb.ShownPoignee(
        seat=poignee.seat, level=_LEVEL_TO_PB[poignee.level], cards=poignee.cards
    )


def poignee_from_pb(message: pb.ShownPoignee) -> ShownPoignee:
    return ShownPoignee(message.seat, _LEVEL_FROM_PB[message.level], tuple(message.cards))


def _optional(message: pb.SeatView, field: str, flag: bool) -> int | None:
    """An ``optional`` field of a view, also read from its has_* flag (set alike)."""
    return getattr(message, field) if flag or message.HasField(field) else None


class FrenchTarotCodec:
    """French Tarot in the protocol's typed fields (protocol versions 1 and 2)."""

    typed_events: Final = TYPED_EVENTS

    def __init__(self, game: Game) -> None:
        self.game = game

    def __repr__(self) -> str:
        return "<typed codec of french-tarot>"

    def options_to_pb(self, options: TableOptions) -> pb.TableOptions:
        """The typed fields, with no game name (as protocol 1 has them); a setting that has no
        typed field (a variant rule added since) in ``settings_json``, as for every game."""
        settings = self.game.options_to_json(options)
        rest = {k: v for k, v in settings.items() if k not in _TYPED_SETTINGS}
        return pb.TableOptions(
            players=options.players, beginner=options.beginner,
            direction=_DIRECTION_TO_PB[options.direction],
            settings_json=json.dumps(rest, sort_keys=True) if rest else "",
        )

    def options_from_pb(self, message: pb.TableOptions) -> TableOptions:
        """ValueError for bad settings."""
        rest = GenericCodec(self.game).options_from_json_settings(message)
        options: TableOptions = self.game.options_from_json({
            **rest, "players": message.players, "beginner": message.beginner,
            "direction": _DIRECTION_FROM_PB.get(
                message.direction, Direction.COUNTER_CLOCKWISE).value,
        })
        return options

    def view_to_pb(self, view: Observation) -> pb.SeatView:
        game = self.game
        current = view.current_trick
        message = pb.SeatView(
            phase=_PHASE_TO_PB[view.phase],
            hand=view.hand,
            bids=[pb.SeatAction(seat=s, action=action_to_pb(a, game)) for s, a in view.bids],
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
        self, message: pb.SeatView, seat: int, options: TableOptions, dealer: int
    ) -> Observation:
        """A seat's view as the bot receives it (no legal actions, result or revealed deal)."""
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
            bids=tuple((b.seat, action_or_raise(b.action, self.game)) for b in message.bids),
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

    def fill_event(self, out: pb.TableEvent, event: Any) -> None:
        if isinstance(event, CardPlayed):
            out.card_played.CopyFrom(
                pb.SeatAction(seat=event.seat, action=pb.Action(play=event.card)))
        elif isinstance(event, TrickWon):
            out.trick_won.CopyFrom(trick_to_pb(event.trick, event.index))
        elif isinstance(event, BidMade):
            out.bid.CopyFrom(
                pb.SeatAction(seat=event.seat, action=action_to_pb(event.action, self.game)))
        elif isinstance(event, CardCalled):
            out.card_called = event.card
        elif isinstance(event, ChienShown):
            out.chien_shown.CopyFrom(pb.CardList(cards=event.cards))
        elif isinstance(event, CardDiscarded):
            out.card_discarded = event.card
        elif isinstance(event, TrumpDiscarded):
            out.trump_discarded = event.card
        elif isinstance(event, ChelemDecided):
            out.chelem.CopyFrom(
                pb.SeatAction(seat=event.seat, action=pb.Action(chelem=event.announce)))
        elif isinstance(event, PoigneeShown):
            out.poignee.CopyFrom(poignee_to_pb(event.poignee))
        elif isinstance(event, PartnerRevealed):
            out.partner_revealed = event.seat
        elif isinstance(event, DummyShown):
            out.dummy_shown.CopyFrom(pb.CardList(cards=event.cards))
        else:  # pragma: no cover - the Event union is closed
            raise TypeError(f"not an event: {event!r}")

    def event_from_pb(self, message: pb.TableEvent) -> Any:
        """ValueError for an event this version cannot read."""
        kind = message.WhichOneof("kind")
        if kind == "card_played":
            played = message.card_played
            return _card_played(played.seat, played.action.play)
        if kind == "trick_won":
            return TrickWon(message.trick_won.index, trick_from_pb(message.trick_won))
        if kind == "bid":
            return BidMade(message.bid.seat, action_or_raise(message.bid.action, self.game))
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

    def phase_to_pb(self, phase: Phase) -> pb.Phase.ValueType:
        return _PHASE_TO_PB[phase]

    def outcome_to_pb(self, outcome: DealOutcome) -> pb.DealOutcome.ValueType:
        return _OUTCOME_TO_PB[outcome]


_PlayedDraft, _played = twin(CardPlayed)
_new: Final = object.__new__


def _card_played(seat: int, card: int) -> CardPlayed:
    """``CardPlayed(seat, card)`` without the frozen constructor's ``object.__setattr__`` per
    field (:func:`~arena.games.frozen.twin`): most of the events a bot reads are cards."""
    made = _new(_PlayedDraft)
    made.seat = seat
    made.card = card
    return _played(made)
