PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test test-fast demo lint bench clean chromium postgresql fonts messages

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# setup.py and the C++ sources too: a changed extension is rebuilt, not left stale in the tree.
$(STAMP): $(BIN)/python pyproject.toml setup.py $(wildcard swiss/pairing/_native/*.cpp swiss/pairing/_native/*.h)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,sim,pictures]'
	touch $(STAMP)

test: $(STAMP) chromium postgresql fonts
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -q -n 4 --dist worksteal

# The edit-test loop (about a minute): the core, storage and service tests not marked slow, on
# SQLite only. `make test` runs everything, on both backends.
test-fast: $(STAMP)
	SWISSBOT_TEST_BACKENDS=sqlite $(BIN)/python -m pytest -q -n 4 --dist worksteal -m "not slow" \
	  tests/swiss tests/storage tests/service

# The live page's browser test (tests/bot/test_web_browser.py) drives Debian's Chromium; install it
# where apt-get works (CI runs as root), otherwise that test skips and says why.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || \
	      echo "chromium could not be installed: the browser test will be skipped"; \
	  else echo "no apt-get as root here: the browser test will be skipped"; fi; }

# The pictures draw the emoji in names with Debian's Noto Color Emoji; install it where
# apt-get works (CI runs as root). Without it emoji are drawn as boxes and the emoji tests skip.
fonts:
	@fc-list 2>/dev/null | grep -q NotoColorEmoji || [ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || { \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-color-emoji >/dev/null) || \
	      echo "fonts-noto-color-emoji could not be installed: the emoji picture tests will be skipped"; \
	  else echo "no apt-get as root here: the emoji picture tests will be skipped"; fi; }

# The storage and service tests also run on a throwaway PostgreSQL cluster started from the
# server binaries (tests/pg_cluster.py); install them where apt-get works (CI runs as root).
# Without them those tests skip and say why (in CI they fail: CI must run them). As root the
# cluster belongs to the `postgres` user the package creates, so a root without it installs too.
postgresql:
	@{ { ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1; } && \
	   { [ "$$(id -u)" != 0 ] || id postgres >/dev/null 2>&1; }; } || { \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) || \
	      echo "postgresql could not be installed: the PostgreSQL tests will be skipped"; \
	  else echo "no apt-get as root here: the PostgreSQL tests will be skipped"; fi; }

demo: $(STAMP)
	$(BIN)/swissbot demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports

# The message ids of the code and of the slash commands into every language's catalogue
# (i18n/locale/<lang>/LC_MESSAGES/swissbot.po): new ones untranslated, unused ones dropped.
messages: $(STAMP)
	$(BIN)/python scripts/messages.py

bench: $(STAMP)
	$(BIN)/python benchmarks/pairing.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
