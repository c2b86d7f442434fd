"""Greedy bots: one module per game (``septet.bots.greedy.<game>``) with ``GreedyAgent``."""
