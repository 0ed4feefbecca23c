"""What every game's deal records share: reading their JSON field by field (each error naming
the field), and replaying their actions through the rules (each error naming the action), with
the game's own error classes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .base import IllegalActionError


class RecordError(ValueError):
    """A record that is not well-formed JSON of its game's format."""


class ReplayError(ValueError):
    """A record whose actions or result the rules do not reproduce; ``index`` is the first
    illegal action's, if an action is to blame."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


class Reader:
    """Checked readers of JSON values that raise ``error`` (a :class:`ValueError` subclass,
    such as a game's ``RecordError``) with the path of the bad value."""

    def __init__(self, error: type[ValueError] = RecordError) -> None:
        self.error = error

    def field(self, data: dict[str, Any], key: str, where: str = "") -> Any:
        if key not in data:
            raise self.error(f"missing field {where}{key}")
        return data[key]

    def mapping(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.error(f"{where} must be a JSON object, got {value!r}")
        return value

    def integer(self, value: Any, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(f"{where} must be an integer, got {value!r}")
        return value

    def optional_integer(self, value: Any, where: str) -> int | None:
        return None if value is None else self.integer(value, where)

    def boolean(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.error(f"{where} must be true or false, got {value!r}")
        return value

    def text(self, value: Any, where: str) -> str:
        if not isinstance(value, str):
            raise self.error(f"{where} must be a string, got {value!r}")
        return value


def replay_actions(
    state: Any,
    actions: Sequence[tuple[int, Any]],
    apply: Callable[[Any, Any, int], None],
    format_action: Callable[[Any], str],
    error: Callable[[str, int], ValueError],
) -> None:
    """Apply a record's (seat, action) pairs in order; ``error(message, index)`` names the
    first illegal one and why."""
    for index, (seat, action) in enumerate(actions):
        try:
            apply(state, action, seat)
        except IllegalActionError as exc:
            raise error(
                f"action {index} ({format_action(action)} by seat {seat}) is illegal: "
                f"{exc.reason}", index,
            ) from exc


def check_result(
    state: Any, recorded: Any, actions: int, error: type[ValueError],
    describe: Callable[[Any], object],
) -> None:
    """The replayed state ends as the record says (``recorded`` None: nothing to check)."""
    if recorded is None:
        return
    if state.result is None:
        raise error(
            f"the record has a result but its {actions} actions do not finish the deal (phase "
            f"{state.phase.value}, seat {state.to_act} to act)"
        )
    if state.result != recorded:
        raise error(
            f"the recorded result {describe(recorded)} differs from the rules' "
            f"{describe(state.result)}"
        )
