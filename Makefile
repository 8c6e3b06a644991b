# Two commands on a fresh machine: `make run` and `make test`. Each builds .venv by itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
RUNTIME_STAMP := $(VENV)/.runtime-installed
DEV_STAMP     := $(VENV)/.dev-installed

.PHONY: web-screenshots vm-ci run test lint typecheck unit soak bench bench-check clean catalogues messages screenshots vm-test vm-soak vm-deps mutation

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(RUNTIME_STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	touch $@

$(DEV_STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $@ $(RUNTIME_STAMP)

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
run: $(RUNTIME_STAMP) catalogues
	$(BIN)/showdown run --sim --games 1 --speed 2

## test: ruff, mypy over every package, then pytest
test: lint typecheck unit

lint: $(DEV_STAMP)
	$(BIN)/ruff check .

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

unit: $(DEV_STAMP) catalogues
	$(BIN)/pytest

## screenshots: draw the documentation's screenshots again into docs/scoreboard (the pinned font,
## the sample games); a test fails while a committed one differs from what the screens draw now
screenshots: $(DEV_STAMP) catalogues
	$(BIN)/python -m showdown.scoreboard.screenshots docs/scoreboard

## web-screenshots: the phone page's pictures in docs/web (headless Chromium, Debian's `chromium`;
## drawn with this machine's fonts, so looked at rather than compared by pixel)
web-screenshots: $(DEV_STAMP) catalogues
	$(BIN)/python -m tests.showdown.web.screenshots docs/web

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
	touch $@

mutation: $(MUTATION_STAMP) catalogues
	$(BIN)/python -m tests.mutation.run $(MUTATION_ARGS)

## vm-test: Pi in a box (tests/vm/, README "Pi in a box"): a Debian bookworm VM, the real
## deploy/install.sh, systemd, udev, a USB serial board, 5 power cuts, uninstall; one JSON line.
## The image is built once into $$XDG_CACHE_HOME/showdown-vm (~/.cache/showdown-vm).
## vm-soak: the same with 50 power cuts and more serial showdowns.
VM_RUN := $(BIN)/python tests/vm/harness.py

vm-deps:
	@bash tests/vm/host-deps.sh

vm-test: $(RUNTIME_STAMP) vm-deps
	$(VM_RUN) --cuts 5 --duels 6

vm-soak: $(RUNTIME_STAMP) vm-deps
	$(VM_RUN) --cuts 50 --duels 20

## vm-ci: what .ci/run does after the tests: make vm-test where a KVM that boots Debian's kernel is
## present, else one line saying why not (plain emulation takes 20-30 minutes on two cores).
vm-ci: $(RUNTIME_STAMP)
	@why="$$($(BIN)/python -c 'from tests.vm.harness import kvm_unusable; print(kvm_unusable())')"; \
	if [ -n "$$why" ]; then echo "vm-test skipped: $$why; run make vm-test for plain emulation"; \
	else $(MAKE) vm-test; fi

## bench: benchmarks print figures; they are never tests. The engine runs twice, each time
## against RLCard in the same run: pure Python in .venv, and the optional mypyc-compiled build
## in .venv-bench (setup.py). Both must play the same rounds: their digests are compared.
BENCH_VENV   := .venv-bench
BENCH_BIN    := $(BENCH_VENV)/bin
BENCH_STAMP  := $(BENCH_VENV)/.mypyc-installed
BENCH_EXTRA  := $(VENV)/.bench-installed
BENCH_ARGS   ?= --games 2000 --players 4 --seed 1 --json
PIP_FLAGS    := --quiet --disable-pip-version-check

$(BENCH_EXTRA): pyproject.toml $(DEV_STAMP)
	$(BIN)/python -m pip install $(PIP_FLAGS) -e '.[dev,bench]'
	touch $@

$(BENCH_VENV)/bin/python:
	$(PYTHON) -m venv $(BENCH_VENV)

# First the project's dependencies (dev has mypy, which ships mypyc; bench has RLCard) and a
# recent setuptools, by an ordinary install; then only the project again, compiled, built without
# build isolation so the build uses that mypy and type-checks against the installed pydantic.
# A clean build/ so no stale copy of a removed module is packaged. Not editable: the compiled
# modules live in site-packages, never beside the sources. A C compiler is needed here only.
# Rebuilt when any packaged source changes (the bench command itself lives in showdown/).
BENCH_SOURCES := $(shell find engine showdown firmware_bridge hw_sim -type f \
	\( -name '*.py' -o -name '*.json' -o -name '*.toml' \) -not -path '*/__pycache__/*')
BENCH_DEPS := $(BENCH_VENV)/.deps-installed
$(BENCH_DEPS): pyproject.toml | $(BENCH_VENV)/bin/python
	$(BENCH_BIN)/python -m pip install $(PIP_FLAGS) 'setuptools>=68' '.[dev,bench]'
	touch $@

$(BENCH_STAMP): $(BENCH_DEPS) setup.py $(BENCH_SOURCES)
	rm -rf build/mypyc build/lib build/lib.* build/temp.* build/bdist.*
	SHOWDOWN_MYPYC=1 $(BENCH_BIN)/python -m pip install $(PIP_FLAGS) --no-build-isolation \
		--no-deps --force-reinstall .
	cd / && $(CURDIR)/$(BENCH_BIN)/python -c 'import engine.round as r, sys; \
		sys.exit(0 if r.__file__.endswith(".so") else "not compiled: " + r.__file__)'
	touch $@

# The pure figure first, so it is printed even when the compiled build fails.
bench: $(BENCH_EXTRA) | $(BENCH_VENV)/bin/python
	$(BIN)/showdown bench engine $(BENCH_ARGS) > $(BENCH_VENV)/python.json
	@cat $(BENCH_VENV)/python.json
	$(MAKE) --no-print-directory $(BENCH_STAMP)
	$(BENCH_BIN)/showdown bench engine $(BENCH_ARGS) > $(BENCH_VENV)/mypyc.json
	@cat $(BENCH_VENV)/mypyc.json
	@$(BIN)/python -c 'import json, sys; \
		py, c = (json.load(open(f"$(BENCH_VENV)/{n}.json")) for n in ("python", "mypyc")); \
		print("ratio to RLCard: python", py.get("ratio"), "/ mypyc", c.get("ratio")); \
		sys.exit(0 if py["digest"] == c["digest"] else \
		"DIGESTS DIFFER: the compiled engine played other rounds than the pure one")'
	@echo "digests match: the compiled and the pure engine played the same rounds"

## bench-check: the engine tests against the compiled build in .venv-bench. The tests are run
## from a copy under build/ so the source engine/ cannot shadow the compiled modules.
bench-check: $(BENCH_STAMP)
	rm -rf build/bench-tests && mkdir -p build/bench-tests
	cp -r tests pyproject.toml build/bench-tests/
	cd build/bench-tests && $(CURDIR)/$(BENCH_BIN)/python -c \
		'import engine.round as r; print("engine under test:", r.__file__)'
	cd build/bench-tests && $(CURDIR)/$(BENCH_BIN)/pytest -p no:cacheprovider tests/engine

clean:
	rm -rf $(VENV) $(BENCH_VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info
