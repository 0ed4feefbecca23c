"""The generic form of the protocol, the one every game has: a game's name and its settings in
JSON for its options, the common fields of ``SeatView`` where the view has them and the whole
view as the game's JSON (``details_json``), and each event as ``TableEvent.game_event`` (its
kind and JSON fields). Written once for all games from the game's own JSON forms
(:mod:`arena.games.jsonform`); ``docs/protocol-games.md`` documents each game's kinds and keys."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from arena.games import Game
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb

from .pb_forms import current_trick_to_pb, outcome_to_pb, phase_to_pb, trick_to_pb


class GenericCodec:
    """Any game's messages in the generic form."""

    typed_events: Mapping[str, str] = {}
    """No event has a typed field of its own: every one is ``game_event``."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __repr__(self) -> str:
        return f"<generic codec of {self.game.name}>"

    def options_to_pb(self, options: Any) -> pb.TableOptions:
        settings = self.game.options_to_json(options)
        players = settings.pop("players")
        return pb.TableOptions(
            players=players, game=self.game.name,
            settings_json=json.dumps(settings, sort_keys=True) if settings else "",
        )

    def options_from_pb(self, message: pb.TableOptions) -> Any:
        settings = self.options_from_json_settings(message)
        return self.game.options_from_json({**settings, "players": message.players})

    @staticmethod
    def options_from_json_settings(message: pb.TableOptions) -> dict[str, Any]:
        """``settings_json`` as an object; ValueError if it is not one."""
        try:
            settings = json.loads(message.settings_json) if message.settings_json else {}
        except json.JSONDecodeError as exc:
            raise ValueError(f"settings_json is not JSON: {exc}") from None
        if not isinstance(settings, dict):
            raise ValueError("settings_json must be a JSON object")
        return settings

    def view_to_pb(self, view: Any) -> pb.SeatView:
        """The common fields where the observation has them, and the whole view as JSON."""
        current = tuple(getattr(view, "current_trick", ()))
        tricks = tuple(getattr(view, "tricks", ()))
        to_act = getattr(view, "to_act", None)
        return pb.SeatView(
            phase=self.phase_to_pb(getattr(view, "phase", None)),
            hand=getattr(view, "hand", ()),
            tricks=[trick_to_pb(t, i) for i, t in enumerate(tricks)],
            current_trick=current_trick_to_pb(current, len(tricks)),
            to_act=to_act,
            has_to_act=to_act is not None,
            details_json=json.dumps(self.game.observation_to_json(view), separators=(",", ":")),
        )

    def view_from_pb(self, message: pb.SeatView, seat: int, options: Any, dealer: int) -> Any:
        """ValueError if the JSON view is malformed."""
        try:
            data = json.loads(message.details_json)
        except json.JSONDecodeError as exc:
            raise ValueError(f"details_json is not JSON: {exc}") from None
        return self.game.observation_from_json(data)

    def fill_event(self, out: pb.TableEvent, event: Any) -> None:
        kind, data = self.game.event_to_json(event)
        out.game_event.kind = kind
        out.game_event.json = json.dumps(data, separators=(",", ":"))

    def event_from_pb(self, message: pb.TableEvent) -> Any:
        """ValueError for an event this game has not, or malformed JSON."""
        kind = message.WhichOneof("kind")
        if kind != "game_event":
            raise ValueError(f"{self.game.title} has no event {kind!r}")
        try:
            data = json.loads(message.game_event.json)
        except json.JSONDecodeError as exc:
            raise ValueError(f"event {message.game_event.kind!r} is not JSON: {exc}") from None
        return self.game.event_from_json(message.game_event.kind, data)

    def phase_to_pb(self, phase: Any) -> pb.Phase.ValueType:
        return phase_to_pb(phase)

    def outcome_to_pb(self, outcome: Any) -> pb.DealOutcome.ValueType:
        return outcome_to_pb(outcome)
