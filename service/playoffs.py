"""The top cut: a single-elimination bracket after the Swiss.

When the Swiss ends (its last round is complete, or an organiser finishes it) and the
tournament has ``top_cut`` N > 0, the best N of the final Swiss standings who are still in
(withdrawn players are skipped and the next ones move up; ties at the cut line are decided by
the tiebreaks, then by the standings' own order) are seeded 1..N into a bracket
(swiss.bracket). With fewer than N players still in, every one of them is seeded and the
bracket is the next power of two, the missing places being first-round byes for the top
seeds (6 players in a top 8: seeds 1 and 2 go straight to the semi-finals). With fewer than 2
players still in, there is no bracket and the tournament finishes.

Playoff rounds are ordinary rounds numbered after the Swiss (a 5-round Swiss with a top 4
plays its semi-finals as round 6 and its final as round 7): pairing (``/round next`` and
auto-advance), reports, confirmations, disputes, organiser results and undo work on them as
on Swiss rounds. What differs is checked here: a match needs a winner (no draws, no double
forfeits), a best-of-N match is reported with its game score (2-1), and the tournament
finishes when the final has its winner.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from service.base import Context, audit, part
from service.course import system_actor
from service.deferred import still_in
from service.errors import ConflictError, InvalidInputError, RoundNotCompleteError
from service.model import load_snapshot, settings_of
from service.outbox import GIVEN_UP
from service.playoff_state import BracketState, load_bracket
from service.present import (
    round_payload,
    round_view,
    standings_payload,
    standings_view,
    to_jsonable,
)
from service.views import Actor, RoundView, StandingsView
from storage import journal
from storage import players as player_repo
from storage import playoffs as playoff_repo
from storage import rounds as round_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection, IntegrityError
from storage.journal import OutboxRow
from storage.tournaments import TournamentRow
from swiss.model import Result
from swiss.wording import numbered, plural

if TYPE_CHECKING:
    from service.announcer import Announcer
    from service.course import Course
    from service.deferred import DeferredPosts


TOP_CUTS = (0, 2, 4, 8, 16, 32)
BEST_OF = (1, 3, 5)
PRIVILEGES = ("white", "black")


def bracket_payload(state: BracketState) -> dict[str, object]:
    """The bracket for the outbox: every match by round, with seeds, names and winners (the
    renderer draws the text and the picture from it)."""
    def side(seed: int | None) -> dict[str, object] | None:
        if seed is None:
            return None
        row = state.player(seed)
        return {"seed": seed, "name": row.name, "user_id": row.user_id}

    return {
        "entrants": state.playoffs.entrants,
        "best_of": state.playoffs.best_of,
        "privilege": state.playoffs.privilege,
        "swiss_rounds": state.playoffs.swiss_rounds,
        "note": state.note(),
        "champion": side(state.champion),
        "rounds": [
            {
                "stage": state.stage(k),
                "round": state.playoffs.swiss_rounds + k,
                "matches": [
                    {"index": m.index, "high": side(m.high), "low": side(m.low),
                     "winner": m.winner, "bye": m.bye,
                     "score": list(state.scores.get((k, m.index), ())) or None}
                    for m in matches
                ],
            }
            for k, matches in enumerate(state.matches, start=1)
        ],
        "placings": [to_jsonable(p) for p in state.placings()],
    }


def check_knockout_result(
    state: BracketState, value: Result, white_games: int | None, black_games: int | None
) -> None:
    """Refuse what cannot decide a knockout match: a draw, a double forfeit, a best-of-N
    score that does not end the match."""
    if value is Result.DRAW:
        raise InvalidInputError(
            "A knockout match cannot end in a draw: play a tiebreak game (or games) and "
            "report the winner of the match."
        )
    if value is Result.DOUBLE_FORFEIT:
        raise InvalidInputError(
            "A knockout match needs a winner: a double forfeit cannot stand. Give the match "
            "to one player (forfeit_win / forfeit_loss)."
        )
    if value.is_forfeit:
        return  # a forfeit has no game score
    best_of = state.playoffs.best_of
    need = best_of // 2 + 1
    if white_games is None or black_games is None:
        if best_of == 1:
            return
        raise InvalidInputError(
            f"This match is best of {best_of}: report the game score too (my_games and "
            f"their_games, e.g. {need}-{need - 1})."
        )
    won, lost = max(white_games, black_games), min(white_games, black_games)
    if won != need or lost >= need:
        raise InvalidInputError(
            f"{white_games}-{black_games} does not end a best-of-{best_of} match: the winner "
            f"has {plural(need, 'game')} and the loser fewer (e.g. {need}-0 or {need}-{need - 1})."
        )


@part
class Playoffs:
    """The top cut's steps, called by the round and tournament operations in their own
    transactions (so a cut or a playoff pairing is part of the operation that caused it)."""

    ctx: Context
    announcer: Announcer
    deferred: DeferredPosts
    course: Course


    async def cut(self, conn: Connection, actor: Actor, t: TournamentRow,
                   swiss_rounds: int) -> bool:
        """Seed the bracket at the end of the Swiss (round ``swiss_rounds``). False when
        there is no top cut (the tournament then finishes as before).

        For a big event (the threshold of the pairing and the standings) the seeding
        standings are not computed here, inside the operation's write transaction and in the
        event loop (a second at 3,000 players): the ``swiss_final`` announcement is written
        deferred, with ``cut`` in its spec, and after the commit the table is computed in a
        thread and the bracket seeded by a second short transaction (``service.deferred``),
        if the event is still the same. Meanwhile ``/round next`` answers that the top cut
        is being seeded; a process that stops in between leaves it to the recovery."""
        settings = settings_of(t)
        if not settings.top_cut or await playoff_repo.get_playoffs(conn, t.id) is not None:
            return False
        if await journal.deferred_of(conn, t.id, "swiss_final") is not None:
            return True  # being seeded after the commit of the operation that ended the Swiss
        if self.ctx.pairing.offloads(await player_repo.count_entrants(conn, t.id)) and \
                await player_repo.count_still_in(conn, t.id) >= 2:
            spec = {"revision": await tournament_repo.revision(conn, t.id),
                    "after_round": None, "final": True, "placings": False, "key": "standings",
                    "cut": {"round": swiss_rounds, "actor": [
                        actor.user_id, actor.display_name, actor.is_organiser]}}
            await self.deferred.announce_deferred(conn, t, "swiss_final",
                                                  {"top_cut": settings.top_cut}, spec)
            return True
        snapshot = await load_snapshot(conn, t)
        table = standings_view(t, snapshot, final=True)
        return await self._seed(conn, actor, t, swiss_rounds, table, still_in(table, snapshot))

    async def _seed(self, conn: Connection, actor: Actor, t: TournamentRow, swiss_rounds: int,
                    table: StandingsView, entrants: list[int], *,
                    deferred: OutboxRow | None = None) -> bool:
        """The bracket seeded from the final ``table`` (``entrants``: the players still in,
        in its order), its announcements and audit. ``deferred``: the ``swiss_final`` row
        written by :meth:`_cut`, completed here (False if another process did)."""
        settings = settings_of(t)
        seeds = entrants[: settings.top_cut]
        if len(seeds) < 2:
            if deferred is not None:  # not seen by _cut's count: leave it to the next result
                await journal.drop_deferred(conn, deferred.id, "fewer than 2 players to seed",
                                            GIVEN_UP)
            await audit(self.ctx, conn, actor, t, "playoffs.skipped", None,
                        {"top_cut": settings.top_cut, "players_left": len(seeds)})
            return False
        payload = {"standings": standings_payload(table), "top_cut": settings.top_cut,
                   "seeded": len(seeds)}
        if deferred is not None and not await journal.fill_deferred(
                conn, deferred.id, {**deferred.payload, **payload}):
            return False  # another process completed it meanwhile
        await playoff_repo.insert_playoffs(
            conn, tournament_id=t.id, swiss_rounds=swiss_rounds,
            best_of=settings.playoff_best_of, privilege=settings.playoff_privilege,
            seeds=seeds, now=self.ctx.now(),
        )
        state = await load_bracket(conn, t.id)
        assert state is not None
        if deferred is None:
            await self.announcer.announce(conn, t, "swiss_final", payload)
        else:  # what follows an announcement, as _announce does (nothing for this kind yet)
            await self.announcer.announced(conn, t, "swiss_final", payload)
        await self.announcer.announce(conn, t, "bracket",
                                      {"event": "seeded", **bracket_payload(state)})
        await audit(self.ctx, conn, actor, t, "playoffs.cut", None, {
            "swiss_rounds": swiss_rounds, "top_cut": settings.top_cut, "seeds": seeds,
            "best_of": settings.playoff_best_of, "privilege": settings.playoff_privilege,
        })
        if settings.auto_advance_minutes is not None:
            due = self.ctx.now() + timedelta(minutes=settings.auto_advance_minutes)
            await tournament_repo.set_auto_advance_due(conn, t.id, due)
        return True

    async def seed_deferred(self, conn: Connection, t: TournamentRow, row: OutboxRow,
                             table: StandingsView, entrants: list[int]) -> bool:
        """The second step of a deferred cut (service.deferred): seed from ``table``."""
        cut = (row.deferred or {})["cut"]
        user_id, name, is_organiser = cut["actor"]
        actor = Actor(int(user_id), t.guild_id, str(name), bool(is_organiser))
        if await playoff_repo.get_playoffs(conn, t.id) is not None:
            return False
        return await self._seed(conn, actor, t, int(cut["round"]), table, entrants,
                                deferred=row)

    async def pair_playoff(self, conn: Connection, actor: Actor, t: TournamentRow,
                            state: BracketState, *, force: bool) -> RoundView:
        """Pair the next bracket round once the previous one is complete. ``force`` lets
        reported results stand; a match without any result still needs one (a knockout
        cannot score a double forfeit)."""
        po = state.playoffs
        last = await round_repo.last_round(conn, t.id)
        assert last is not None
        if last.number > po.swiss_rounds:
            unfinished = [g for g in await round_repo.list_games(conn, t.id, last.number)
                          if g.state != "final"]
            unreported = [g for g in unfinished
                          if g.state != "reported" or g.reported_result is None]
            if unfinished and (not force or unreported):
                open_games = unreported or unfinished
                boards = numbered("match", (g.board for g in open_games), "matches")
                have = "has" if len(open_games) == 1 else "have"
                stage = state.stage(last.number - po.swiss_rounds)
                raise RoundNotCompleteError(
                    f"Round {last.number} of '{t.name}' ({stage}) "
                    f"is not complete: {boards} {have} no final result. A knockout "
                    "match needs a winner: set it with /result set"
                    + ("." if unreported else ", or pair with force (reported results stand).")
                )
            if unfinished:
                await self.course.close_round(conn, actor, t, last.number, unfinished,  # type: ignore[attr-defined]
                                              announce=False)
                fresh = await load_bracket(conn, t.id)
                assert fresh is not None
                state = fresh
                closed = await round_view(conn, t, last.number)
                await self.announcer.announce(conn, t, "round_results", round_payload(closed))
                await self.announcer.announce(conn, t, "bracket", {"event": "advanced",
                                                                   **bracket_payload(state)})
        k = last.number - po.swiss_rounds + 1
        if k > state.rounds_total:
            raise ConflictError(f"The bracket of '{t.name}' is complete: there is no round "
                                "left to pair.")
        matches = state.matches[k - 1]
        number = po.swiss_rounds + k
        settings = settings_of(t)
        now = self.ctx.now()
        deadline = (None if settings.deadline_minutes is None
                    else now + timedelta(minutes=settings.deadline_minutes))
        try:
            round_id = await round_repo.insert_round(
                conn, tournament_id=t.id, number=number, now=now, paired_by=actor.user_id,
                forced=force, deadline=deadline,
            )
        except IntegrityError:
            raise ConflictError(f"Round {number} of '{t.name}' is already paired.") from None
        for m in matches:
            if m.bye:
                assert m.high is not None
                await round_repo.insert_bye(conn, tournament_id=t.id, round_id=round_id,
                                            player_id=state.player(m.high).id, kind="pairing")
                continue
            assert m.high is not None and m.low is not None, "the previous round is complete"
            high, low = state.player(m.high), state.player(m.low)
            white, black = (high, low) if po.privilege == "white" else (low, high)
            await round_repo.insert_game(conn, tournament_id=t.id, round_id=round_id,
                                         board=m.index + 1, white_id=white.id,
                                         black_id=black.id)
        await tournament_repo.set_auto_advance_due(conn, t.id, None)
        await self.course.record_round_event(conn, actor, t, number, "paired")  # type: ignore[attr-defined]
        view = await round_view(conn, t, number)
        await self.announcer.announce(conn, t, "pairings", round_payload(view))
        await audit(self.ctx, conn, actor, t, "round.pair", None, {
            "round": number, "forced": force, "playoff": view.stage,
            "games": [[g.white.number, g.black.number] for g in view.games],
            "byes": [[b.player.number, b.kind] for b in view.byes],
        })
        return view

    async def after_playoff_round(self, conn: Connection, t: TournamentRow,
                                   state: BracketState, number: int) -> bool:
        """A playoff round just became complete: post the bracket; finish the tournament if
        the final has its winner. Returns True when it finished."""
        now = self.ctx.now()
        current = await tournament_repo.get_tournament(conn, t.id) or t
        last = await round_repo.last_round(conn, t.id)
        if last is None or last.number != number or current.status != "running":
            await self.announcer.announce(conn, t, "bracket", {"event": "corrected",
                                                               **bracket_payload(state)})
            return False
        if state.champion is not None:
            await tournament_repo.set_status(conn, t.id, "finished", expected=("running",),
                                             now=now)
            await self.announcer.announce(conn, t, "bracket", {"event": "final",
                                                               **bracket_payload(state)})
            # with the placings of the bracket just completed (with_placings, after_round None)
            await self.deferred.announce_standings(conn, t, "final_standings", {}, final=True,
                                                   placings=True)
            await audit(self.ctx, conn, system_actor(t), t, "tournament.finish", None,
                        {"automatic": True, "champion": state.champion})
            return True
        await self.announcer.announce(conn, t, "bracket", {"event": "advanced",
                                                           **bracket_payload(state)})
        settings = settings_of(t)
        if settings.auto_advance_minutes is not None:
            due = now + timedelta(minutes=settings.auto_advance_minutes)
            await tournament_repo.set_auto_advance_due(conn, t.id, due)
        return False
