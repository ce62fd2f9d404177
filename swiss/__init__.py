"""The pure core: model, state, pairing engines, standings, TRF and the simulator.

May import only the standard library and numerics (numpy, and networkx for the reference
matching, :mod:`swiss.pairing.matching`): no I/O, no discord, no database; every result is
deterministic given its inputs and a seed.
"""
