"""Septet: rules engines, bots, play and research tools for three tabletop games of sevens.

The games are Double Seven, Flip 7: With a Vengeance (with classic Flip 7 as an edition) and
Seven Shot. Every consumer (bots, terminal, server, environments) talks to the engines through the
contract in :mod:`septet.core`; games are found by name with :func:`septet.games.get`.
"""

__version__ = "0.1.0"
