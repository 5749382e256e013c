"""The record format, read and written in one place (docs/RECORD.md).

A record is a whole game as one line of URL-fragment-safe text::

    q1.<code>.<options>.<moves>[.<seats>]
    q2.<code>.<options>.<moves>[.i<id>][.b<ply>~<id>][.s<seats>][.c<comments>][.v<side line>]...

`parse_record` splits a text into its parts and checks everything that can
be checked without the game's rules (alphabet, length, sections, the id,
comment texts); `format_record` writes parts back, and the two round-trip:
``format_record(parse_record(text)) == text`` for every canonical record.
Replaying the moves, and checking that comments sit within the game and that
side lines are legal where they branch off, is the registry's job.

    >>> parts = parse_record("q1.mu.p2_k3.ddbc")
    >>> parts.version, parts.code, parts.options, parts.moves
    (1, 'mu', 'p2_k3', 'ddbc')
    >>> notes = Notes(comments=((0, "Hello"),))
    >>> text = format_record(RecordParts(2, "mu", "p2_k3", "", game_id="abcdefgh", notes=notes))
    >>> text
    'q2.mu.p2_k3..iabcdefgh.c0~SGVsbG8'
    >>> parse_record(text).notes.comment(0)
    'Hello'

A q1 record is still written for a game that has no id, comments or side
lines, so the records shared before those existed keep their exact text.
"""

from __future__ import annotations

import base64
import binascii
import os
import random
import re
from dataclasses import dataclass, field, replace

from .errors import InvalidRecord, RulesError

__all__ = [
    "RECORD_VERSION", "MAX_RECORD", "COMMENT_LIMIT", "LINE_LIMIT", "LINE_MOVES_LIMIT",
    "SideLine", "Notes", "NO_NOTES", "RecordParts", "parse_record", "format_record",
    "new_game_id", "check_game_id", "check_comment", "encode_text", "decode_text",
]

RECORD_VERSION = 2  # the newest format this engine reads and writes
MAX_RECORD = 100_000  # characters; far above any real game, low enough to bound replay work
COMMENT_LIMIT = 1_000  # characters in one comment
LINE_LIMIT = 32  # side lines in one record
LINE_MOVES_LIMIT = 200  # moves in one side line
ID_LENGTH = 12  # characters of a new game id: 72 random bits
_ID = re.compile(r"[A-Za-z0-9_-]{8,16}")
_RECORD_CHARS = re.compile(r"[A-Za-z0-9._~-]*")
_B64 = re.compile(r"[A-Za-z0-9_-]+")
_NUMBER = re.compile(r"0|[1-9][0-9]{0,5}")
# Text-direction embeddings, overrides and isolates: they would let a comment
# make the text around it read in another order.
_BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
_TAGS = "ibscv"  # q2's sections after the moves, in their order


# -- the parts ---------------------------------------------------------------------


@dataclass(frozen=True)
class SideLine:
    """Another way the game could have gone: from the main line's position
    after `ply` moves, the moves in `moves` (each (move, seat)) instead of the
    main line's next move. `comments` are (n, text): text after the line's
    n-th move (1-based)."""

    ply: int
    moves: tuple[tuple[str, int], ...]
    comments: tuple[tuple[int, str], ...] = ()
    # the moves in words, per move: filled in once by the state that first
    # shows this line (a line never changes, so neither do its words)
    words: list[tuple[str, str]] = field(default_factory=list, compare=False, repr=False)

    def comment(self, n: int) -> str:
        """The comment after the line's `n`-th move ("" when there is none)."""
        return dict(self.comments).get(n, "")

    def with_comment(self, n: int, text: str) -> SideLine:
        return replace(self, comments=_set(self.comments, n, text), words=self.words)


@dataclass(frozen=True)
class Notes:
    """What a writer added to a game: comments on the main line, each (ply,
    text) with ply 0 before the first move and ply n after move n, and side
    lines, ordered by the ply they branch from."""

    comments: tuple[tuple[int, str], ...] = ()
    lines: tuple[SideLine, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.comments or self.lines)

    def comment(self, ply: int) -> str:
        return dict(self.comments).get(ply, "")

    def with_comment(self, ply: int, text: str) -> Notes:
        return replace(self, comments=_set(self.comments, ply, text))

    def with_line(self, line: SideLine) -> tuple[Notes, int]:
        """These notes with `line` added after the others branching at or
        before its ply, and its index."""
        index = sum(1 for other in self.lines if other.ply <= line.ply)
        return replace(self, lines=self.lines[:index] + (line,) + self.lines[index:]), index

    def upto(self, plies: int) -> Notes:
        """The notes that still apply to the game cut after `plies` moves:
        comments up to that position, side lines branching before it."""
        comments = tuple(c for c in self.comments if c[0] <= plies)
        lines = tuple(line for line in self.lines if line.ply < plies)
        if len(comments) == len(self.comments) and len(lines) == len(self.lines):
            return self
        return Notes(comments, lines)


NO_NOTES = Notes()


def _set(comments: tuple[tuple[int, str], ...], at: int, text: str) -> tuple[tuple[int, str], ...]:
    """`comments` with the one at `at` set to `text` (removed when empty), in order."""
    kept = [c for c in comments if c[0] != at]
    if text:
        kept.append((at, text))
    return tuple(sorted(kept))


@dataclass(frozen=True)
class RecordParts:
    """A record taken apart: the texts of its sections, and its notes decoded
    (their moves and plies are not yet checked against the game)."""

    version: int
    code: str
    options: str
    moves: str
    game_id: str | None = None
    seats: str | None = None
    notes: Notes = NO_NOTES
    # where this game was opened apart from another: (that game's id, the ply it parts at)
    branch: tuple[str, int] | None = None


# -- reading and writing ---------------------------------------------------------


def parse_record(text: object) -> RecordParts:
    """The parts of record `text`; InvalidRecord, in words, when it is not a
    record or a section is damaged."""
    if not isinstance(text, str):
        raise InvalidRecord(f"a record is text, not {type(text).__name__}")
    if len(text) > MAX_RECORD:
        raise InvalidRecord(f"that record is too long: {len(text):,} characters, and a record may have at most {MAX_RECORD:,}")
    if not _RECORD_CHARS.fullmatch(text):
        raise InvalidRecord("that record holds characters a game record never has (only letters, digits and - . _ ~ appear)")
    parts = text.split(".")
    head = parts[0]
    if not re.fullmatch(r"q[1-9][0-9]{0,5}", head):
        raise InvalidRecord("that is not a Quet Games record: it should start with 'q' and a version number")
    version = int(head[1:])
    if version > RECORD_VERSION:
        raise InvalidRecord(f"that record was made by a newer version of Quet Games (format {version}; this one reads formats 1 to {RECORD_VERSION})")
    if len(parts) < 4:
        raise InvalidRecord("that record is incomplete: it should have a game, its options and its moves")
    code, options, moves, rest = parts[1], parts[2], parts[3], parts[4:]
    if version == 1:
        if len(rest) > 1:
            raise InvalidRecord("that record has more parts than a game, its options, its moves and its players")
        return RecordParts(1, code, options, moves, seats=rest[0] if rest else None)
    return _parse_sections(code, options, moves, rest)


def _parse_sections(code: str, options: str, moves: str, sections: list[str]) -> RecordParts:
    game_id: str | None = None
    branch: tuple[str, int] | None = None
    seats: str | None = None
    comments: tuple[tuple[int, str], ...] = ()
    lines: list[SideLine] = []
    last = -1  # the index in _TAGS of the section before, to keep them in order
    for section in sections:
        tag, body = section[:1], section[1:]
        order = _TAGS.find(tag) if tag else -1
        if order < 0:
            raise InvalidRecord(f"the record has a part it does not understand ({section[:20]!r})")
        if order < last or order == last and tag != "v":
            what = {"i": "game id", "b": "branch", "s": "list of players", "c": "list of comments", "v": "side line"}[tag]
            raise InvalidRecord(f"the record's {what} is out of place or given twice")
        last = order
        if tag == "i":
            game_id = check_game_id(body, InvalidRecord)
        elif tag == "b":
            ply_text, tilde, branched_id = body.partition("~")
            if not tilde:
                raise InvalidRecord("the record's branch is damaged: it needs a move number and a game id")
            branch = (check_game_id(branched_id, InvalidRecord), _number(ply_text, "the record's branch"))
        elif tag == "s":
            seats = body
        elif tag == "c":
            comments = _parse_comments(body, "the record's comments")
        else:
            lines.append(_parse_line(body, len(lines) + 1))
    if len(lines) > LINE_LIMIT:
        raise InvalidRecord(f"the record has {len(lines)} side lines; a game may have at most {LINE_LIMIT}")
    if any(a.ply > b.ply for a, b in zip(lines, lines[1:])):
        raise InvalidRecord("the record's side lines are not in the order of the moves they branch from")
    if branch is not None and game_id is None:
        raise InvalidRecord("the record's branch names the game it came from, but the record has no game id of its own")
    return RecordParts(2, code, options, moves, game_id, seats, Notes(comments, tuple(lines)), branch)


def _parse_comments(body: str, where: str, first: int = 0) -> tuple[tuple[int, str], ...]:
    """`<at>~<text>` pairs joined by `~`, `at` rising from `first`."""
    fields = body.split("~")
    if not body or len(fields) % 2:
        raise InvalidRecord(f"{where} are damaged: each comment needs a place and a text")
    comments: list[tuple[int, str]] = []
    for at_text, coded in zip(fields[::2], fields[1::2]):
        at = _number(at_text, where)
        if at < first or comments and at <= comments[-1][0]:
            raise InvalidRecord(f"{where} are not in the order of the moves, or one place has two")
        comments.append((at, check_comment(decode_text(coded, where), InvalidRecord)))
    return tuple(comments)


def _parse_line(body: str, number: int) -> SideLine:
    """`<ply>~<moves>[~<n>~<text>...]`."""
    where = f"side line {number} of the record"
    ply_text, _, rest = body.partition("~")
    coded, _, comments_text = rest.partition("~")
    ply = _number(ply_text, where)
    moves: list[tuple[str, int]] = []
    for item in decode_text(coded, where).split(" "):
        seat_text, colon, move = item.partition(":")
        if not colon or not move or not _NUMBER.fullmatch(seat_text) or len(move) > 200:
            raise InvalidRecord(f"{where} has a damaged move")
        moves.append((move, int(seat_text)))
    if len(moves) > LINE_MOVES_LIMIT:
        raise InvalidRecord(f"{where} has {len(moves)} moves; a side line may have at most {LINE_MOVES_LIMIT}")
    comments = _parse_comments(comments_text, f"the comments of {where}", first=1) if comments_text else ()
    if comments and comments[-1][0] > len(moves):
        raise InvalidRecord(f"{where} has a comment after move {comments[-1][0]}, but only {len(moves)} moves")
    return SideLine(ply, tuple(moves), comments)


def format_record(parts: RecordParts) -> str:
    """The text of a record; q1 when nothing in it needs q2."""
    head = [parts.code, parts.options, parts.moves]
    if parts.game_id is None and not parts.notes and parts.branch is None:
        return ".".join(["q1", *head, *([parts.seats] if parts.seats is not None else [])])
    sections = ["q2", *head]
    if parts.game_id is not None:
        sections.append("i" + parts.game_id)
    if parts.branch is not None:
        sections.append(f"b{parts.branch[1]}~{parts.branch[0]}")
    if parts.seats is not None:
        sections.append("s" + parts.seats)
    if parts.notes.comments:
        sections.append("c" + _format_comments(parts.notes.comments))
    for line in parts.notes.lines:
        moves = encode_text(" ".join(f"{seat}:{move}" for move, seat in line.moves))
        sections.append(f"v{line.ply}~{moves}" + ("~" + _format_comments(line.comments) if line.comments else ""))
    return ".".join(sections)


def _format_comments(comments: tuple[tuple[int, str], ...]) -> str:
    return "~".join(f"{at}~{encode_text(text)}" for at, text in comments)


def _number(text: str, where: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise InvalidRecord(f"{where} has a damaged move number")
    return int(text)


# -- texts and ids ----------------------------------------------------------------------


def encode_text(text: str) -> str:
    """Text as unpadded base64url of its UTF-8."""
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def decode_text(coded: str, where: str) -> str:
    """The text `encode_text` wrote; InvalidRecord naming `where` when damaged."""
    if not _B64.fullmatch(coded) or len(coded) % 4 == 1:
        raise InvalidRecord(f"{where} are damaged" if where.endswith("comments") else f"{where} is damaged")
    try:
        return base64.urlsafe_b64decode(coded + "=" * (-len(coded) % 4)).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise InvalidRecord(f"{where} holds text that is not readable") from None


def check_comment(text: object, error: type[RulesError]) -> str:
    """`text` if it may be a comment: 1 to COMMENT_LIMIT characters of plain
    text, line breaks allowed; else `error`, in words."""
    if not isinstance(text, str):
        raise error("a comment is text")
    if not text:
        raise error("a comment needs at least one character")
    if len(text) > COMMENT_LIMIT:
        raise error(f"a comment may have at most {COMMENT_LIMIT:,} characters; this one has {len(text):,}")
    for ch in text:
        code = ord(ch)
        if 0xD800 <= code <= 0xDFFF:
            raise error("a comment holds a broken character (half of a surrogate pair)")
        if ch in _BIDI_CONTROLS:
            raise error("a comment may not hold characters that change the direction of the text around it")
        if (code < 0x20 or 0x7F <= code < 0xA0 or code in (0x2028, 0x2029)) and ch != "\n":
            raise error("a comment may not hold control characters; line breaks are the only ones allowed")
    return text


def check_game_id(text: object, error: type[RulesError]) -> str:
    """`text` if it may be a game id: 8 to 16 of A-Z a-z 0-9 - _."""
    if not isinstance(text, str) or not _ID.fullmatch(text):
        shown = repr(text)[:30] if isinstance(text, str) else type(text).__name__
        raise error(f"a game id is 8 to 16 letters, digits, '-' or '_', not {shown}")
    return text


def new_game_id(rng: random.Random | None = None) -> str:
    """A fresh game id of 72 bits: from `rng` when given (tests), else from
    the operating system's random source (the browser's crypto in Pyodide)."""
    raw = rng.getrandbits(8 * ID_LENGTH * 3 // 4).to_bytes(ID_LENGTH * 3 // 4, "big") if rng else os.urandom(ID_LENGTH * 3 // 4)
    return base64.urlsafe_b64encode(raw).decode("ascii")

