"""The pure core: model, state, pairing engines, standings, TRF and the simulator.

May import only the standard library and numerics (networkx, rustworkx, numpy): no I/O, no
discord, no database; every result is deterministic given its inputs and a seed. numpy is
the optional ``sim`` extra: only :mod:`swiss.sim` uses it, and pairing never loads it.
"""
