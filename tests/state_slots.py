"""A game state's attributes, compiled engine or not (arena.native): a pure class lists them in
``__slots__``; a class mypyc compiled keeps none there, and lists them in ``__mypyc_attrs__``."""

from __future__ import annotations


def slots_of(cls: type) -> tuple[str, ...]:
    names = getattr(cls, "__mypyc_attrs__", None) or cls.__slots__
    return tuple(sorted(name for name in names if name != "__dict__"))
