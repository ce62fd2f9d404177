"""Taking one member out of stored JSON and text: his Discord id, his mentions and his names
become a pseudonym ("Withdrawn player 3").

The outbox payloads, the audit entries, pairing drafts and round explanations were written
with the member's name and id inside; a forgotten member must not stay there, nor be posted
again from an announcement still waiting in the outbox. The walk is generic on purpose: a
payload field added later is covered without a change here.

Names are replaced as whole words only ("Ann" leaves "Annabel" alone), longest first (so
"Ann Lee" is replaced before "Ann"). A name that is also an ordinary word of our own messages
would be replaced there too; the price of not leaving it anywhere.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: What stands for the pseudonym in texts rewritten before it is known (its number is taken
#: in the write transaction): replaced there, a plain string replacement.
PLACEHOLDER = "@@swissbot-forgotten-member@@"


@dataclass(frozen=True)
class Redaction:
    """Who is taken out (``user_id``, ``names``) and what stands for him (``pseudonym``)."""

    user_id: int
    names: frozenset[str]
    pseudonym: str
    _pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        uid = str(self.user_id)
        parts = [rf"<@!?{uid}>", rf"(?<!\d){uid}(?!\d)"]
        for name in sorted((n for n in self.names if n.strip()), key=len, reverse=True):
            parts.append(rf"(?<!\w){re.escape(name)}(?!\w)")
        object.__setattr__(self, "_pattern", re.compile("|".join(parts)))

    def needles(self) -> list[str]:
        """The texts whose presence makes a stored value worth redacting (for a LIKE filter
        in SQL before the exact work here)."""
        return [str(self.user_id), *sorted(n for n in self.names if n.strip())]

    def text(self, value: str) -> str:
        return self._pattern.sub(self.pseudonym, value)

    def value(self, value: Any) -> Any:
        """``value`` (parsed JSON) with the member taken out: his id as a number becomes
        ``None`` (a renderer then shows the name, never a mention) or leaves a list of ids,
        text is rewritten."""
        if isinstance(value, bool) or value is None or isinstance(value, float):
            return value
        if isinstance(value, int):
            return None if value == self.user_id else value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return self._mapping(value)
        if isinstance(value, list | tuple):
            # a list of ids (who a post mentions) loses his: a None there would be pinged
            return [self.value(v) for v in value if not self._is_member(v)]
        return value

    def _is_member(self, value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value == self.user_id

    def _mapping(self, value: dict[Any, Any]) -> dict[Any, Any]:
        """A seat (a mapping with a ``user_id``) is someone's: the member's own name is
        replaced whole, another member's is left alone even when it contains the member's
        ("Ann Lee" beside "Ann")."""
        owner = value.get("user_id")
        seat = isinstance(owner, int) and not isinstance(owner, bool)
        redacted = {self.text(str(k)): self.value(v) for k, v in value.items()}
        if seat and "name" in value:
            redacted["name"] = (self.pseudonym if owner == self.user_id else value["name"])
        return redacted

    def json_text(self, stored: str | None) -> str | None:
        """A stored JSON text redacted (``None`` stays ``None``; text that is not JSON is
        redacted as text)."""
        if stored is None:
            return None
        try:
            parsed = json.loads(stored)
        except ValueError:
            return self.text(stored)
        return json.dumps(self.value(parsed), sort_keys=True, default=str)


#: A stored text: (table, column, the row's key, the text).
StoredText = tuple[str, str, Any, str | None]


@dataclass(frozen=True)
class Rewrites:
    """Texts redacted ahead of the write transaction (with :data:`PLACEHOLDER` for the
    pseudonym): a big server's announcements are megabytes of JSON to walk, work for a
    thread outside the transaction, not for the event loop inside it. A text that changed
    since (or a row that is new) is redacted in the transaction itself."""

    names: frozenset[str] = frozenset()
    done: dict[tuple[str, str, Any], tuple[str | None, str | None]] = field(
        default_factory=dict)

    def text(self, redaction: Redaction, table: str, column: str, key: Any,
             stored: str | None) -> str | None:
        ahead = self.done.get((table, column, key)) if self.names == redaction.names else None
        if ahead is None or ahead[0] != stored:
            return redaction.json_text(stored)
        return None if ahead[1] is None else ahead[1].replace(PLACEHOLDER, redaction.pseudonym)


def rewrite(user_id: int, names: frozenset[str], texts: Sequence[StoredText]) -> Rewrites:
    """``texts`` redacted for the member, the pseudonym left as :data:`PLACEHOLDER`."""
    redaction = Redaction(user_id, names, PLACEHOLDER)
    return Rewrites(names, {(table, column, key): (text, redaction.json_text(text))
                            for table, column, key, text in texts})
