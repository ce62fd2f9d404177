"""Helpers for the privacy tests: a played event with one member to forget, and the whole
database as text (to look for his name and id anywhere)."""

from __future__ import annotations

from typing import Any

from service import Actor, StandingsView, TournamentService
from tests.service_helpers import member, organiser

ORG = organiser()
#: The member who asks: an id and a name found nowhere else.
TARGET = 734512987654321098
TARGET_NAME = "Zed Quill"


def target() -> Actor:
    return member(TARGET, name=TARGET_NAME)


async def database_text(service: TournamentService) -> str:
    """Every row of every table, as text."""
    if getattr(service.db, "dialect", "sqlite") == "postgresql":
        listing = ("SELECT table_name FROM information_schema.tables WHERE table_schema ="
                   " current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name")
    else:
        listing = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
    lines: list[str] = []
    async with service.db.transaction(readonly=True) as conn:
        async with conn.execute(listing) as cur:
            tables = [row[0] for row in await cur.fetchall()]
        for table in tables:
            async with conn.execute(f"SELECT * FROM {table}") as cur:
                for row in await cur.fetchall():
                    values = (str(row[k]) for k in row.keys())  # noqa: SIM118 (values)
                    lines.append(f"{table}: " + " | ".join(values))
    return "\n".join(lines)


async def audit_entries(service: TournamentService, action: str) -> list[tuple[int, str]]:
    """(actor id, actor name) of the audit entries of ``action``."""
    async with service.db.transaction(readonly=True) as conn, conn.execute(
            "SELECT actor_id, actor_name FROM audit_log WHERE action = ? ORDER BY id",
            (action,)) as cur:
        return [(row[0], row[1]) for row in await cur.fetchall()]


async def play_event(service: TournamentService, name: str, *, players: int = 6,
                     rounds: int = 3, seed: int = 1, finish: bool = True,
                     results: list[str] | None = None) -> int:
    """An event with the target and ``players - 1`` others, ``rounds`` rounds played (the last
    one left open unless ``finish``): the
    target reports his own results (white) or confirms them (black); the organiser sets the
    others. Returns its id."""
    info = await service.create_tournament(ORG, name, rounds, seed=seed)
    await service.join(target(), name, rating=1900)
    for uid in range(101, 100 + players):
        await service.join(member(uid), name, rating=2000 - uid)
    choices = results or ["win", "draw", "loss"]
    view = await service.start_tournament(ORG, name)
    for number in range(1, rounds + 1):
        if number == rounds and not finish:
            break
        for index, game in enumerate(view.games):
            choice = choices[(index + number) % len(choices)]
            white, black = game.white.user_id, game.black.user_id
            if TARGET in (white, black):
                reporter, confirmer = ((target(), member(black)) if white == TARGET
                                       else (member(white), target()))
                await service.report_result(reporter, choice, tournament=name)
                await service.confirm_result(confirmer, game.id)
            else:
                await service.set_result(ORG, number, f"#{game.white.number}", choice,
                                         tournament=name)
        if number < rounds:
            view = await service.pair_next_round(ORG, name, round_number=number + 1)
    if finish and (await service.tournament_info(ORG.guild_id, name)).status != "finished":
        await service.finish_tournament(ORG, name)  # (the last result finishes it by itself)
    return info.id


def table_of(view: StandingsView) -> list[tuple[Any, ...]]:
    """The standings without names and ids: rank, player, points, tiebreaks."""
    return [(row.rank, row.player_id, row.number, row.points, row.values, row.withdrawn)
            for row in view.rows]
