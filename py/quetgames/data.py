"""Names for the engine's loosely typed data, each said once.

- `JSON`: a value that came from JSON text or goes to it (a page's call, a
  view, a report row). Its shape is the protocol's, checked where it is read.
- `JSONObject`: a JSON object.
- `Options`: a game's option values by name. Each value has its option's own
  type (a whole number, a word, a flag, a pair), which only the game knows by
  name; `options.py` checks every value before a game sees it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["JSON", "JSONObject", "Options", "OptionsGiven"]

JSON = Any
JSONObject = dict[str, JSON]
Options = dict[str, JSON]
OptionsGiven = Mapping[str, JSON]  # options as a caller passes them (checked before use)
