# Two commands on a fresh machine: `make run` and `make test`. Each builds .venv by itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
RUNTIME_STAMP := $(VENV)/.runtime-installed
DEV_STAMP     := $(VENV)/.dev-installed

.PHONY: run test lint typecheck unit soak bench clean catalogues messages

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
## scoreboard) from the code into the template and update every .po
messages: $(RUNTIME_STAMP)
	$(BIN)/pybabel -q extract --no-wrap --sort-by-file --add-location=file -c TRANSLATORS: \
		-k ErrorText -k refuse \
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

## soak: the long seeded runs (not part of `make test`)
soak: $(DEV_STAMP) catalogues
	$(BIN)/pytest -m soak -o addopts='-ra -q'

## bench: benchmarks print figures; they are never tests
bench: $(DEV_STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,bench]'
	$(BIN)/showdown bench engine --games 2000 --players 4 --seed 1 --json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info
