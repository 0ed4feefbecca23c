"""A bot for the toy game, written with the Python SDK like any bot: it says which game it
plays and answers from the legal actions it is sent. It plays its highest legal card."""

from __future__ import annotations

from typing import Any

from arena.table.messages import DecisionRequest
from clients.sdk import Bot, TableView


class HighCard(Bot):
    games = ("toy",)

    def play(self, table: TableView, request: DecisionRequest) -> Any:
        return max(request.legal_actions, key=lambda action: action.card)


class LowCard(Bot):
    games = ("toy",)

    def play(self, table: TableView, request: DecisionRequest) -> Any:
        return min(request.legal_actions, key=lambda action: action.card)
