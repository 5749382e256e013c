"""Game options: their names, kinds, ranges and defaults, validation of values
a caller passes in, and their compact spelling inside a record.

Every value is untrusted: a bool is not an int here, a float is not an int,
and a number is checked against its range before anything uses it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .errors import InvalidOptions, InvalidRecord
from .data import JSON, JSONObject

__all__ = ["Option", "IntOption", "ChoiceOption", "BoolOption", "PairOption"]

_DIGITS = re.compile(r"0|[1-9][0-9]{0,8}")


def _decode_int(text: str, name: str) -> int:
    if not _DIGITS.fullmatch(text):
        raise InvalidRecord(f"the value {text[:20]!r} for {name} is not a plain whole number")
    return int(text)


@dataclass(frozen=True)
class Option:
    """One option of a game. `key` is its one-letter name inside a record."""

    name: str
    key: str
    default: Any
    help: str
    unset: str = ""  # for a default of None: what happens when the option is left unset, in words
    short: str = ""  # a few words naming it beside a value ("grid side 8"), where the help is too long

    def validate(self, value: object) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def encode(self, value: Any) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def decode(self, text: str) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def describe(self) -> JSONObject:
        """A JSON-ready description for setup screens."""
        described = {"name": self.name, "kind": self.kind, "default": self.default, "help": self.help}
        if self.unset:
            described["unset"] = self.unset
        if self.short:
            described["short"] = self.short
        return described

    kind = "?"


def _check_int(name: str, value: object, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOptions(f"{name} must be a whole number from {lo} to {hi}, not {type(value).__name__} {value!r:.40}")
    if not lo <= value <= hi:
        raise InvalidOptions(f"{name} must be from {lo} to {hi}; {value:.0f} is out of range" if abs(value) < 10**30 else f"{name} must be from {lo} to {hi}; the value given is far out of range")
    return value


@dataclass(frozen=True)
class IntOption(Option):
    lo: int = 0
    hi: int = 0
    kind = "int"

    def validate(self, value: object) -> int:
        return _check_int(self.name, value, self.lo, self.hi)

    def encode(self, value: int) -> str:
        return str(value)

    def decode(self, text: str) -> int:
        value = _decode_int(text, self.name)
        try:
            return self.validate(value)
        except InvalidOptions as exc:
            raise InvalidRecord(str(exc)) from None

    def describe(self) -> JSONObject:
        return {**super().describe(), "min": self.lo, "max": self.hi}


@dataclass(frozen=True)
class ChoiceOption(Option):
    choices: tuple[str, ...] = ()
    kind = "choice"

    def validate(self, value: object) -> str:
        if not isinstance(value, str) or value not in self.choices:
            allowed = " or ".join(repr(c) for c in self.choices)
            raise InvalidOptions(f"{self.name} must be {allowed}, not {value!r:.40}")
        return value

    def encode(self, value: str) -> str:
        return value[0]

    def decode(self, text: str) -> str:
        for choice in self.choices:
            if choice[0] == text:
                return choice
        raise InvalidRecord(f"{text[:20]!r} is not a known value for {self.name}")

    def describe(self) -> JSONObject:
        return {**super().describe(), "choices": list(self.choices)}


@dataclass(frozen=True)
class BoolOption(Option):
    kind = "bool"

    def validate(self, value: object) -> bool:
        if not isinstance(value, bool):
            raise InvalidOptions(f"{self.name} must be true or false, not {value!r:.40}")
        return value

    def encode(self, value: bool) -> str:
        return "1" if value else "0"

    def decode(self, text: str) -> bool:
        if text not in ("0", "1"):
            raise InvalidRecord(f"{text[:20]!r} is not a known value for {self.name}")
        return text == "1"


@dataclass(frozen=True)
class PairOption(Option):
    """A pair of whole numbers, each from lo to hi (the upper bound may be lowered
    later by another option, which the game checks: `at_most` names it, so a
    setup screen says the one range the game enforces)."""

    lo: int = 0
    hi: int = 0
    at_most: str | None = None
    kind = "pair"

    def validate(self, value: object) -> tuple[int, int]:
        if not isinstance(value, (tuple, list)) or len(value) != 2:
            raise InvalidOptions(f"{self.name} must be a pair of whole numbers, like (6, 4)")
        return tuple(_check_int(f"each of {self.name}", v, self.lo, self.hi) for v in value)  # type: ignore[return-value]

    def encode(self, value: tuple[int, int]) -> str:
        return f"{value[0]}x{value[1]}"

    def decode(self, text: str) -> tuple[int, int]:
        parts = text.split("x")
        if len(parts) != 2:
            raise InvalidRecord(f"{text[:20]!r} is not a pair of numbers for {self.name}")
        try:
            return self.validate(tuple(_decode_int(p, self.name) for p in parts))
        except InvalidOptions as exc:
            raise InvalidRecord(str(exc)) from None

    def describe(self) -> JSONObject:
        described: JSONObject = {**super().describe(), "min": self.lo, "max": self.hi}
        if self.at_most:
            described["at_most"] = self.at_most
        return described
