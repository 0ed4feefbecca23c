"""The Python bot SDK: write one decision method, the SDK plays it on the arena.

::

    from clients.sdk import Bot, run_bot

    class FirstLegal(Bot):
        def decide(self, table, request):
            return request.legal_actions[0]

    run_bot(FirstLegal(), "127.0.0.1:50051", token="tka_...", max_tables=4)

or, for any bot class, ``python -m clients.run --server HOST:PORT --token TOKEN --bot
module.path:ClassName``. A bot sees a :class:`TableView` per seat it holds, kept up to date from
the arena's messages, and answers :class:`DecisionRequest` values with one of their
``legal_actions``. Over the internet, connect with TLS: ``run_bot(..., tls=True)`` for an arena
with a public certificate, ``tls=ClientTls(ca="ca.pem")`` for one signed by the organiser's own
CA. The SDK speaks protocol version 1 (``proto/tarot_arena/v1/arena.proto``) over
one gRPC stream per client, plays several tables at once, and reconnects when the stream breaks.

The implementation modules are private; this module picks the public names.
"""

from arena.games.french_tarot import (
    Action,
    BidMade,
    CardCalled,
    CardDiscarded,
    CardPlayed,
    ChelemDecided,
    ChienShown,
    DummyShown,
    Event,
    PartnerRevealed,
    Phase,
    PoigneeShown,
    TrickWon,
    TrumpDiscarded,
)
from arena.table.messages import DecisionRequest, Notice, PlayerInfo, TableEnd
from arena.transport.convert import Goodbye, GoodbyeReason, Welcome

from ._bot import Bot, as_action
from ._client import (
    ArenaClient,
    ArenaRejectedError,
    ArenaTlsError,
    ArenaUnreachableError,
    Backoff,
    run_bot,
)
from ._view import TableView
from .sampler import Constraints, DeadlinePassedError, NoConsistentDealError, Sample, Sampler
from .solver import solve, solve_cards
from .tls import ClientTls

__all__ = [
    "Action",
    "ArenaClient",
    "ArenaRejectedError",
    "ArenaTlsError",
    "ArenaUnreachableError",
    "Backoff",
    "BidMade",
    "Bot",
    "CardCalled",
    "CardDiscarded",
    "CardPlayed",
    "ChelemDecided",
    "ChienShown",
    "ClientTls",
    "Constraints",
    "DeadlinePassedError",
    "DecisionRequest",
    "DummyShown",
    "Event",
    "Goodbye",
    "GoodbyeReason",
    "NoConsistentDealError",
    "Notice",
    "PartnerRevealed",
    "Phase",
    "PlayerInfo",
    "PoigneeShown",
    "Sample",
    "Sampler",
    "TableEnd",
    "TableView",
    "TrickWon",
    "TrumpDiscarded",
    "Welcome",
    "as_action",
    "run_bot",
    "solve",
    "solve_cards",
]
