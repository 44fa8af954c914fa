# Leyden: `make run` sets up and starts the engine; `make test` sets up and runs the tests.
PYTHON ?= python3
PIP_INSTALL = $(PYTHON) -m pip install --quiet --disable-pip-version-check
STAMP = .installed

.PHONY: run build test test-xboard perft-full bench-perft bench match strength clean

$(STAMP): pyproject.toml
	$(PIP_INSTALL) -e '.[test]'
	@touch $(STAMP)

# compile (or load from cache) every numba kernel, so no game pays for it
build: $(STAMP)
	$(PYTHON) -m engine warmup

# the engine process: speaks XBoard/CECP or UCI on stdin/stdout
run: build
	$(PYTHON) -m engine

# compiled first, so that no engine process started by a test compiles (slowly, in parallel)
test: build
	$(PYTHON) -m pytest -q

# every game under XBoard in match mode, Leyden against itself (about 30 minutes)
test-xboard: build
	$(PYTHON) -m pytest -q -m slow tests/test_xboard_matches.py

# every depth of every reference perft vector and the deep Batteries/Ender's calibration
perft-full: $(STAMP)
	$(PYTHON) -m pytest -q -m slow tests/test_perft_reference.py tests/test_cross_perft.py

bench-perft: build
	$(PYTHON) benchmarks/perft.py

# search speed per game and the bench signature
bench: build
	$(PYTHON) benchmarks/search.py

# a short match against Fairy-Max; override MATCH_ARGS for anything else
MATCH_ARGS ?= --variant capablanca --games 10 --tc 10+0.1 --random-plies 6 --pgn match.pgn \
	--engine name=leyden "cmd=$(PYTHON) -m engine" \
	--engine name=fairymax "cmd=fairymax benchmarks/peers/fmax.ini"
match: build
	$(PYTHON) -m engine match $(MATCH_ARGS)

# Leyden against every peer, and against itself in batteries/enders (about two hours at
# the default 2+0.02; STRENGTH_ARGS="--tc 10+0.1" adds the longer-game table)
STRENGTH_ARGS ?=
strength: build
	$(PYTHON) benchmarks/strength.py $(STRENGTH_ARGS)

clean:
	rm -rf $(STAMP) *.egg-info .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
