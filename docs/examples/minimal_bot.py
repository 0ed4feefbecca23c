"""The smallest useful bot: it never takes, and plays its lowest legal card."""

from arena.games.french_tarot import PASS, Play
from clients.sdk import Bot


class LowestCard(Bot):
    name = "lowest-card"  # shown in standings
    version = "1.0"

    def bid(self, table, request):
        return PASS  # never take, so it is never asked to call, discard or announce

    def decide(self, table, request):
        # request.legal_actions is complete: answer with one of them and the arena never
        # refuses it. Before its first card a seat may also be offered poignées: skipped here.
        plays = [a for a in request.legal_actions if isinstance(a, Play)]
        return plays[0] if plays else request.legal_actions[0]
