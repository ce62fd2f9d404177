"""Team events in the pure core: the FIDE Swiss Team Pairing System and the e-sports Swiss stage.

A team is one pairing unit. :mod:`swiss.teams.model` holds what the pairing needs to know of
each team (its pairing number, its past matches); :mod:`swiss.teams.fide_team` pairs a round by
FIDE C.04.6 and :mod:`swiss.teams.colours` gives each match its colours (board 1, then the
boards alternate); :mod:`swiss.teams.trf` reads team events from TRF files (``001`` player
records grouped into teams by ``013``/``310`` records); :mod:`swiss.teams.esports` runs the
Counter-Strike Major's Swiss stage.
"""
