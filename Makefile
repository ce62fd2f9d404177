PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test demo lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,sim]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -q

demo: $(STAMP)
	$(BIN)/swissbot demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports

bench: $(STAMP)
	$(BIN)/python benchmarks/pairing.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
