"""``swissbot demo --lichess``: the demo event played on a fake Lichess (``sandbox.lichess``)
instead of reported by hand. The members link their accounts by a profile code, the event is
put on Lichess (``/lichess event``), they join with their Lichess ratings, and each round the
bot makes every board's game on the fake Lichess and posts the links; the members "play" each
game there (its result drawn from the same outcome model) and the bot reads the results:
nobody types one.
"""

from __future__ import annotations

import asyncio
import functools
import re
import unicodedata
from typing import Any

from cli.demo_tournament import TOURNAMENT, DemoStepFailed, Play
from sandbox.lichess import FakeLichess
from sandbox.payloads import SandboxMember
from swiss.sim.outcomes import draw_result

#: The event's clock on Lichess in the demo.
CLOCK = "3+2"
#: How each result is reached on the fake Lichess: (status, winner).
FINISH = {"1-0": ("mate", "white"), "0-1": ("resign", "black"), "1/2-1/2": ("draw", None)}


def username_of(display_name: str) -> str:
    """A Lichess username for a demo member ("Chloé" -> "Chloe"): ASCII letters and digits."""
    folded = unicodedata.normalize("NFKD", display_name).encode("ascii", "ignore").decode()
    name = re.sub(r"[^A-Za-z0-9]", "", folded) or "Player"
    return name if len(name) >= 2 else f"{name}0"


class LichessPlay(Play):
    """The demo's steps for an event on Lichess (the rest as :class:`Play`)."""

    def __init__(self, *args: Any, lichess: FakeLichess, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lichess = lichess
        self.accounts: dict[str, SandboxMember] = {}  # Lichess id -> member
        self.rounds = 0

    async def link(self, member: SandboxMember, rating: int) -> None:
        """Link by a code in the profile, as a member would, then join."""
        account = self.lichess.add_account(username_of(member.display_name),
                                           perfs={"blitz": (rating, 120, False)})
        self.accounts[account.id] = member
        reply = await self.command(member, "lichess link", username=account.username,
                                   expect="swissbot-")
        code = re.search(r"swissbot-[0-9a-f]{10}", reply.get("content") or "")
        if code is None:
            raise DemoStepFailed(f"/lichess link gave no code: {reply.get('content')}")
        account.bio = f"Chess fan. {code.group(0)}"
        await self.command(member, "lichess verify", expect="linked")
        await self.command(member, "join", expect="joined")

    async def run(self, members: list[SandboxMember], ratings: dict[int, int], *,
                  rounds: int, system: str, rules: str | None = None) -> None:
        await self.command(self.owner, "config organiser-role",
                           role=self.guild.role("Organisers"), expect="Organisers are now")
        edition = {"rules": rules} if rules is not None else {}
        self.rounds = rounds
        await self.command(self.owner, "tournament create", name=TOURNAMENT, rounds=rounds,
                           system=system, expect="Created", **edition)
        await self.command(self.owner, "tournament settings", setting="deadline_minutes",
                           value="1h", expect="settings saved")
        await self.command(self.owner, "lichess event", clock=CLOCK, expect="on Lichess")
        await self.timed(f"{len(members):,} members link on Lichess and /join", self.batched([
            functools.partial(self.link, m, ratings[m.id]) for m in members]))
        for number in range(1, rounds + 1):
            command, expect = (("tournament start", "has started") if number == 1
                               else ("round next", "is paired"))
            made = len(self.lichess.challenges)

            async def pair(command: str = command, expect: str = expect,
                           number: int = number) -> None:
                await self.command(self.owner, command, expect=expect)
                await self.announcement(f"round {number}: your games on Lichess")

            await self.timed(f"round {number}: paired → every game made on Lichess",
                             pair())
            await self.timed(f"round {number}: played on Lichess → results read",
                             self.play_on_lichess(number, self.lichess.challenges[made:]))
        await self.announcement("Final standings")
        await asyncio.sleep(0.2)  # let the last edits print before the summary

    async def play_on_lichess(self, number: int, challenges: list[dict[str, Any]]) -> None:
        for challenge in challenges:
            white, black = (self.accounts[u.lower()] for u in challenge["users"])
            probabilities = self.model.probabilities(self.strength[white.id],
                                                     self.strength[black.id])
            status, winner = FINISH[draw_result(probabilities, self.rng.random()).value]
            self.lichess.play(challenge["id"], status, winner)
        last = "Final standings" if number == self.rounds else f"standings after round {number}"
        await self.announcement(last)
