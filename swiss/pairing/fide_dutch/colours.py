"""The FIDE Dutch colour criteria C8-C11 of many pairs at once, with numpy.

:func:`colour_terms` gives, for arrays of pairs, the terms the colours E.1-E.5 would give
them, as the Python rules of :func:`swiss.pairing.fide_dutch.context.pair_colour_terms` say
for one pair (a test checks that they agree).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from swiss.model import Color
from swiss.pairing.fide_dutch.players import DutchPlayer

_SIGN = {Color.WHITE: 1, Color.BLACK: -1, Color.NONE: 0}  # a colour as +1 / -1 (0: none)


# Pairs per step of colour_terms: its temporaries (some 250 bytes a pair, the colour
# histories included) stay near 65 MB however many pairs the round has.
COLOUR_CHUNK = 1 << 18


@dataclass(slots=True)
class ColourData:
    """What the colour terms read of each player, as arrays (built once per round)."""

    hist: np.ndarray  # (rounds, n): played colours right-aligned, +1 / -1, 0 before
    pref: np.ndarray
    strength: np.ndarray
    cd: np.ndarray
    odd: np.ndarray
    top: np.ndarray
    last2: np.ndarray  # the colour of two in a row at the end (0: none)


def colour_data(ps: Sequence[DutchPlayer]) -> ColourData:
    """:class:`ColourData` of the players ``ps``."""
    n = len(ps)
    rounds = max((len(p.colors) for p in ps), default=0)
    # Played colours right-aligned (E.3 compares the sequences from their ends), 0 before;
    # one row per round (the few rounds are looped over, the many pairs are not).
    hist = np.array([[0] * (max(rounds, 1) - len(p.colors)) + [_SIGN[c] for c in p.colors]
                     for p in ps], dtype=np.int64).reshape(n, max(rounds, 1)).T
    # A third colour in a row: the last two played colours are the same (that colour; 0 not).
    last2 = np.where(hist[-1] == hist[-2], hist[-1], 0) if rounds >= 2 else \
        np.zeros(n, dtype=np.int64)
    return ColourData(
        hist=hist, pref=np.array([_SIGN[p.pref] for p in ps], dtype=np.int64),
        strength=np.array([p.strength for p in ps], dtype=np.int64),
        cd=np.array([p.cd for p in ps], dtype=np.int64),
        odd=np.array([p.colour_rank % 2 == 1 for p in ps], dtype=bool),
        top=np.array([p.topscorer for p in ps], dtype=bool), last2=last2)


def colour_terms(ps: Sequence[DutchPlayer], hi: np.ndarray, lo: np.ndarray,
                 initial: Color, data: ColourData | None = None) -> np.ndarray:
    """(C8, C9, C10, C11) of the pairs ``ps[hi[e]]``-``ps[lo[e]]`` (``hi`` ranking above
    ``lo``) with the colours E.1-E.5 give them, as a (4, edges) int8 array (each term is
    0, 1 or 2).

    The same rules as :func:`swiss.pairing.fide_dutch.context.pair_colour_terms` (which see),
    for all pairs at once, colours as +1 (white) / -1 (black): C8 a topscorer pair leaves a
    colour difference beyond 2, C9 a topscorer pair gives a third colour in a row, C10 a
    colour preference not met, C11 a strong or absolute one not met. Computed
    :data:`COLOUR_CHUNK` pairs at a time (the same values: each pair's terms are its own).
    """
    out = np.empty((4, hi.size), dtype=np.int8)
    if data is None:
        data = colour_data(ps)
    for start in range(0, hi.size, COLOUR_CHUNK):
        end = start + COLOUR_CHUNK
        out[:, start:end] = _colour_terms_of(data, hi[start:end], lo[start:end], initial)
    return out


def _colour_terms_of(data: ColourData, hi: np.ndarray, lo: np.ndarray,
                     initial: Color) -> np.ndarray:
    """:func:`colour_terms` of one chunk of pairs, as a (4, pairs) int64 array."""
    hist, pref, strength, cd = data.hist, data.pref, data.strength, data.cd
    odd, top, last2 = data.odd, data.top, data.last2
    ph, pl = pref[hi], pref[lo]
    sh, sl = strength[hi], strength[lo]
    ah, al = np.abs(cd[hi]), np.abs(cd[lo])
    # E.3: the latest round (aligned at the ends) in which both played with different colours.
    hh, hl = hist[:, hi], hist[:, lo]
    differ = (hh != hl) & (hh != 0) & (hl != 0)
    e3 = np.zeros(hi.size, dtype=np.int64)  # (where they never differed: E.3 is not used)
    for r in range(differ.shape[0]):  # later rounds overwrite earlier ones
        e3 = np.where(differ[r], -hh[r], e3)
    init = _SIGN[initial]
    same = (ph != 0) & (pl != 0) & (ph == pl)
    hi_colour = np.select(
        [(ph != 0) & (pl != 0) & (ph != pl),  # E.1: both preferences granted
         (ph == 0) & (pl != 0),
         (pl == 0) & (ph != 0),
         same & (sh != sl),  # E.2: the stronger preference
         same & (sh == 3) & (ah != al),  # two absolute ones: the wider colour difference
         same & differ.any(axis=0),  # E.3
         same],  # E.4
        [ph, -pl, ph, np.where(sh > sl, ph, -ph), np.where(ah > al, ph, -ph), e3, ph],
        default=np.where(odd[hi], init, -init))  # E.5
    lo_colour = -hi_colour
    miss_h = (ph != 0) & (hi_colour != ph)
    miss_l = (pl != 0) & (lo_colour != pl)
    c10 = miss_h.astype(np.int64) + miss_l
    c11 = (miss_h & (sh >= 2)).astype(np.int64) + (miss_l & (sl >= 2))
    tops = top[hi] | top[lo]
    c8 = tops * ((np.abs(cd[hi] + hi_colour) > 2).astype(np.int64)
                 + (np.abs(cd[lo] + lo_colour) > 2))
    c9 = tops * ((last2[hi] == hi_colour).astype(np.int64) + (last2[lo] == lo_colour))
    return np.array([c8, c9, c10, c11], dtype=np.int64).reshape(4, hi.size)

