"""One module per game, each in the same order: docstring, constants, the
game (options, factory), the state, the rules as functions (which the state
and the computer players share), `GAME`. The list of games is registry.py."""
