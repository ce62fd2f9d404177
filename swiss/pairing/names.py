"""The one vocabulary of pairing systems, shared by the bot, the command line and the demo.

A system is named by one of :data:`~swiss.pairing.types.SYSTEMS` (``dutch``, ``burstein``,
``fide-dutch``, ...). The official FIDE Dutch comes in editions of its rules (C.04.3: 2025, the
default, and 2017); the edition is a separate setting (``rules``), never part of the name.
Only ``fide-dutch`` has editions: an edition given for another system is a mistake, refused
rather than silently ignored.

The combined spellings of earlier versions (``fide-dutch-2025``, ``fide-dutch-2017``) are
still read, so scripts written for them keep working; they are not offered anywhere.
"""

from __future__ import annotations

from swiss.pairing.types import DUTCH_RULES, SYSTEMS

#: The systems that have editions, and their editions (the first is the default).
EDITIONS: dict[str, tuple[str, ...]] = {"fide-dutch": DUTCH_RULES}
#: What the editions are editions of, in messages.
RULES_TITLES: dict[str, str] = {"fide-dutch": "FIDE Dutch"}
DEFAULT_EDITION = DUTCH_RULES[0]
#: Earlier spellings, read but never offered: name -> (system, edition).
LEGACY_NAMES: dict[str, tuple[str, str]] = {
    f"fide-dutch-{edition}": ("fide-dutch", edition) for edition in DUTCH_RULES
}


class SystemNameError(ValueError):
    """A system name or edition that is not one of ours; the message says what is."""

    def sentence(self) -> str:
        """The message as a sentence of its own (a reply in Discord)."""
        text = str(self)
        return f"{text[:1].upper()}{text[1:]}."


def system_and_edition(
    name: str, edition: str | None = None, *, systems: tuple[str, ...] = SYSTEMS
) -> tuple[str, str]:
    """The system ``name`` names and the edition it pairs by (``edition``, or the default).

    ``systems`` are the names accepted (a command may accept more, or fewer). Raises
    :class:`SystemNameError` for an unknown name, an unknown edition, or an edition given
    for a system without editions.
    """
    key = str(name).strip().lower()
    wanted = None if edition is None else str(edition).strip()
    if key in LEGACY_NAMES and LEGACY_NAMES[key][0] in systems:
        key, implied = LEGACY_NAMES[key]
        if wanted is not None and wanted != implied:
            raise SystemNameError(f"{name.strip()} is the {implied} edition; the rules "
                                  f"asked for are {wanted}")
        wanted = implied
    if key not in systems:
        raise SystemNameError(f"unknown pairing system {_shown(name)}: choose one of "
                              f"{', '.join(systems)}")
    editions = EDITIONS.get(key)
    if editions is None:
        if wanted is not None:
            raise SystemNameError(f"the rules edition ({_shown(wanted)}) applies to "
                                  f"{', '.join(EDITIONS)} only; {key} has no editions")
        return key, DEFAULT_EDITION
    if wanted is None:
        return key, editions[0]
    if wanted not in editions:
        raise SystemNameError(f"unknown {RULES_TITLES[key]} rules edition {_shown(wanted)}; use "
                              f"{' or '.join(editions)}")
    return key, wanted


def _shown(text: str) -> str:
    """User text echoed in a message: quoted and cut short."""
    text = str(text)
    return repr(text if len(text) <= 40 else text[:40] + "…")
