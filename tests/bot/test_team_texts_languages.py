"""The team commands' answers and posts, and the standings legend, are in the reader's
language (the member's for an answer, the server's for a post); English is unchanged."""

from __future__ import annotations

import pytest

import i18n
from bot.errors import UserFacingError
from bot.render import teams as render
from cogs.teams import parse_lineup
from service.team_views import LineupView, MemberView

LINEUP = LineupView("Team Cup", "Rooks", 3, 2, (MemberView(11, "Ann", 1, False),
                                                 MemberView(12, "Bob", 2, False)), True)


def test_a_lineup_answer_is_in_the_members_language() -> None:
    assert render.lineup_text(LINEUP) == (
        "📋 Lineup 2 of **Rooks** for round 3 (set after the pairing, by an organiser): "
        "board 1: <@11>, board 2: <@12>. The last lineup set before the round is paired stands.")
    with i18n.speaking("pt_BR"):
        assert render.lineup_text(LINEUP) == (
            "📋 Escalação 2 de **Rooks** para a rodada 3 (definida após o emparceiramento, por "
            "um organizador): tabuleiro 1: <@11>, tabuleiro 2: <@12>. Vale a última escalação "
            "definida antes do emparceiramento da rodada.")


def test_a_bad_lineup_is_refused_in_the_members_language() -> None:
    with i18n.speaking("de"), pytest.raises(UserFacingError) as refused:
        parse_lineup("<@11> Bob")
    assert str(refused.value) == ("Nenne die Spieler als @Erwähnungen in Brettreihenfolge; "
                                  "'Bob' ist keine Erwähnung.")


def test_the_team_pairings_post_is_in_the_servers_language() -> None:
    payload = {"number": 2, "system": "fide-team", "matches": [
        {"number": 1, "white": "Rooks", "black": "Knights", "forfeit": True, "boards": [
            {"board": 1, "white": {"user_id": 11, "name": "Ann"}, "black": None,
             "result": "+-"}]},
        {"number": 2, "white": "Bishops", "black": None}]}
    with i18n.speaking("ru"):
        post = render.pairings("Team Cup", payload)
    text = "\n".join(embed.description or "" for message in post for embed in message.embeds)
    assert "(неявка)" in text and "доска 1: <@11> + − *никого (неявка)*" in text
    assert "**Bishops** пропускает тур" in text
    assert post[0].embeds[0].title == "Team Cup · тур 2"
