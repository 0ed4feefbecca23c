"""Reading a deal record's JSON field by field, each error naming the field: what every game's
record loader does before it builds its own record, raising the game's own error class."""

from __future__ import annotations

from typing import Any


class Reader:
    """Checked readers of JSON values that raise ``error`` (a :class:`ValueError` subclass,
    such as a game's ``RecordError``) with the path of the bad value."""

    def __init__(self, error: type[ValueError]) -> None:
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
