"""The top cut (issue 15, item 1) through the service against a real SQLite file: seeding from
the final Swiss standings, byes when fewer players are left than the cut, a dropped player
skipped, ties at the cut line, best-of-3 reporting, draws refused, undo of a playoff round,
a restart between playoff rounds, exports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service import (
    ConflictError,
    InvalidInputError,
    RegistrationClosedError,
    RoundNotCompleteError,
    RoundView,
    TournamentService,
)
from swiss.trf import parse_trf
from tests.service_helpers import Clock, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()


async def _event(service: TournamentService, players: int, rounds: int, **options: object
                 ) -> int:
    info = await service.create_tournament(ORG, "Cup", rounds, seed=7, **options)  # type: ignore[arg-type]
    for uid in range(101, 101 + players):
        await service.join(member(uid), rating=3000 - uid)
    return info.id


async def _play_swiss_round(service: TournamentService, view: RoundView) -> None:
    """Higher-rated (lower user id) player wins every game: a predictable standings order."""
    for game in view.games:
        assert game.white.user_id and game.black.user_id
        white_better = game.white.user_id < game.black.user_id
        await service.report_result(member(game.white.user_id),
                                    "win" if white_better else "loss")
        await service.confirm_result(member(game.black.user_id), game.id)


async def _win(service: TournamentService, view: RoundView, winner_of: dict[int, int] | None
               = None, **scores: int) -> None:
    """Every match of a playoff round to its higher seed (user id smaller), or as told."""
    for game in view.games:
        assert game.white.user_id and game.black.user_id
        a, b = game.white.user_id, game.black.user_id
        winner = (winner_of or {}).get(game.board, min(a, b))
        loser = b if winner == a else a
        await service.report_result(member(winner), "win", **scores)
        await service.confirm_result(member(loser), game.id)


async def test_top_cut_of_8_with_only_6_active_gives_the_top_seeds_byes(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _event(service, 8, 2, top_cut=8)
        view = await service.start_tournament(ORG)
        await service.drop_player(ORG, "<@107>")
        await service.drop_player(ORG, "<@108>")
        await _play_swiss_round(service, view)
        view = await service.pair_next_round(ORG, round_number=2)
        await _play_swiss_round(service, view)
        info = await service.tournament_info(ORG.guild_id)
        assert info.status == "running"  # the bracket follows the Swiss
        table = await service.standings(ORG.guild_id)
        assert [p.place for p in table.placings] == ["Still in"] * 6
        seeds = {p.seed: p.user_id for p in table.placings}
        assert 107 not in seeds.values() and 108 not in seeds.values()
        quarters = await service.pair_next_round(ORG, round_number=3)
        assert quarters.stage == "Quarter-finals"
        # seeds 1 and 2 have byes; 4 v 5 and 3 v 6 play
        assert {b.player.user_id for b in quarters.byes} == {seeds[1], seeds[2]}
        assert sorted(sorted((g.white.user_id, g.black.user_id)) for g in quarters.games) == \
            sorted([sorted((seeds[4], seeds[5])), sorted((seeds[3], seeds[6]))])
        await _win(service, quarters)
        semis = await service.pair_next_round(ORG)
        assert semis.stage == "Semi-finals" and len(semis.games) == 2
        await _win(service, semis)
        final = await service.pair_next_round(ORG)
        assert final.stage == "Final"
        assert {final.games[0].white.user_id, final.games[0].black.user_id} == \
            {seeds[1], seeds[2]}
        await _win(service, final)
        info = await service.tournament_info(ORG.guild_id)
        assert info.status == "finished"
        table = await service.standings(ORG.guild_id)
        places = [(p.place, p.seed) for p in table.placings]
        assert places[:2] == [("Winner", 1), ("Finalist", 2)]
        assert sorted(places[2:4]) == [("Semi-finalist", 3), ("Semi-finalist", 4)]
        assert sorted(places[4:]) == [("Quarter-finalist", 5), ("Quarter-finalist", 6)]
        # the Swiss standings stay the Swiss's: 2 rounds
        assert table.after_round == 2
        kinds = [a.kind for a in await service.announcements()]
        assert kinds.count("bracket") >= 3 and "final_standings" in kinds


async def test_a_player_who_dropped_before_the_cut_is_skipped(tmp_path: Path) -> None:
    async with open_service(tmp_path / "u.sqlite3") as service:
        await _event(service, 8, 2, top_cut=4)
        view = await service.start_tournament(ORG)
        await _play_swiss_round(service, view)
        table = await service.standings(ORG.guild_id)
        leader = table.rows[0]
        view = await service.pair_next_round(ORG)
        await service.drop_player(ORG, f"<@{leader.user_id}>")
        await _play_swiss_round(service, view)
        table = await service.standings(ORG.guild_id)
        swiss_order = [r.user_id for r in table.rows if not r.withdrawn]
        seeded = [p.user_id for p in sorted(table.placings, key=lambda p: p.seed)]
        assert leader.user_id not in seeded
        assert seeded == swiss_order[:4]


async def test_ties_at_the_cut_line_are_broken_by_the_tiebreaks(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _event(service, 8, 2, top_cut=4)
        view = await service.start_tournament(ORG)
        await _play_swiss_round(service, view)
        view = await service.pair_next_round(ORG)
        await _play_swiss_round(service, view)
        table = await service.standings(ORG.guild_id)
        fourth, fifth = table.rows[3], table.rows[4]
        # a tie on points at the cut line (4 players on 1 point for places 3-6) ...
        assert fourth.points == fifth.points
        # ... decided by the tiebreaks (the first ones are equal, a later one is not)
        assert fourth.values != fifth.values and fourth.values > fifth.values
        assert fourth.rank < fifth.rank
        seeded = [p.user_id for p in sorted(table.placings, key=lambda p: p.seed)]
        assert seeded == [r.user_id for r in table.rows[:4]]
        assert fifth.user_id not in seeded


@pytest.mark.slow
async def test_best_of_3_reporting_and_draws_refused(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _event(service, 4, 1, top_cut=2, playoff_best_of=3, playoff_privilege="black")
        view = await service.start_tournament(ORG)
        await _play_swiss_round(service, view)
        final = await service.pair_next_round(ORG)
        assert final.stage == "Final" and "best of 3" in final.playoff_note
        game = final.games[0]
        table = await service.standings(ORG.guild_id)
        seeds = {p.seed: p.user_id for p in table.placings}
        assert game.black.user_id == seeds[1]  # privilege "black": the higher seed plays black
        low = member(seeds[2])
        with pytest.raises(InvalidInputError, match="draw"):
            await service.report_result(low, "draw")
        with pytest.raises(InvalidInputError, match="best of 3"):
            await service.report_result(low, "win")
        with pytest.raises(InvalidInputError, match="does not end"):
            await service.report_result(low, "win", my_games=1, their_games=0)
        with pytest.raises(InvalidInputError, match="draw"):
            await service.set_result(ORG, final.number, f"<@{seeds[1]}>", "draw")
        outcome = await service.report_result(low, "win", my_games=2, their_games=1)
        assert outcome.status == "awaiting_confirmation"
        done = await service.confirm_result(member(seeds[1]), game.id)
        assert done.tournament_finished
        table = await service.standings(ORG.guild_id)
        assert table.placings[0].user_id == seeds[2] and table.placings[0].place == "Winner"


async def test_undo_of_a_playoff_round_and_of_the_cut(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _event(service, 8, 1, top_cut=4)
        view = await service.start_tournament(ORG)
        await _play_swiss_round(service, view)
        semis = await service.pair_next_round(ORG, round_number=2)
        await _win(service, semis, {1: semis.games[0].white.user_id or 0})
        final = await service.pair_next_round(ORG, round_number=3)
        # a correction that would change who is in the final is refused
        loser = semis.games[0].black.user_id
        with pytest.raises(ConflictError, match="undo round 3"):
            await service.set_result(ORG, 2, f"<@{loser}>", "win")
        undone = await service.undo_round(ORG, round_number=3)
        assert undone.stage == "Final"
        await service.set_result(ORG, 2, f"<@{loser}>", "win")
        final = await service.pair_next_round(ORG, round_number=3)
        assert loser in (final.games[0].white.user_id, final.games[0].black.user_id)
        await service.undo_round(ORG, round_number=3)
        await service.undo_round(ORG, round_number=2, force=True)
        # undoing the last Swiss round removes the cut made from it
        await service.undo_round(ORG, round_number=1, force=True)
        table = await service.standings(ORG.guild_id)
        assert table.placings == ()
        # the settings may change again before the cut
        await service.edit_tournament(ORG, top_cut=2)


async def test_restart_between_playoff_rounds_keeps_the_bracket(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    clock = Clock()
    async with open_service(path, clock) as service:
        await _event(service, 4, 1, top_cut=4, auto_advance_minutes=0)
        view = await service.start_tournament(ORG)
        await _play_swiss_round(service, view)
        [semis] = await service.run_auto_advances()
        await _win(service, semis)
    async with open_service(path, clock) as service:  # the bot restarted
        [final] = await service.run_auto_advances()
        assert final.stage == "Final" and final.number == 3
        assert await service.run_auto_advances() == []  # paired once
        game = final.games[0]
        assert game.white.user_id and game.black.user_id
        await service.report_result(member(game.white.user_id), "win")
    async with open_service(path, clock) as service:  # the Confirm button after a restart
        done = await service.confirm_result(member(game.black.user_id), game.id)
        assert done.tournament_finished
        table = await service.standings(ORG.guild_id)
        assert table.placings[0].place == "Winner"


async def test_settings_and_refusals(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        with pytest.raises(InvalidInputError, match="top cut"):
            await service.create_tournament(ORG, "Bad", 3, top_cut=6)
        with pytest.raises(InvalidInputError, match="best of"):
            await service.create_tournament(ORG, "Bad", 3, top_cut=4, playoff_best_of=2)
        await _event(service, 4, 1)
        view = await service.start_tournament(ORG)
        await service.edit_tournament(ORG, top_cut=2, playoff_best_of=3)  # while the Swiss runs
        await _play_swiss_round(service, view)
        final = await service.pair_next_round(ORG)
        with pytest.raises(RegistrationClosedError, match="already seeded"):
            await service.edit_tournament(ORG, playoff_best_of=5)
        with pytest.raises(RoundNotCompleteError, match="needs a winner"):
            await service.pair_next_round(ORG, force=True)
        assert final.games


async def test_finish_during_the_swiss_seeds_the_bracket_and_exports(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _event(service, 4, 3, top_cut=2)
        view = await service.start_tournament(ORG)
        await _play_swiss_round(service, view)
        await service.finish_tournament(ORG)  # after round 1 of 3: the Swiss ends here
        assert (await service.tournament_info(ORG.guild_id)).status == "running"
        final = await service.pair_next_round(ORG, round_number=2)
        assert final.stage == "Final"
        await _win(service, final)
        assert (await service.tournament_info(ORG.guild_id)).status == "finished"
        trf = await service.export(ORG.guild_id, "trf")
        # the TRF holds the Swiss only: round 1 (the final, round 2, is a knockout)
        assert len(parse_trf(trf.content).tournament.rounds) == 1
        data = json.loads((await service.export(ORG.guild_id, "json")).content)
        assert data["playoffs"]["placings"][0]["place"] == "Winner"
        csv_text = (await service.export(ORG.guild_id, "csv")).content
        assert "Final" in csv_text


async def test_forced_pairing_lets_reported_results_stand(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _event(service, 4, 1, top_cut=4)
        view = await service.start_tournament(ORG)
        await _play_swiss_round(service, view)
        semis = await service.pair_next_round(ORG)
        for game in semis.games:  # reported, never confirmed
            assert game.white.user_id
            await service.report_result(member(game.white.user_id), "win")
        with pytest.raises(RoundNotCompleteError, match="pair with force"):
            await service.pair_next_round(ORG)
        final = await service.pair_next_round(ORG, force=True)
        assert final.stage == "Final"
        assert {final.games[0].white.user_id, final.games[0].black.user_id} == \
            {g.white.user_id for g in semis.games}


async def test_the_final_result_places_the_playoffs_first_then_the_swiss(tmp_path: Path) -> None:
    """The lowest seed wins the top cut: the final standings payload places him first (the
    semi-finalists share 3rd, the others follow in Swiss order), and his DM says #1."""
    async with open_service(tmp_path / "t.sqlite3") as service:
        tid = await _event(service, 6, 2, top_cut=4)
        for uid in range(101, 107):
            await service.set_dm(member(uid), True)
        view = await service.start_tournament(ORG)
        await _play_swiss_round(service, view)
        await _play_swiss_round(service, await service.pair_next_round(ORG))
        semis = await service.pair_next_round(ORG)
        swiss_rank = {r.user_id: r.rank for r in (await service.standings(ORG.guild_id)).rows}
        entrants = [u for g in semis.games for u in (g.white.user_id, g.black.user_id)]
        underdog = max(entrants, key=lambda u: swiss_rank[u])
        board = next(g.board for g in semis.games
                     if underdog in (g.white.user_id, g.black.user_id))
        await _win(service, semis, {board: underdog})
        await _win(service, await service.pair_next_round(ORG), {1: underdog})
        assert (await service.tournament_info(ORG.guild_id)).status == "finished"
        posts = await service.announcements(tid)
        finals = [a for a in posts if a.kind == "final_standings"]
        assert len(finals) == 1 and not any(a.kind == "standings" and a.payload.get("final")
                                            for a in posts)
        place = {r["user_id"]: r["place"] for r in finals[0].payload["rows"]}
        swiss = {r["user_id"]: r["rank"] for r in finals[0].payload["rows"]}
        assert swiss[underdog] == 4 and place[underdog] == 1
        assert sorted(place.values()) == [1, 2, 3, 3, 5, 6]
        rest = sorted((u for u in place if place[u] > 4), key=place.__getitem__)
        assert rest == sorted(rest, key=swiss.__getitem__)  # the others in Swiss order
        dm = {a.payload["user_id"]: a.payload["rank"] for a in posts if a.kind == "dm_final"}
        assert dm == place  # each player's DM tells his place in the final result
