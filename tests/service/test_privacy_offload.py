"""A forget in a server with big announcements redacts them in a worker process, with the
same result as in the bot's own process."""

from __future__ import annotations

import json

from service.privacy import OFFLOAD_FROM, rewritten
from storage.redaction import Redaction

MEMBER = 734512987654321098


async def test_big_texts_are_redacted_in_a_worker_with_the_same_result() -> None:
    seats = [{"name": f"Player {i}", "user_id": 10**17 + i} for i in range(5000)]
    seats[1234] = {"name": "Zed Quill", "user_id": MEMBER}
    text = json.dumps({"games": seats, "by": "Zed Quill", "mention_user_ids": [MEMBER, 7]})
    assert len(text) >= OFFLOAD_FROM
    names = frozenset({"Zed Quill"})
    texts = [("outbox", "payload", 1, text), ("audit_log", "after", 2, None)]
    ahead = await rewritten(MEMBER, names, texts)
    redaction = Redaction(MEMBER, names, "Withdrawn player 3")
    assert ahead.text(redaction, "outbox", "payload", 1, text) == redaction.json_text(text)
    assert ahead.text(redaction, "audit_log", "after", 2, None) is None
    # a text that changed since is redacted again, not replaced by the old one's redaction
    changed = text.replace("Player 5", "Player 5b")
    assert ahead.text(redaction, "outbox", "payload", 1, changed) == \
        redaction.json_text(changed)
    assert "Zed Quill" not in (ahead.text(redaction, "outbox", "payload", 1, text) or "")
