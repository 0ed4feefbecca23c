"""The arena's contract for every game (``tests/games/test_contract.py``), kept by Tre e
Venticinque. The game is not registered yet (the layers above it integrate it next), so the
shared checks are run here on it directly."""

from __future__ import annotations

from arena.games.tre_e_venticinque import TRE_E_VENTICINQUE
from tests.games import test_contract as contract


def test_tre_e_venticinque_keeps_the_contract_over_random_deals() -> None:
    contract.test_a_game_keeps_the_contract_over_random_deals(TRE_E_VENTICINQUE)


def test_tre_e_venticinque_cards_have_names_that_read_back() -> None:
    contract.test_cards_have_names_that_read_back(TRE_E_VENTICINQUE)


def test_tre_e_venticinque_bad_input_is_a_value_error() -> None:
    contract.test_bad_input_is_a_value_error(TRE_E_VENTICINQUE)
