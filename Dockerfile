# syntax=docker/dockerfile:1
# swissbot in a container: Debian slim, the bot in a virtual environment, run as a user
# without privileges. Build: docker build -t swissbot . ; run: docker compose up -d
# (compose.yaml, with PostgreSQL). tests/project/test_dockerfile.py lints this file with hadolint and
# runs its install steps in a fresh virtual environment.

# -- build: compile the exact matching (C++) and install the bot into /opt/swissbot --------
FROM python:3.11-slim-bookworm AS build
# g++ for the compiled matching (setup.py); nothing of it reaches the final image. Debian's
# packages are not pinned: the release's security updates must come in at every build.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends g++ \
    && rm -rf /var/lib/apt/lists/*
ENV VENV=/opt/swissbot
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY swiss swiss
COPY storage storage
COPY service service
COPY bot bot
COPY cogs cogs
COPY cli cli
COPY sandbox sandbox
COPY i18n i18n
# a plain (not editable) install: the image needs no source tree, only the venv
RUN python -m venv "$VENV" \
    && "$VENV/bin/pip" install --no-cache-dir ".[pictures]" \
    && "$VENV/bin/swissbot" --help > /dev/null

# -- run -------------------------------------------------------------------------------------
FROM python:3.11-slim-bookworm
# the pictures' fonts: DejaVu for text, Noto Color Emoji for the emoji in names
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core fonts-noto-color-emoji \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --create-home --home-dir /data --uid 10001 swissbot
COPY --from=build /opt/swissbot /opt/swissbot
ENV PATH=/opt/swissbot/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    SWISSBOT_DATABASE=/data/swissbot.sqlite3
# by number: a runtime that checks runAsNonRoot cannot resolve a name
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
# the live pages (SWISSBOT_WEB_PORT) and the metrics (SWISSBOT_METRICS_PORT), when set
EXPOSE 8080 9108
# docker stop sends SIGTERM: the bot finishes what it is doing and stops within 5 s
STOPSIGNAL SIGTERM
CMD ["swissbot", "run"]
