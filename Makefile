# Two entry points on a fresh machine: `make run` and `make test` (see README).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev

.PHONY: run test lint install install-dev clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(STAMP_DEV): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(STAMP_RUN)

install: $(STAMP_RUN)
install-dev: $(STAMP_DEV)

## Run the corpus against the reference translator; writes reports/reference.{md,results.jsonl}.
run: $(STAMP_RUN)
	$(BIN)/toolwire run --report reports

## Lint the corpus, then run every test in parallel.
test: $(STAMP_DEV)
	$(BIN)/toolwire lint
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n auto -q

lint: $(STAMP_DEV)
	$(BIN)/toolwire lint
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) build dist *.egg-info
