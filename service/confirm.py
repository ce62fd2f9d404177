"""Destructive organiser actions, described before they are done.

A forced ``/round next`` (closes the current round), an undo of a round with results, a
forced finish with open games, the cancel of an event with players and the drop of a player
who has played are shown first as an :class:`ActionPreview`: what would happen, in words, and
the state it was computed from (the tournament's course version, migration 0015, and the
round it names). The confirmation button carries that state; the operation refuses it, inside
its own transaction, when it no longer holds. So the first click acts and every later click,
of that prompt or of an older one, is refused: a double click, a second organiser or a
retried interaction can never act twice, whatever the timing.
"""

from __future__ import annotations

from i18n import lazy
from service.base import Context, PlayerRef, TournamentRef, find_player, find_tournament, part
from service.errors import InvalidInputError, RoundChangedError
from service.limits import echo
from service.model import settings_of
from service.operation import operation
from service.permissions import require_organiser
from service.playoff_state import load_bracket
from service.views import ActionPreview, Actor, ConfirmAction
from storage import players as player_repo
from storage import rounds as round_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection
from storage.tournaments import TournamentRow

CONFIRM_ACTIONS: tuple[ConfirmAction, ...] = ("next", "undo", "finish", "cancel", "drop")

# What to run again to see the action's prompt as things are now.
AGAIN: dict[ConfirmAction, str] = {
    "next": "/round next force:true", "undo": "/round undo force:true",
    "finish": "/tournament finish force:true", "cancel": "/tournament cancel",
    "drop": "/admin drop",
}


@part
class Confirm:
    ctx: Context

    @operation
    async def preview_action(
        self,
        actor: Actor,
        action: str,
        tournament: TournamentRef = None,
        *,
        player: PlayerRef | None = None,
    ) -> ActionPreview:
        """What ``action`` (next, undo, finish, cancel, drop) would do to ``tournament`` now,
        without doing it. A preview that ``needs_confirmation`` is shown with a button; the
        operation is then called with the preview's ``version`` and round (``version=``,
        ``round_number=``), and refused if either changed. Nothing to lose (no open game,
        no result, no player): ``needs_confirmation`` is False and the caller acts at once,
        still naming the preview's state. A preview of something that cannot be done says
        nothing is lost: the operation itself then gives the precise refusal."""
        require_organiser(actor, lazy("run destructive actions"))
        if action not in CONFIRM_ACTIONS:
            raise InvalidInputError(
                f"There is no action {echo(action)} to confirm: one of "
                f"{', '.join(CONFIRM_ACTIONS)}.")
        if action == "drop" and player is None:
            raise InvalidInputError("Name the player to drop.")
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, actor.guild_id, tournament,
                                      closed_ok=action == "finish")
            version = await tournament_repo.course_version(conn, t.id)
            last = await round_repo.last_round(conn, t.id)
            latest = 0 if last is None else last.number
            number: int | None = None
            if action == "next":
                consequence, needs = await _next_consequence(conn, t, latest)
            elif action == "undo":
                consequence, needs = await _undo_consequence(conn, t, latest)
            elif action == "finish":
                consequence, needs = await _finish_consequence(conn, t, latest)
            elif action == "cancel":
                consequence, needs = await _cancel_consequence(conn, t, latest)
            else:
                assert player is not None
                row = await find_player(conn, t, player)
                number = row.number
                played = await round_repo.count_results_of(conn, row.id)
                needs = t.status == "running" and row.status == "active" and played > 0 \
                    and number is not None
                stay = "stays" if played == 1 else "stay"
                consequence = (f"drops {row.name} from '{t.name}': {_games(played, 'played')} "
                               f"{stay} in the standings, and {row.name} is not paired from "
                               f"round {latest + 1} on")
        return ActionPreview(
            action=action, tournament_id=t.id, tournament_name=t.name,  # type: ignore[arg-type]
            version=version, round_number=latest + 1 if action == "next" else latest,
            consequence=consequence, needs_confirmation=needs, player_number=number,
        )

    async def require_course(
        self, conn: Connection, t: TournamentRow, version: int | None, action: ConfirmAction
    ) -> None:
        """Refuse (``RoundChangedError``) a confirmation shown for course version ``version``
        when the tournament has changed course since: a round was paired or undone, it
        finished or was cancelled, or a player dropped, withdrew or was removed. The
        operation's own checks come first and name the change when they can ("round 3 is
        already paired"); this one catches the rest (a round undone and paired again)."""
        if version is None:
            return
        current = await tournament_repo.course_version(conn, t.id)
        if current == version:
            return
        event = await round_repo.latest_round_event(conn, t.id)
        latest = ("" if event is None else
                  f"; its latest round change: round {event.round_number} was {event.event} at "
                  f"<t:{int(event.at.timestamp())}:T>")
        raise RoundChangedError(
            f"This prompt is out of date: '{t.name}' has changed since it was shown (a round "
            f"paired or undone, a player dropped, or the event started or ended{latest}). "
            f"Nothing was done: run {AGAIN[action]} again to see what it would do now."
        )


def _games(count: int, what: str) -> str:
    return f"{count} {what} game{'s' if count != 1 else ''}"


async def _open_games(conn: Connection, t: TournamentRow) -> tuple[int, int]:
    """(open games, of them waiting reports) of the latest round, counted, not read: a
    1,500-board round is not loaded to be described."""
    last = await round_repo.last_round(conn, t.id)
    return (0, 0) if last is None else await round_repo.count_open(conn, last.id)


def _closing(open_games: tuple[int, int]) -> str:
    """"3 open games become double forfeits" (and waiting reports stand): what a forced
    close of the round does to its open games."""
    total, reported = open_games
    forfeits = total - reported
    parts = []
    if forfeits:
        verb = "becomes a double forfeit" if forfeits == 1 else "become double forfeits"
        parts.append(f"{_games(forfeits, 'open')} {verb}")
    if reported:
        parts.append(f"{reported} waiting report{'s' if reported != 1 else ''} "
                     f"stand{'s' if reported == 1 else ''} as if confirmed")
    return " and ".join(parts)


async def _next_consequence(
    conn: Connection, t: TournamentRow, latest: int
) -> tuple[str, bool]:
    open_games = await _open_games(conn, t)
    if not open_games[0]:
        return f"pairs round {latest + 1} of '{t.name}'", False
    return (f"closes round {latest}: {_closing(open_games)}, then pairs round {latest + 1} of "
            f"'{t.name}'"), True


async def _undo_consequence(
    conn: Connection, t: TournamentRow, latest: int
) -> tuple[str, bool]:
    last = await round_repo.last_round(conn, t.id)
    finals = 0 if last is None else await round_repo.count_final(conn, last.id)
    text = f"undoes round {latest} of '{t.name}'"
    if not finals:
        return f"{text}: its pairings are removed (no result is lost)", False
    return (f"{text}: {finals} result{'s are' if finals != 1 else ' is'} deleted and its "
            "pairings are removed"), True


async def _finish_consequence(
    conn: Connection, t: TournamentRow, latest: int
) -> tuple[str, bool]:
    open_games = await _open_games(conn, t)
    rounds = settings_of(t).rounds
    bracket = await load_bracket(conn, t.id)
    if bracket is None and settings_of(t).top_cut:
        what = (f"ends the Swiss of '{t.name}' after round {latest} of {rounds} and seeds "
                f"the top {settings_of(t).top_cut} into the playoffs")
    else:
        what = f"finishes '{t.name}' after round {latest}" + (
            f" of {rounds}" if bracket is None else "")
    if not open_games[0]:
        return what, False
    return f"{what}: {_closing(open_games)}", True


async def _cancel_consequence(
    conn: Connection, t: TournamentRow, latest: int
) -> tuple[str, bool]:
    players = await player_repo.count_entrants(conn, t.id)
    who = f"{players} player{'s' if players != 1 else ''}"
    if t.status == "running":
        when = f"after round {latest} of {settings_of(t).rounds}" if latest else \
            "before its first round"
        return (f"cancels '{t.name}' {when}: nothing more can be paired or reported, and "
                f"its {who} get no final standings"), True
    if t.status == "registration":
        return f"cancels '{t.name}' before its start: {who} registered", players > 0
    return f"cancels '{t.name}'", False  # finished or cancelled: the cancel says why not
