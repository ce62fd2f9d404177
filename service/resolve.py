"""Which event a command is about when the member names none.

Every command with an optional ``tournament`` option asks here first (``cogs.common``), so a
player with two events open never has to say which one he means when it can be known:

1. the option, when given, always wins (the cog does not ask);
2. a game thread belongs to its game's event;
3. the events posting in the channel the command is used in (or in the thread's parent);
4. among those (or all open events), the ones the member plays in;
5. for ``join``: the one event taking entries that he is not in yet.

One candidate left is the answer. None at all leaves it to the operation (the guild's one open
event, or the latest finished one for what only reads). Several are a question, naming them.
"""

from __future__ import annotations

from collections.abc import Sequence

from i18n import Message, lazy
from service.base import Context, part
from service.errors import AmbiguousTournamentError
from service.operation import operation
from storage import event_hints

#: What the command does: plays (report, bye, checkin, ...), joins, or organises (only the
#: channel and the thread tell: an organiser acts on events he does not play in).
PURPOSES = ("play", "join", "organise")
MAX_NAMED = 5  # candidates named in the question (autocomplete lists them all)


@part
class Resolve:
    ctx: Context

    @operation
    async def resolve_tournament(
        self, guild_id: int, user_id: int, channels: list[int], purpose: str = "play"
    ) -> int | None:
        """The id of the event meant (see the module docstring), or None when nothing tells
        (then the operation's own default applies). ``channels``: where the command was used,
        the innermost first (the thread, then its parent channel). Raises
        :class:`AmbiguousTournamentError` naming the candidates when several remain."""
        if purpose not in PURPOSES:
            raise ValueError(f"purpose must be one of {PURPOSES}")
        async with self.ctx.db.transaction(readonly=True) as conn:
            for channel in channels:
                if (event := await event_hints.thread_event(conn, guild_id, channel)) is not None:
                    return event
            events = await event_hints.open_events(conn, guild_id)
            here = [e for e in events if e[3] is not None and e[3] in channels]
            candidates = here or events
            if len(here) == 1:
                return here[0][0]
            if purpose == "organise" or len(events) <= 1:
                return None  # the operation's default: the one open event, or its message
            mine = await event_hints.events_of_member(conn, user_id, [e[0] for e in candidates])
            if len(mine) == 1 and purpose == "play":
                return next(iter(mine))
            if purpose == "join":
                taking = [e for e in candidates if e[2] == "registration" and e[0] not in mine]
                if len(taking) == 1:
                    return taking[0][0]
                candidates = taking or candidates
            elif mine:
                candidates = [e for e in candidates if e[0] in mine]
        raise AmbiguousTournamentError(_question([name for _, name, _, _ in candidates], purpose))


def _question(names: Sequence[str], purpose: str) -> Message:
    shown = ", ".join(f"'{name}'" for name in names[:MAX_NAMED])
    more = lazy(" and {n} more", n=len(names) - MAX_NAMED) if len(names) > MAX_NAMED else ""
    if purpose == "join":
        return lazy("Which tournament do you want to join: {names}{more}? Say it with the "
                    "tournament option (it lists them as you type), or use the command in the "
                    "event's channel or your game's thread.", names=shown, more=more)
    return lazy("Which tournament: {names}{more}? Say it with the tournament option (it lists "
                "them as you type), or use the command in the event's channel or your game's "
                "thread.", names=shown, more=more)
