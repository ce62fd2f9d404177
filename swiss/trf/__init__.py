"""FIDE TRF-16 files as bbpPairings and JaVaFo read them, and the pairs output format.

:func:`decode_trf` turns a file's bytes into text (invalid UTF-8 reported by line and
column), :func:`parse_trf` turns the text of a TRF file into a :class:`TrfTournament` (the model's
:class:`~swiss.model.Tournament` plus the TRF-only player fields); :func:`write_trf` writes a
tournament back in exactly the column layout bbpPairings reads; :func:`format_pairs` prints a
:class:`~swiss.pairing.types.PairingResult` the way ``bbpPairings -p`` and JaVaFo do.

Columns below are 1-based, as in the FIDE description.

Modules: ``format`` (the layout, result codes, :class:`TrfError`), ``scan`` (lines and fields
with their positions, decoding), ``reader`` (the tournament built from the scanned lines, and
the checks between lines), ``document`` (:class:`TrfTournament`), ``writer``, ``pairs``. Every
number in a field is read by :mod:`swiss.numbers` (ASCII digits, bounded, exact), and every
:class:`TrfError` names the line and the column of the offending character.

Reading follows bbpPairings:

* Lines are recognised by their first three characters; LF, CRLF and bare CR all end a line.
  Unknown codes (``022``, ``092``, ``132``, comments ...) are kept verbatim in
  :attr:`TrfTournament.other_lines` and written back; ``013``, ``310`` and ``299`` are rejected.
* ``001`` player lines: pairing id at 5-8, name 15-47, rating 49-52, points 81-84 (required and
  checked against the results), rank 86-89 (kept, not used), then one 10-column entry per round
  from column 92: opponent (``0000`` or blank: none), colour (``w``/``b``/``-``), result.
* The number of rounds played is bbp's: the last column anyone was paired in (a game or a
  pairing-allocated bye); entries in the column after it are byes or absences *requested* for
  the round being paired and become ``Tournament.requested_byes[next_round]``, as do ``240``
  lines (for any round).
* ``XXR``/``142`` total rounds, ``XXC white1|black1|rank`` and ``152 W|B``, ``BBW BBD BBL BBZ
  BBF BBU`` and ``162`` point systems, ``XXP`` forbidden groups, ``260`` forbidden groups when
  their range covers the round being paired, ``012`` tournament name.
* Accelerated pairings become ``Tournament.acceleration`` (round -> player -> extra points):
  ``XXA pppp  a.a  a.a ...`` (one line per player, one 4-column field per round from column
  10, 5 apart) and the TRF-2026 ``250 MMMM GGGG RRF RRL PPPF PPPL`` record (game points for a
  range of rounds and players; match points blank). As bbpPairings reads them, a 250 record
  wins over XXA for its players and rounds and a later 250 record over an earlier one. The
  250 lines are kept and written back unchanged; the writer emits XXA for the rest (or, when
  the model contradicts the 250 lines, XXA alone).
* TRF-2026 ``192`` (encoded tournament type, one per file): a code ending in ``_BAKU`` sets
  ``Tournament.baku`` (Baku acceleration, :mod:`swiss.acceleration`) unless XXA or 250 lines
  give the points (they make bbpPairings disregard the code); the point system must then be
  one the method applies to. The line is kept and written back unchanged while it says what
  the model does.

TRF cannot say everything the model can, so the writer adds a few lines of its own, all with a
code bbpPairings and JaVaFo ignore (prefix ``SB``):

* ``SBN`` -- the event uses no colours (games are then written with colour ``-``);
* ``SBW <id> <round>`` -- the player withdrew and takes no part from that round on;
* ``SBS win=3 draw=1 ...`` -- the full point system, only when ``BB*`` lines cannot express it;
* ``SBE <seed>`` -- the event seed (random systems, round-1 coin, tie-break term).

What TRF cannot keep, the parser rebuilds in one canonical form: games of a round in the
engine's board order (higher score of the pair first, then the higher lower score, then the
better seed of the higher player) numbered from board 1; in colourless events the better seed is
the first side; byes with the pairing-allocated bye first, then by player id; ``XXC rank`` seeds
become ``Player.order`` (0 where it equals the id). Pending games and requested
pairing-allocated byes cannot be written (:class:`ValueError`).
"""

from __future__ import annotations

from swiss.trf.document import TrfTournament
from swiss.trf.format import TrfError, TrfPlayerInfo
from swiss.trf.pairs import format_pairs, read_pairs
from swiss.trf.reader import parse_trf
from swiss.trf.scan import decode_trf
from swiss.trf.writer import write_trf

__all__ = [
    "TrfError",
    "TrfPlayerInfo",
    "TrfTournament",
    "decode_trf",
    "format_pairs",
    "parse_trf",
    "read_pairs",
    "write_trf",
]
