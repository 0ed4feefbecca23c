"""The compiled engine and its pure Python twin (arena.native): which one a process imports, and
that a compiled state behaves as a Python one where other code relies on it (pickling, copies).

The same tests run on both variants (``make test`` compiled where built, ``make test-pure``)."""

from __future__ import annotations

import importlib.machinery
import json
import pickle
import random
from pathlib import Path

import pytest

import arena.games.french_tarot
import arena.games.french_tarot.game as french_game
from arena import native
from arena.games.french_tarot import GameState, TableOptions, apply, legal_actions
from arena.games.tre_e_venticinque import DealState as TreState
from arena.games.tre_e_venticinque import apply as tre_apply
from arena.games.tre_e_venticinque import legal_actions as tre_legal_actions
from tests.state_slots import slots_of


def test_the_process_runs_the_variant_it_says() -> None:
    compiled = french_game.__file__ is not None and french_game.__file__.endswith(
        tuple(importlib.machinery.EXTENSION_SUFFIXES)
    )
    assert compiled == native.COMPILED_NOW, native.STATUS
    assert native.STATUS.startswith("compiled" if compiled else "pure Python")


def test_the_finder_gives_the_source_of_a_module_that_is_not_compiled_now() -> None:
    path = arena.games.french_tarot.__path__
    for compiled in (False, True):
        spec = native._SourceFirst(compiled).find_spec("arena.games.french_tarot.deal", path)
        assert spec is not None and spec.origin is not None
        assert Path(spec.origin).name == "deal.py"
    pure = native._SourceFirst(False).find_spec("arena.games.french_tarot.game", path)
    assert pure is not None and pure.origin is not None and pure.origin.endswith("game.py")
    assert native._SourceFirst(True).find_spec("arena.games.french_tarot.game", path) is None
    assert native._SourceFirst(False).find_spec("json", None) is None


def test_the_switch_forces_pure_python(monkeypatch: pytest.MonkeyPatch) -> None:
    for value in ("1", "true", "YES"):
        monkeypatch.setenv(native.PURE_ENV, value)
        assert native._decide() == (False, f"pure Python ({native.PURE_ENV} is set)")


def _manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, digests: dict[str, str]) -> None:
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    manifest = tmp_path / "native_manifest.json"
    manifest.write_text(json.dumps(digests), encoding="utf-8")
    monkeypatch.setattr(native, "MANIFEST", manifest)


def test_no_build_means_pure_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    monkeypatch.setattr(native, "MANIFEST", tmp_path / "native_manifest.json")
    assert native._decide() == (
        False, "pure Python (the engine was not compiled: no mypyc build)"
    )
    (tmp_path / "native_manifest.json").write_text("{not json", encoding="utf-8")
    compiled, why = native._decide()
    assert not compiled and why.startswith("pure Python (unreadable native_manifest.json")
    _manifest(tmp_path, monkeypatch, {"arena.games.french_tarot.game": "0" * 64})
    assert native._decide() == (
        False, "pure Python (the compiled modules are not today's list: make native)"
    )


def test_an_edited_source_is_run_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build whose sources changed since is not used, with one warning naming the module."""
    digests = {module: native.source_digest(module) for module in native.COMPILED}
    edited = native.COMPILED[-1]
    digests[edited] = "0" * 64
    _manifest(tmp_path, monkeypatch, digests)
    with pytest.warns(RuntimeWarning, match=f"compiled engine is stale .*{edited}.*make native"):
        compiled, why = native._decide()
    assert not compiled and edited in why


def test_a_build_without_its_extensions_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    digests = {module: native.source_digest(module) for module in native.COMPILED}
    _manifest(tmp_path, monkeypatch, digests)
    monkeypatch.setattr(native, "_has_extension", lambda module: module != native.COMPILED[0])
    assert native._decide() == (
        False, f"pure Python ({native.COMPILED[0]}'s extension is missing: make native)"
    )
    monkeypatch.setattr(native, "_has_extension", lambda module: True)
    assert native._decide() == (True, f"compiled by mypyc ({len(native.COMPILED)} modules)")


def _french_midway(players: int) -> GameState:
    """The first deal from seed 40 that a random play takes to its fifth trick."""
    rnd = random.Random(players)
    seed = 40
    while True:
        state = GameState.from_seed(seed, TableOptions(players=players))
        while state.to_act is not None and len(state.tricks) < 4:
            apply(state, rnd.choice(legal_actions(state)))
        if state.to_act is not None:
            return state
        seed += 1


def _tre_midway() -> TreState:
    rnd = random.Random(3)
    state = TreState.from_seed(43, dealer=2)
    while len(state.tricks) < 4:
        tre_apply(state, rnd.choice(tre_legal_actions(state)))
    return state


@pytest.mark.parametrize("players", [2, 4, 5])
def test_a_state_crosses_processes_and_copies_as_it_is(players: int) -> None:
    """Workers pickle what they send between processes; search bots copy states."""
    state = _french_midway(players)
    for other in (pickle.loads(pickle.dumps(state)), state.copy()):
        assert type(other) is GameState
        for name in slots_of(GameState):
            if name not in ("_legal", "_card_kind", "_cards_suits", "_cards_top"):
                assert getattr(other, name) == getattr(state, name), name
        rnd = random.Random(1)
        while other.to_act is not None:
            apply(other, rnd.choice(legal_actions(other)))
        assert other.result is not None and sum(other.result.scores) == 0
        assert pickle.loads(pickle.dumps(other.result)) == other.result
    assert state.result is None


def test_a_tre_e_venticinque_state_crosses_processes_as_it_is() -> None:
    state = _tre_midway()
    other = pickle.loads(pickle.dumps(state))
    for name in slots_of(TreState):
        assert getattr(other, name) == getattr(state, name), name
    while other.to_act is not None:
        tre_apply(other, tre_legal_actions(other)[0])
    assert other.result is not None and pickle.loads(pickle.dumps(other.result)) == other.result


def test_the_compiled_update_rules_make_plain_observations() -> None:
    """French Tarot's observation rules are compiled (a bot's view folds every event through
    them), its Observation is not: the copies they make are the plain frozen dataclass, equal to
    dataclasses.replace's, and they pickle as before."""
    import dataclasses

    import arena.games.french_tarot.observation as rules
    from arena.games.french_tarot import Observation, observation_asked, observation_value, observe

    assert (rules.__file__ or "").endswith(
        tuple(importlib.machinery.EXTENSION_SUFFIXES)) == native.COMPILED_NOW
    assert (observation_value.__file__ or "").endswith(".py")
    state = _french_midway(4)
    seat = state.to_act
    assert seat is not None
    view = observe(state, seat)
    asked = observation_asked(view, view.phase, view.legal_actions, view.hand, seat)
    assert type(asked) is Observation
    assert asked == dataclasses.replace(view, hand=tuple(sorted(view.hand)))
    assert pickle.loads(pickle.dumps(asked)) == asked
