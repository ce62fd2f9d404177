"""Pairing drafts (issue 15 item 4): preview, edits with warnings and confirmation, publish,
stale and replaced drafts, the audit log and the TRF export of a manually paired round."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from service import ConflictError, RoundChangedError, TournamentService
from service.errors import PairingBusyError
from service.pairing_pool import PairingLimits, PairingPool
from service.views import DraftView
from storage import journal
from swiss.trf.reader import parse_trf
from tests.service.test_service_tournament import play_round
from tests.service_helpers import member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()


async def _after_round_one(service: TournamentService, players: int = 6) -> int:
    info = await service.create_tournament(ORG, "Draft Open", 4, seed=11)
    for uid in range(801, 801 + players):
        await service.join(member(uid))
    r1 = await service.start_tournament(ORG)
    await play_round(service, r1)
    return info.id


def _opponents_in_round_one(r1_games: list[tuple[int, int]]) -> dict[int, int]:
    out = {}
    for w, b in r1_games:
        out[w], out[b] = b, w
    return out


def _board_pairs(draft: DraftView) -> list[tuple[int, int]]:
    return [(b.white.player_id, b.black.player_id) for b in draft.boards]


async def test_swap_that_creates_a_rematch_warns_then_applies_on_confirmation(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "d.sqlite3") as service:
        tid = await _after_round_one(service)
        r1 = await service.pairings(1000, tid, 1)
        met = _opponents_in_round_one([(g.white.player_id, g.black.player_id)
                                       for g in r1.games])
        draft = await service.preview_round(ORG)
        assert draft.round_number == 2 and draft.version == 1 and not draft.warnings
        assert len(draft.boards) == 3 and draft.notes  # the engine's explanations
        # board 1's white meets his round-1 opponent if that opponent swaps with board 1's black
        x = draft.boards[0].white
        y = met[x.player_id]
        y_seat = next(s for b in draft.boards for s in (b.white, b.black) if s.player_id == y)
        edit = await service.swap_in_draft(ORG, f"#{draft.boards[0].black.number}",
                                           f"#{y_seat.number}", version=1)
        assert not edit.applied
        assert any("rematch" in w for w in edit.new_warnings)
        assert edit.draft.version == 1  # nothing changed
        assert (await service.show_draft(ORG)).version == 1
        edit = await service.swap_in_draft(ORG, f"#{draft.boards[0].black.number}",
                                           f"#{y_seat.number}", version=1, confirm=True)
        assert edit.applied and edit.draft.version == 2
        assert {edit.draft.boards[0].white.player_id, edit.draft.boards[0].black.player_id} \
            == {x.player_id, y}
        assert any("rematch" in w for w in edit.draft.warnings)
        # the confirmation of version 1 cannot apply twice
        with pytest.raises(RoundChangedError, match="version 2"):
            await service.swap_in_draft(ORG, "#1", "#2", version=1, confirm=True)
        r2 = await service.publish_draft(ORG, version=2)
        assert r2.number == 2
        assert [(g.white.player_id, g.black.player_id) for g in r2.games] == \
            _board_pairs(edit.draft)
        with pytest.raises(Exception, match="no draft"):
            await service.show_draft(ORG)
        async with service.db.transaction(readonly=True) as conn:
            actions = [a.action for a in await journal.list_audit(conn, tid)]
        assert actions[-3:] == ["draft.preview", "draft.swap", "round.pair"]
        # the TRF export is faithful: once played, read back, round 2 is the edited round,
        # colours as edited (the rematch is in the history)
        await play_round(service, r2)
        trf = (await service.export(1000, "trf", tid)).content
        model = parse_trf(trf).tournament
        numbers = {s.player_id: s.number for b in edit.draft.boards for s in (b.white, b.black)}
        assert sorted((g.white, g.black) for g in model.rounds[1].games) == \
            sorted((numbers[w], numbers[b]) for w, b in _board_pairs(edit.draft))


async def test_publishing_a_stale_draft_is_refused(tmp_path: Path) -> None:
    async with open_service(tmp_path / "d.sqlite3") as service:
        tid = await _after_round_one(service)
        draft = await service.preview_round(ORG)
        r1 = await service.pairings(1000, tid, 1)
        game = r1.games[0]
        flipped = "loss" if game.result == "1-0" else "win"
        await service.set_result(ORG, 1, f"#{game.white.number}", flipped)
        assert (await service.show_draft(ORG)).stale
        with pytest.raises(RoundChangedError, match="out of date"):
            await service.publish_draft(ORG, version=draft.version)
        with pytest.raises(RoundChangedError, match="out of date"):
            await service.bye_in_draft(ORG, "#1", version=draft.version)
        again = await service.preview_round(ORG)
        assert again.version == draft.version + 1 and not again.stale
        assert (await service.publish_draft(ORG, version=again.version)).number == 2


async def test_round_next_without_preview_is_unchanged_and_drops_the_draft(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "d.sqlite3") as service:
        await _after_round_one(service)
        draft = await service.preview_round(ORG)
        r2 = await service.pair_next_round(ORG, round_number=2)
        # the engine pairs the same round the preview showed
        assert [(g.white.player_id, g.black.player_id) for g in r2.games] == _board_pairs(draft)
        with pytest.raises(Exception, match="no draft"):
            await service.publish_draft(ORG, version=draft.version)


async def test_pair_and_bye_edits_and_second_bye_warning(tmp_path: Path) -> None:
    async with open_service(tmp_path / "d.sqlite3") as service:
        tid = await _after_round_one(service, players=5)  # odd: one pairing bye a round
        r1 = await service.pairings(1000, tid, 1)
        had_bye = r1.byes[0].player
        draft = await service.preview_round(ORG)
        assert len(draft.boards) == 2 and len(draft.byes) == 1
        edit = await service.bye_in_draft(ORG, f"#{had_bye.number}", version=draft.version)
        assert not edit.applied and any("second" in w for w in edit.new_warnings)
        edit = await service.bye_in_draft(ORG, f"#{had_bye.number}", version=draft.version,
                                          confirm=True)
        assert edit.applied and edit.draft.byes[0][0].player_id == had_bye.player_id
        # /round pair: two players of different boards play each other; the others too
        a = edit.draft.boards[0].white
        b = edit.draft.boards[1].white
        edit = await service.pair_in_draft(ORG, f"#{a.number}", f"#{b.number}",
                                           version=edit.draft.version, confirm=True)
        assert edit.applied
        pairs = [{x, y} for x, y in _board_pairs(edit.draft)]
        assert {a.player_id, b.player_id} in pairs and len(pairs) == 2
        r2 = await service.publish_draft(ORG, version=edit.draft.version)
        assert [(y.player.player_id, y.kind) for y in r2.byes] == \
            [(had_bye.player_id, "pairing")]


async def test_drafts_are_for_organisers_only(tmp_path: Path) -> None:
    async with open_service(tmp_path / "d.sqlite3") as service:
        await _after_round_one(service)
        with pytest.raises(Exception, match="organiser"):
            await service.preview_round(member(801))


async def test_a_draft_survives_a_restart_and_is_published_once(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite3"
    async with open_service(path) as service:
        await _after_round_one(service)
        draft = await service.preview_round(ORG)
    async with open_service(path) as service:  # the bot was killed and restarted
        again = await service.show_draft(ORG)
        assert again.version == draft.version and not again.stale
        assert _board_pairs(again) == _board_pairs(draft)
        first, second = await asyncio.gather(
            service.publish_draft(ORG, version=draft.version),
            service.publish_draft(ORG, version=draft.version),
            return_exceptions=True,
        )
        published = [r for r in (first, second) if not isinstance(r, BaseException)]
        assert len(published) == 1 and published[0].number == 2  # a double click acts once
        assert (await service.pairings(1000)).number == 2


async def test_a_requested_bye_cannot_be_swapped_to_another_player(tmp_path: Path) -> None:
    async with open_service(tmp_path / "d.sqlite3") as service:
        await _after_round_one(service, players=7)
        await service.request_bye(ORG, 2, kind="half", player=801)
        draft = await service.preview_round(ORG)
        assert ("half" in [k for _, k in draft.byes])
        other = draft.boards[0].white.number
        with pytest.raises(Exception, match="asked for"):
            await service.swap_in_draft(ORG, 801, f"#{other}", version=draft.version,
                                        confirm=True)


async def test_a_change_while_the_preview_is_computed_refuses_it(tmp_path: Path) -> None:
    async with open_service(tmp_path / "d.sqlite3") as service:
        tid = await _after_round_one(service)
        first = (await service.pairings(1000, tid, 1)).games[0]
        real_run = service.pairing.run

        async def result_corrected_meanwhile(*args: Any) -> Any:
            # the engine runs outside any transaction: an organiser corrects a result
            result = await real_run(*args)
            await service.set_result(ORG, 1, f"#{first.white.number}", "draw")
            return result

        service.pairing.run = result_corrected_meanwhile  # type: ignore[method-assign]
        with pytest.raises(RoundChangedError, match="changed while the preview of round 2"):
            await service.preview_round(ORG)
        service.pairing.run = real_run  # type: ignore[method-assign]
        with pytest.raises(ConflictError, match="no draft"):
            await service.show_draft(ORG)  # nothing was saved
        async with service.db.transaction(readonly=True) as conn:
            assert "draft.preview" not in [a.action for a in await journal.list_audit(conn, tid)]
        draft = await service.preview_round(ORG)  # again, on the corrected round 1
        assert draft.version == 1 and draft.round_number == 2


async def test_a_big_preview_honours_the_pairing_concurrency_limit(tmp_path: Path) -> None:
    async with open_service(tmp_path / "d.sqlite3") as service:
        await _after_round_one(service)
        service.pairing = PairingPool(PairingLimits(inline_below=2, max_concurrent=1))
        slot = service.pairing.reserve()  # another big event is being paired
        try:
            with pytest.raises(PairingBusyError, match="was not previewed"):
                await service.preview_round(ORG)
        finally:
            service.pairing.release(slot)
            service.pairing.close()
        with pytest.raises(ConflictError, match="no draft"):
            await service.show_draft(ORG)
