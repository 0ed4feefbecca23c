"""Tarot Arena: a gRPC arena for French Tarot bots with duplicate scoring."""

from . import native

native.install()  # before any game module loads: compiled engine or pure Python (arena.native)
