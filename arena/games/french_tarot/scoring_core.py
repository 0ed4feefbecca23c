"""The arithmetic of scoring one French Tarot deal, on plain ints, compiled (arena/native.py).

:func:`~arena.games.french_tarot.scoring.score_deal`, the club's calculator, and the engine
ending every deal both score through :func:`score_terms`: one code path. It lives apart from
the summary and breakdown classes so that compiling it leaves them ordinary frozen dataclasses
(mypyc would make them native classes): the engine ends each deal of a simulation with machine
arithmetic rather than interpreted bytecode.
"""

from __future__ import annotations

from typing import Final

TARGETS: Final = {0: 56, 1: 51, 2: 41, 3: 36}
"""Points the taker's side needs, by the number of bouts in its cards."""
_TARGET_OF_BOUTS: Final = tuple(TARGETS[bouts] for bouts in range(4))

PETIT_AU_BOUT: Final = 10
BASE: Final = 25
CHELEM_ANNOUNCED_MADE: Final = 400
CHELEM_UNANNOUNCED_MADE: Final = 200
CHELEM_ANNOUNCED_FAILED: Final = -200
DEFENCE_CHELEM: Final = 200


def score_terms(
    players: int,
    multiplier: int,
    taker_half_points: int,
    bouts: int,
    petit_au_bout: int,
    poignees: int,
    chelem_announced: bool,
    chelem: int,
    taker_alone: bool,
) -> tuple[int, bool, int, int, int, int, int, int, int, int, int]:
    """The fields of a :class:`~arena.games.french_tarot.scoring.ScoreBreakdown`, in order
    (RULES.md, 'Scoring one deal'). ``petit_au_bout`` and ``chelem`` are the side as a sign
    (1 the taker's, -1 the defence, 0 neither); ``poignees`` the sum of the levels shown;
    ``multiplier`` the contract's."""
    target = _TARGET_OF_BOUTS[bouts]
    diff = taker_half_points - 2 * target
    won = diff >= 0
    margin = (abs(diff) + 1) // 2
    sign = 1 if won else -1
    contract_points = sign * (BASE + margin) * multiplier
    petit = petit_au_bout * PETIT_AU_BOUT * multiplier
    poignee = sign * poignees
    chelem_points = 0
    if chelem > 0:
        chelem_points = CHELEM_ANNOUNCED_MADE if chelem_announced else CHELEM_UNANNOUNCED_MADE
    elif chelem_announced:
        chelem_points = CHELEM_ANNOUNCED_FAILED
    if chelem < 0:
        chelem_points -= DEFENCE_CHELEM
    x = contract_points + petit + poignee + chelem_points
    # (taker, partner) multiples of X so that the table sums to zero; with the dummy (2
    # players) as for three, X from each defending hand, the defender paying the dummy's too.
    partner_factor = 0
    if players == 5:
        if taker_alone:
            taker_factor = 4
        else:
            taker_factor = 2
            partner_factor = 1
    elif players == 2:
        taker_factor = 2
    else:
        taker_factor = players - 1
    defender_factor = 2 if players == 2 else 1
    return (
        target,
        won,
        margin,
        contract_points,
        petit,  # petit_au_bout
        poignee,
        chelem_points,  # chelem
        x,  # per_defender
        taker_factor * x,  # taker
        partner_factor * x,  # partner
        -defender_factor * x,  # defender
    )


def seat_scores(
    players: int, taker: int, partner: int | None, taker_score: int, partner_score: int,
    defender_score: int,
) -> tuple[int, ...]:
    """Each seat's score from its role's (a breakdown's ``taker``, ``partner`` and
    ``defender``): :func:`~arena.games.french_tarot.scoring.table_scores`."""
    scores = [defender_score] * players
    scores[taker] = taker_score
    if partner is not None and partner != taker:
        scores[partner] = partner_score
    return tuple(scores)
