# Tarot Arena. `make demo` runs the main job, `make test` the test suite.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install native demo test test-pure lint typecheck bench proto migration clean node

$(STAMP): pyproject.toml setup.py arena/native.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	$(MAKE) --no-print-directory native
	touch $(STAMP)

install: $(STAMP)

# The engine's hot modules compiled by mypyc (arena/native.py lists them), in place: optional.
# Without mypyc or a C compiler, or when the build fails, it says so in one line and the engine
# runs as its .py files. Run it again after editing one of them: a stale build is never used.
native:
	$(PY) setup.py --quiet build_ext --inplace 2>&1 | grep -v 'warning: Treating generator' || true

# The Node.js bot of the test suite (tests/node): its npm packages, exactly as locked.
NODE_STAMP := tests/node/node_modules/.package-lock.json

node:
	cd tests/node && npm ci --no-audit --no-fund

# `make test` installs them too when npm is there (its test skips locally without them).
$(NODE_STAMP): tests/node/package-lock.json
	@if command -v npm >/dev/null 2>&1; then cd tests/node && npm ci --no-audit --no-fund; \
	else echo "npm not found: the Node.js bot's test will be skipped"; fi

demo: $(STAMP)
	$(PY) -m tournaments.cli demo

# A pytest worker per core and one more (pytest-xdist; JOBS=1 for one process): most tests
# wait on bot processes, servers and databases, so the cores have time for a third. Measured on
# 2 cores: 2 workers 10 min 45 s (166 % CPU), 3 workers 7 min 46 s (184 %).
JOBS ?= $(shell $(PYTHON) -c 'import os; print((os.cpu_count() or 1) + 1)')
# The project's bytecode is compiled first: where PYTHONDONTWRITEBYTECODE is set, every bot,
# arena and CLI process a test starts would compile every module it imports again.
test: $(STAMP) $(NODE_STAMP)
	$(PY) -m compileall -q arena clients tournaments tests bench > /dev/null
	$(PY) -m pytest -q -n $(JOBS) --dist worksteal

# The engine's tests on the pure Python engine, the compiled modules ignored (arena/native.py):
# both variants must behave alike. The suite itself runs on the compiled engine. Every rules,
# golden-vector and record test of both games; the slowest property, folding, contract and
# tournament tests (minutes, and about the runner more than the rules) run compiled only.
PURE_TESTS ?= tests/french_tarot tests/tre_e_venticinque tests/games \
	--ignore=tests/french_tarot/test_properties.py \
	--ignore=tests/french_tarot/test_observation_after.py \
	--ignore=tests/tre_e_venticinque/test_tournament.py --ignore=tests/games/test_contract.py
test-pure: $(STAMP)
	TAROT_ARENA_PURE_PYTHON=1 $(PY) -m pytest -q -n $(JOBS) --dist worksteal $(PURE_TESTS)

lint: $(STAMP)
	$(PY) -m ruff check arena clients tournaments tests bench setup.py

typecheck: $(STAMP)
	$(PY) -m mypy

bench: $(STAMP)
	$(PY) -m bench.engine

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis tests/node/node_modules

proto: $(STAMP)
	$(PY) -m grpc_tools.protoc -I proto --python_out=arena/proto_gen --pyi_out=arena/proto_gen \
		--grpc_python_out=arena/proto_gen \
		--descriptor_set_out=arena/proto_gen/tarot_arena/v1/arena.binpb --include_source_info \
		proto/tarot_arena/v1/arena.proto
	$(PY) scripts/fix_proto_imports.py arena/proto_gen

# Write a new schema migration after changing arena/storage/models.py: make migration m="why"
migration: $(STAMP)
	rm -f .migration.db
	$(PY) -c "from arena.storage.db import make_engine; make_engine('sqlite:///.migration.db')"
	$(PY) -c "from arena.storage.migrate import revise; revise('sqlite:///.migration.db', '$(m)')"
	rm -f .migration.db
	$(PY) -m ruff format arena/storage/migrations/versions

# Arena over gRPC with bots as separate processes on loopback: decisions/s, latency, the bare
# grpc.aio floor, server RSS with 1,000 tables open. ARGS=--quick for a short run.
.PHONY: bench-arena
bench-arena: $(STAMP)
	$(PY) -m bench.arena $(ARGS)

# The arena under a bounded attack from one valid token (churn, garbage, decision floods, a
# client that never reads, slowloris) while tables play, against the same run without it:
# decisions/s, health p99, memory a minute later. ARGS=--quick for a short run.
.PHONY: bench-attack
bench-attack: $(STAMP)
	$(PY) -m bench.attack $(ARGS)

# Duplicate against plain scoring: deals needed to tell HeuristicBot from a weaker bot, played
# in-process; the heuristic's margin over the random bot. ARGS=--quick for a short run.
.PHONY: bench-duplicate
bench-duplicate: $(STAMP)
	$(PY) -m bench.duplicate $(ARGS)

# The ladder against a fixed competition and a plain rating: deals until a close pair parts
# (ARGS="--seeds 4 --deals 400"); several minutes.
.PHONY: bench-ladder
bench-ladder: $(STAMP)
	$(PY) -m bench.ladder $(ARGS)

# Regression testing (tarot-arena compare): false-positive rate of A vs A, power, and deals to a
# verdict of the sequential duplicate test against fixed-sample duplicate and plain tests, on
# two bot pairs (bidding, card play). ARGS=--quick for a short run.
.PHONY: bench-regression
bench-regression: $(STAMP)
	$(PY) -m bench.regression $(ARGS)

# The web page's standings of a 10,000-table tournament: server time per page load, cold (the
# standings computed) and warm (cached), against the CLI's standings in the same run.
.PHONY: bench-web
bench-web: $(STAMP)
	$(PY) -m bench.web $(ARGS)

# Spectators against the tables: decisions/s with 0 and 500 open live streams of the page, in
# the same run, the health check's p99 with them and the memory after they close, for the page
# in its own process (what serve/tournament run --web-port do) and in the arena's (about 5 min).
.PHONY: bench-web-live
bench-web-live: $(STAMP)
	$(PY) -m bench.web_live $(ARGS)

# Workers playing one compare from one database: tables/s with 1 and 2 worker processes, and a
# simulation of 1, 4 and 16 workers whose bots sleep (then answer at once) showing where the
# database becomes the limit (claims and commits/s). ARGS="--db postgresql+psycopg://..."
# (default: TAROT_ARENA_BENCH_PG_URL, else a SQLite file); --quick for a short run.
.PHONY: bench-workers
bench-workers: $(STAMP)
	$(PY) -m bench.workers $(ARGS)

# The README's screenshots of the web page, taken by its browser tests (needs chromium and
# chromium-driver: scripts/chromium.sh installs them).
.PHONY: screenshots
screenshots: $(STAMP)
	TAROT_ARENA_SCREENSHOTS=docs/screenshots $(PY) -m pytest -q tests/web/test_browser.py

# The search bot against the heuristic: a duplicate gauntlet in-process on one core, at 20, 100
# and 500 ms a decision (200 boards each: hours). ARGS=--quick for 24 boards at 20 and 100 ms.
.PHONY: bench-bots
bench-bots: $(STAMP)
	$(PY) -m bench.bots $(ARGS)

# The search bot over gRPC, each part a process of its own, 16 tables at once at 100 ms a
# decision: its timeouts, and the arena's time for its decisions (ARGS="--players 5", ...).
.PHONY: bench-search-grpc
bench-search-grpc: $(STAMP)
	$(PY) -m bench.search_grpc $(ARGS)

# The README's standings table of the bundled bots (random, heuristic, search), seed 2026.
.PHONY: standings-table
standings-table: $(STAMP)
	$(PY) -m bench.standings $(ARGS)
