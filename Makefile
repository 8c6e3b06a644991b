# Two commands on a fresh machine: `make run` and `make test`. Each builds .venv by itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
RUNTIME_STAMP := $(VENV)/.runtime-installed
DEV_STAMP     := $(VENV)/.dev-installed
PIP_FLAGS     := --quiet --disable-pip-version-check

.PHONY: web-screenshots event-screenshots diagrams diagram-layers diagram-launcher diagram-wiring diagram-drivers vm-ci run test build lint typecheck unit soak bench clean catalogues messages screenshots vm-test vm-soak vm-deps mutation

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# After each install, the showdown command compiled from deploy/launcher.c where a C compiler is
# present (a stop signal while Python starts then waits for showdown's handler), else pip's script.
$(RUNTIME_STAMP): pyproject.toml deploy/launcher.c | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	deploy/build-launcher.sh $(VENV)
	touch $@

$(DEV_STAMP): pyproject.toml deploy/launcher.c | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	deploy/build-launcher.sh $(VENV)
	touch $@ $(RUNTIME_STAMP)

# The engine: compiled by mypyc into engine/_compiled where a C compiler and the Python headers
# are present, pure Python otherwise; build_engine.py says which in one line, and why. Built
# again whenever a source of the engine changes; engine/build.py refuses a stale compiled build
# (when an engine source was edited after it), so running without make never runs old code.
# `make build` builds it again regardless (after installing a compiler, or with SHOWDOWN_MYPYC=0
# for the pure one, =1 to fail rather than fall back).
ENGINE_RECORD  := engine/_compiled/build.json
ENGINE_SOURCES := $(shell find engine -name '*.py' -not -path '*/__pycache__/*')
ENGINE_LINE    := $(BIN)/python -c 'import engine.build as b; print(b.describe())'

$(ENGINE_RECORD): $(ENGINE_SOURCES) setup.py build_engine.py | $(RUNTIME_STAMP)
	$(BIN)/python build_engine.py

## build: build the engine again: compiled by mypyc where possible (see SHOWDOWN_MYPYC above)
build: $(RUNTIME_STAMP)
	$(BIN)/python build_engine.py

# Translations: .po sources in the repository, .mo catalogues compiled here (git-ignored).
LOCALE   := showdown/locale
PO_FILES := $(wildcard $(LOCALE)/*/LC_MESSAGES/showdown.po)
MO_FILES := $(PO_FILES:.po=.mo)

$(LOCALE)/%/LC_MESSAGES/showdown.mo: $(LOCALE)/%/LC_MESSAGES/showdown.po | $(RUNTIME_STAMP)
	$(BIN)/pybabel -q compile --domain showdown --input-file $< --output-file $@

## catalogues: compile the .po translations into .mo catalogues (run and test depend on it)
catalogues: $(MO_FILES)

## messages: extract the _() messages (and the refusals' ErrorText templates, translated by the
## scoreboard; and the phone page's templates, babel.cfg) from the code into the template and
## update every .po
messages: $(RUNTIME_STAMP)
	$(BIN)/pybabel -q extract --no-wrap --sort-by-file --add-location=file -c TRANSLATORS: \
		-F babel.cfg -k ErrorText -k refuse \
		--project uno-showdown --copyright-holder "UNO Showdown contributors" \
		--output-file $(LOCALE)/showdown.pot showdown engine
	$(BIN)/pybabel -q update --no-wrap --no-fuzzy-matching --domain showdown \
		--input-file $(LOCALE)/showdown.pot --output-dir $(LOCALE)

## run: the main job (the service on the simulated unit when no hardware is found)
run: $(RUNTIME_STAMP) $(ENGINE_RECORD) catalogues
	@$(ENGINE_LINE)
	$(BIN)/showdown run --sim --games 1 --speed 2

## test: ruff, mypy over every package, then pytest. mypy (about 20 s on a fresh clone) runs
## beside the engine's compiled build (about a minute, one core): one waits for neither.
test: $(DEV_STAMP)
	@$(MAKE) --no-print-directory -j2 lint typecheck $(ENGINE_RECORD) catalogues
	@$(MAKE) --no-print-directory unit

lint: $(DEV_STAMP)
	$(BIN)/ruff check .

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

# The suite runs on the engine build installed, and says which first.
# Two pytest workers per core (pytest-xdist): most of the suite's wall clock is other processes
# starting and real-time links waiting, so one worker per core leaves cores idle (on two cores:
# 598 s with two workers, 491 s with four). TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) * 2 )))
unit: $(DEV_STAMP) $(ENGINE_RECORD) catalogues
	@$(ENGINE_LINE)
	$(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal

# The documentation's pictures: each drawn by its driver in tools/ (outside the product), run
# from here so `tools` and `tests` import from the repository's root.

## screenshots: draw the documentation's screenshots again into docs/scoreboard and docs/event
## (the pinned font, the sample games); a test fails while a committed one differs from what the
## screens draw now
screenshots: event-screenshots $(DEV_STAMP) catalogues
	$(BIN)/python -m tools.screenshots.scoreboard docs/scoreboard

## event-screenshots: only the event screen's, in docs/event
event-screenshots: $(DEV_STAMP) catalogues
	$(BIN)/python -m tools.screenshots.tournament docs/event

## web-screenshots: the phone page's pictures in docs/web (headless Chromium, Debian's `chromium`;
## drawn with this machine's fonts, so looked at rather than compared by pixel)
web-screenshots: $(DEV_STAMP) catalogues
	$(BIN)/python -m tools.screenshots.web docs/web

## diagrams: draw every diagram in docs/ again (a test fails while a committed one differs from
## what its driver draws): the layers, the launcher, the wiring, one per motor driver board
diagrams: diagram-layers diagram-launcher diagram-wiring diagram-drivers

diagram-layers: $(RUNTIME_STAMP)
	$(BIN)/python -m tools.diagrams.layers --out docs/layers.png

diagram-launcher: $(RUNTIME_STAMP)
	$(BIN)/python -m tools.diagrams.launcher --out docs/launcher.png

diagram-wiring: $(RUNTIME_STAMP)
	$(BIN)/python -m tools.diagrams.wiring --out docs/wiring.png

diagram-drivers: $(RUNTIME_STAMP)
	$(BIN)/python -m tools.diagrams.drivers --out-dir docs/drivers

## soak: the long seeded runs (not part of `make test`)
soak: $(DEV_STAMP) catalogues
	$(BIN)/pytest -m soak -o addopts='-ra -q'

## mutation: mutmut over each group of tests/mutation/groups.toml (tens of minutes on two cores;
## not part of `make test`): each group's score and the mutants no test caught, with their change.
## MUTATION_ARGS: a group's name (unit), --keep, --again, --jobs N (python -m tests.mutation.run -h).
MUTATION_STAMP := $(VENV)/.mutation-installed
MUTATION_ARGS  ?=

$(MUTATION_STAMP): pyproject.toml $(DEV_STAMP)
	$(BIN)/python -m pip install $(PIP_FLAGS) -e '.[dev,mutation]'
	deploy/build-launcher.sh $(VENV)
	touch $@

mutation: $(MUTATION_STAMP) catalogues
	$(BIN)/python -m tests.mutation.run $(MUTATION_ARGS)

## vm-test: Pi in a box (tests/vm/, README "Pi in a box"), the full set: a Debian bookworm VM,
## the real deploy/install.sh, systemd, the launcher, the phone pages, udev, a USB serial board,
## the event host, 5 power cuts, 5 starved starts (one core, a CPU hog), uninstall; one JSON line.
## The image is built once into $$XDG_CACHE_HOME/showdown-vm (~/.cache/showdown-vm).
## vm-soak: the same with 50 power cuts and more serial showdowns.
## vm-ci: what .ci/run does after the tests: the full set where KVM boots the guest, the shorter
## ci set under plain emulation (tests/vm/harness.py's SETS), saying which in one line; it fails
## when a check fails (a broken install fails CI). SHOWDOWN_VM_BUDGET_S bounds the run: spent,
## it stops where it is and says so (docs/deploy.md).
VM_RUN := $(BIN)/python tests/vm/harness.py

vm-deps:
	@bash tests/vm/host-deps.sh

vm-test: $(RUNTIME_STAMP) vm-deps
	$(VM_RUN) --set full

vm-soak: $(RUNTIME_STAMP) vm-deps
	$(VM_RUN) --set full --cuts 50 --duels 20

vm-ci: $(RUNTIME_STAMP) vm-deps
	$(VM_RUN) --set auto

## bench: benchmarks print figures; they are never tests. The engine runs twice in the same .venv,
## each time against RLCard in the same run: its Python sources (SHOWDOWN_ENGINE=python) and the
## build make installed (compiled by mypyc where a C compiler is present). Both must play the
## same rounds: their digests are compared.
BENCH_EXTRA  := $(VENV)/.bench-installed
BENCH_ARGS   ?= --games 2000 --players 4 --seed 1 --json
BENCH_OUT    := build/bench

$(BENCH_EXTRA): pyproject.toml $(DEV_STAMP)
	$(BIN)/python -m pip install $(PIP_FLAGS) -e '.[dev,bench]'
	deploy/build-launcher.sh $(VENV)
	touch $@

# The sources' figure first, so it is printed even when the installed build fails.
bench: $(BENCH_EXTRA) $(ENGINE_RECORD)
	@mkdir -p $(BENCH_OUT)
	SHOWDOWN_ENGINE=python $(BIN)/showdown bench engine $(BENCH_ARGS) > $(BENCH_OUT)/python.json
	@cat $(BENCH_OUT)/python.json
	$(BIN)/showdown bench engine $(BENCH_ARGS) > $(BENCH_OUT)/installed.json
	@cat $(BENCH_OUT)/installed.json
	@$(BIN)/python -c 'import json, sys; \
		py, it = (json.load(open(f"$(BENCH_OUT)/{n}.json")) for n in ("python", "installed")); \
		print("ratio to RLCard: python", py.get("ratio"), "/", it["engine_build"], it.get("ratio")); \
		sys.exit(0 if py["digest"] == it["digest"] else \
		"DIGESTS DIFFER: the installed engine played other rounds than its sources")'
	@echo "digests match: the installed and the pure engine played the same rounds"

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info engine/_compiled
