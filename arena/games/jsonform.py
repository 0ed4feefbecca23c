"""Plain JSON for a game's frozen values (observations, events, results), driven by their type
hints, so that a game gets its generic wire and storage form without writing one by hand.

The mapping is fixed and documented for clients in other languages:
- a dataclass or named tuple: an object of its (constructor) fields;
- an enum: its value; a :class:`~fractions.Fraction`: its text (``"77/3"``);
- a tuple or list: an array; ``None``: ``null``; ints, strings and booleans as themselves;
- an action of the game: its text notation (``"play T21"``), since several action classes
  share a shape (``{"card": 5}`` would not say whether it is played or discarded).

Decoding checks every value against the type it must have and raises :class:`ValueError`
naming the path to the first bad one, so JSON from the wire cannot build a malformed value.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from enum import Enum
from fractions import Fraction
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

_NONE = type(None)
T = TypeVar("T")


class JsonForm:
    """The JSON form of one game's values. ``action_types``: the game's action classes, which
    travel as text through ``format_action`` / ``parse_action``."""

    def __init__(
        self,
        action_types: tuple[type, ...],
        format_action: Callable[[Any], str],
        parse_action: Callable[[str], Any],
        event_types: tuple[type, ...] = (),
    ) -> None:
        self._actions = action_types
        self._format = format_action
        self._parse = parse_action
        self._hints: dict[type, dict[str, Any]] = {}
        self._events = {event_kind(t): t for t in event_types}

    def event_to_json(self, event: Any) -> tuple[str, dict[str, Any]]:
        """An event's kind (its class name in kebab case: ``CardPlayed`` -> ``card-played``)
        and its fields."""
        kind = event_kind(type(event))
        if self._events.get(kind) is not type(event):
            raise TypeError(f"{type(event).__name__} is not an event of this game")
        data = self.to_json(event)
        assert isinstance(data, dict)
        return kind, data

    def event_from_json(self, kind: str, data: Any) -> Any:
        event_type = self._events.get(kind)
        if event_type is None:
            raise ValueError(
                f"unknown event {kind!r}: this game's events are {', '.join(sorted(self._events))}"
            )
        return self._record(event_type, data, kind)

    def to_json(self, value: Any) -> Any:
        if value is None or isinstance(value, bool | int | str):
            return value
        if isinstance(value, self._actions):
            return self._format(value)
        if isinstance(value, Enum):
            return value.value
        if isinstance(value, Fraction):
            return str(value)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return {
                f.name: self.to_json(getattr(value, f.name))
                for f in dataclasses.fields(value) if f.init
            }
        if isinstance(value, tuple) and hasattr(value, "_fields"):
            return {name: self.to_json(getattr(value, name)) for name in value._fields}
        if isinstance(value, tuple | list):
            return [self.to_json(item) for item in value]
        raise TypeError(f"{type(value).__name__} has no JSON form")

    def object_to_json(self, value: Any) -> dict[str, Any]:
        """A dataclass or named tuple (an observation, a result) as a JSON object."""
        data = self.to_json(value)
        if not isinstance(data, dict):
            raise TypeError(f"{type(value).__name__} is not an object")
        return data

    def decode(self, kind: type[T], data: Any) -> T:
        """``data`` as a value of the class ``kind`` (see :meth:`from_json`)."""
        value: T = self.from_json(kind, data)
        return value

    def from_json(self, kind: Any, data: Any, where: str = "$") -> Any:
        """``data`` decoded as a value of type ``kind`` (a type hint)."""
        origin = get_origin(kind)
        if kind is Any:
            return data
        if origin in (Union, types.UnionType):
            options = get_args(kind)
            if data is None and _NONE in options:
                return None
            if all(isinstance(o, type) and issubclass(o, self._actions) for o in options
                   if o is not _NONE):
                return self._action(data, where)
            rest = [o for o in options if o is not _NONE]
            if len(rest) == 1:
                return self.from_json(rest[0], data, where)
            raise ValueError(f"{where}: cannot tell which of {kind} this is")
        if origin is tuple:
            args = get_args(kind)
            items = self._list(data, where)
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple(
                    self.from_json(args[0], item, f"{where}[{i}]") for i, item in enumerate(items)
                )
            if len(items) != len(args):
                raise ValueError(f"{where}: expected {len(args)} items, got {len(items)}")
            return tuple(
                self.from_json(a, item, f"{where}[{i}]")
                for i, (a, item) in enumerate(zip(args, items, strict=True))
            )
        if origin is list:
            (arg,) = get_args(kind)
            return [
                self.from_json(arg, item, f"{where}[{i}]")
                for i, item in enumerate(self._list(data, where))
            ]
        if not isinstance(kind, type):
            raise TypeError(f"{where}: unsupported type hint {kind!r}")
        if issubclass(kind, self._actions):
            return self._action(data, where)
        if issubclass(kind, bool):
            if not isinstance(data, bool):
                raise ValueError(f"{where}: expected true or false, got {data!r}")
            return data
        if issubclass(kind, Enum):
            try:
                return kind(data)
            except ValueError:
                raise ValueError(f"{where}: {data!r} is not a {kind.__name__}") from None
        if issubclass(kind, int):
            if isinstance(data, bool) or not isinstance(data, int):
                raise ValueError(f"{where}: expected an integer, got {data!r}")
            return data
        if issubclass(kind, str):
            if not isinstance(data, str):
                raise ValueError(f"{where}: expected a string, got {data!r}")
            return data
        if issubclass(kind, Fraction):
            try:
                return Fraction(data) if isinstance(data, str | int) else _fail(where, data)
            except (ValueError, ZeroDivisionError):
                raise ValueError(f"{where}: {data!r} is not a fraction") from None
        if dataclasses.is_dataclass(kind) or (issubclass(kind, tuple) and hasattr(kind, "_fields")):
            return self._record(kind, data, where)
        raise TypeError(f"{where}: {kind.__name__} has no JSON form")

    def _record(self, kind: type, data: Any, where: str) -> Any:
        if not isinstance(data, dict):
            raise ValueError(f"{where}: expected an object, got {data!r}")
        hints = self._hints.get(kind)
        if hints is None:
            hints = self._hints[kind] = get_type_hints(kind)
        if dataclasses.is_dataclass(kind):
            names = [f.name for f in dataclasses.fields(kind) if f.init]
        else:
            names = list(kind._fields)  # type: ignore[attr-defined]
        unknown = set(data) - set(names)
        if unknown:
            raise ValueError(f"{where}: unknown field {sorted(unknown)[0]!r}")
        values = {}
        for name in names:
            if name in data:
                values[name] = self.from_json(hints[name], data[name], f"{where}.{name}")
        try:
            return kind(**values)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{where}: {exc}") from None

    def _action(self, data: Any, where: str) -> Any:
        if not isinstance(data, str):
            raise ValueError(f"{where}: an action is its text form, got {data!r}")
        try:
            return self._parse(data)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None

    @staticmethod
    def _list(data: Any, where: str) -> list[Any]:
        if not isinstance(data, list):
            raise ValueError(f"{where}: expected an array, got {data!r}")
        return data


def event_kind(event_type: type) -> str:
    name = event_type.__name__
    return "".join(f"-{c.lower()}" if c.isupper() and i else c.lower() for i, c in enumerate(name))


def _fail(where: str, data: Any) -> Any:
    raise ValueError(f"{where}: {data!r} is not a fraction")
