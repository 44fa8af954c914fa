# Leyden: `make run` sets up and starts the engine; `make test` sets up and runs the tests.
PYTHON ?= python3
PIP_INSTALL = $(PYTHON) -m pip install --quiet --disable-pip-version-check
STAMP = .installed

.PHONY: run build test test-xboard test-install perft-full bench-perft bench bench-eval bench-smp depth equal-nodes profile samples match odds strength datagen peer-data tune net play screenshots clean

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
	$(PYTHON) -m pytest -q -m slow tests/protocol/test_xboard_matches.py

# the wheel installed in a fresh venv, run from outside the checkout: perft, engine file
# and numba cache (also in `make test`), plus bench, a match and an XBoard game (~3 min)
test-install: $(STAMP)
	$(PYTHON) -m pytest -q -m "not slow" tests/packaging/test_install.py

# every depth of every reference perft vector and the deep Batteries/Ender's calibration
perft-full: $(STAMP)
	$(PYTHON) -m pytest -q -m slow tests/rules/test_perft_reference.py tests/rules/test_cross_perft.py

bench-perft: build
	$(PYTHON) benchmarks/perft.py

# search speed per game, one thread, compile and kernel loading not counted
bench: build
	$(PYTHON) benchmarks/search.py

# the evaluation alone, ns a call and a checksum of its scores (EVAL_ARGS="batteries" for others)
EVAL_ARGS ?=
bench-eval: build
	$(PYTHON) benchmarks/evaluation.py $(EVAL_ARGS)

# depth in equal time: Leyden, Fairy-Stockfish and Fairy-Max on the capablanca middlegame
# (8 s each, one after the other); DEPTH_ARGS="--seconds 2 --game normal --fen ..." for others
DEPTH_ARGS ?=
depth: build
	$(PYTHON) benchmarks/depth.py $(DEPTH_ARGS)

# where a search node's time goes, per game family (a counting build in its own cache)
profile: $(STAMP)
	$(PYTHON) benchmarks/profile.py

# the same searches sampled by perf, per compiled function (compiles afresh: a few minutes;
# needs perf and readelf); SAMPLES_ARGS="batteries enders" for other games
samples: build
	$(PYTHON) benchmarks/samples.py $(SAMPLES_ARGS)

# time to depth with 2 threads against 1 on the bench positions (a few minutes; wants
# idle cores); SMP_ARGS="--threads 4 --repeat 5" for others
SMP_ARGS ?=
bench-smp: build
	$(PYTHON) benchmarks/smp.py $(SMP_ARGS)

# Leyden against Fairy-Stockfish at equal nodes a move (10,000, 50,000 and 200,000; 40 games
# each, about 45 minutes in all; a rerun resumes): the search's use of its nodes, speed aside;
# EQUAL_NODES_ARGS="--dir /tmp/build --out /tmp/en" for another build
EQUAL_NODES_ARGS ?=
equal-nodes: build
	$(PYTHON) benchmarks/equal_nodes.py $(EQUAL_NODES_ARGS)

# a short match against Fairy-Max; override MATCH_ARGS for anything else
MATCH_ARGS ?= --variant capablanca --games 10 --tc 10+0.1 --random-plies 6 --pgn match.pgn \
	--engine name=leyden "cmd=$(PYTHON) -m engine" \
	--engine name=fairymax "cmd=fairymax benchmarks/peers/fmax.ini"
match: build
	$(PYTHON) -m engine match $(MATCH_ARGS)

# a search or evaluation change played against Fairy-Stockfish at time odds, as
# benchmarks/sprt.md's rows are (benchmarks/odds.py; about 25 minutes): the engine of
# checkout ODDS_DIR, then with ODDS_REF=PGN compared with main's run on the same openings
ODDS_GAME ?= capablanca
ODDS_DIR ?= .
ODDS_SEED ?= 7612
ODDS_GAMES ?= 200
ODDS_PGN ?= odds-$(ODDS_GAME)-$(ODDS_SEED).pgn
ODDS_REF ?=
odds: build
	$(PYTHON) benchmarks/odds.py --game $(ODDS_GAME) --dir $(ODDS_DIR) --seed $(ODDS_SEED) \
		--games $(ODDS_GAMES) --pgn $(ODDS_PGN) $(if $(ODDS_REF),--against $(ODDS_REF))

# a balanced opening book for matches and SPRTs (match/book.py): GAME's start position plus
# 6 random plies, kept when Leyden's depth-7 search scores it within 50 cp
BOOK_ARGS ?= --count 1000
book: build
	$(PYTHON) -m match.book $(GAME) $(BOOK_ARGS)

# Leyden against every peer, and against itself in batteries/enders (about two hours at
# the default 2+0.02; STRENGTH_ARGS="--tc 10+0.1" adds the longer-game table)
STRENGTH_ARGS ?=
strength: build
	$(PYTHON) benchmarks/strength.py $(STRENGTH_ARGS)

# Texel tuning of one game's evaluation (tune/): self-play positions into data/tune/GAME.txt
# (niced: it runs for a long time beside other work; a rerun continues), then the fit
# into search/tuned/GAME.json
GAME ?= capablanca
GAMES ?= 1000
NODES ?= 2000
CONCURRENCY ?= 1
DATAGEN_ARGS ?= $(GAME) --games $(GAMES) --nodes $(NODES) --concurrency $(CONCURRENCY)
datagen: build
	nice -n 15 $(PYTHON) -m tune.datagen $(DATAGEN_ARGS)
# a peer engine playing itself: its games and their positions in data/tune/GAME-PEER.*
PEER ?= fairy-stockfish
PEER_NODES ?= 20000
peer-data: build
	nice -n 15 $(PYTHON) benchmarks/peer_games.py $(GAME) --peer $(PEER) --games $(GAMES) --nodes $(PEER_NODES) --concurrency $(CONCURRENCY)
TUNE_ARGS ?= $(GAME) --datagen-command "python -m tune.datagen $(DATAGEN_ARGS)"
tune: $(STAMP)
	nice -n 15 $(PYTHON) -m tune.texel $(TUNE_ARGS)
# the evaluation network of one game (tune/network.py): the positions of the repository's
# games with their search scores into data/net/GAME.txt, then search/nets/GAME.npz
net: build
	$(PYTHON) -m tune.pgndata $(GAME) $$(find benchmarks -name '*.pgn' | sort) --scores --out data/net/$(GAME).txt
	$(PYTHON) -m tune.network $(GAME) data/net/$(GAME).txt

# XBoard with Leyden in one game, the right XBoard settings for it (you play White)
VARIANT ?= capablanca
play: build
	$(PYTHON) scripts/play.py $(VARIANT)

# the README's pictures: XBoard under Xvfb for every game, saved in docs/img/
screenshots: build
	@command -v xvfb-run >/dev/null || { echo "screenshots need Xvfb and xdotool: apt-get install xboard xvfb xdotool imagemagick"; exit 1; }
	xvfb-run -a -s "-screen 0 1280x1024x24" $(PYTHON) scripts/screenshots.py

clean:
	rm -rf $(STAMP) *.egg-info .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
