"""Pictures of a game (web/share/picture.js): the position shown saved as SVG and
PNG, the moves up to it as an animated GIF, and the PNG on the clipboard, from
the game page's share panel and from the embed.

- Every game: some moves with a comment (markup in it) at the next-to-last
  move; step back one move; Save SVG, Save PNG, Animated GIF. The SVG is XML
  with an <svg> root, the board's own drawing (the same texts and shapes as
  the board on the page), the game's name, the credit to Leroy Quet and the
  comment as typed; the PNG's header has the size the page says it made (the
  SVG's size at the module's scale); the GIF has one frame per position from
  the start to the one shown, loops, and holds each frame for the module's
  delay (the last one longer).
- Copy picture puts a PNG on the clipboard, and says in words when the
  browser will not.
- Light and dark: the picture's background follows the page's colours.
- The embed (replay, dark, phone width): Picture in its head does the same,
  and no request leaves the site.
- Every frame of a GIF, decoded here, is its position pictured alone (in the
  room the animation lays every frame out in): no ghost of an earlier frame,
  no empty band, the board in one place; for Prime Target (10 rays) and
  Nonconformity, and a GIF taken in a side line, which runs along the main
  line to the branch and then along the line. Prime Target's pictures (each
  GIF frame, and the SVG of a live position whose page previews the next ring)
  write only the numbers the engine says were played.

The files are parsed here with the standard library only (xml.etree, struct,
zlib, and a GIF decoder of a few dozen lines below): no image library.
"""

from __future__ import annotations

import base64
import os
import random
import re
import struct
import xml.etree.ElementTree as ET
import zlib
from array import array
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import quetgames
from playwright.sync_api import Browser, Locator, Page

from .axe import STRAY, assert_clean, stray_words
from .harness import (ARTIFACTS, DESKTOP, LOAD_TIMEOUT_MS, PHONE, READY, Watched, forget_games, open_record,
                      random_game, watched_page)

TYPED = "Here <b>Ann</b> & <script>alert(1)</script> lets the win go"
SVG = "{http://www.w3.org/2000/svg}"
SHAPES = ("path", "rect", "circle", "ellipse", "line", "polyline", "polygon")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def w(browser: Browser, server: str) -> Iterator[Watched]:
    watched = watched_page(browser, server, accept_downloads=True)
    watched.goto_ready(server)
    yield watched
    watched.context.close()


@pytest.fixture(scope="module")
def module(w: Watched) -> dict:
    """What picture.js says it draws: WIDTH, PNG_SCALE, GIF_DELAY, GIF_LAST_DELAY."""
    return w.page.evaluate("""() => import("./share/picture.js").then((m) => ({
        width: m.WIDTH, scale: m.PNG_SCALE, delay: m.GIF_DELAY, last: m.GIF_LAST_DELAY }))""")


# -- reading the files ---------------------------------------------------------------


def png_header(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (the first, right after the signature)."""
    assert data[:8] == PNG_SIGNATURE, data[:8]
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    return struct.unpack(">II", data[16:24])


def png_first_pixel(data: bytes) -> tuple[int, ...]:
    """The upper-left pixel's RGB(A). Of a picture's first row the first pixel
    is stored as it is whatever the row's filter (nothing lies left or above it)."""
    png_header(data)
    at, idat = 8, b""
    colour_type = data[25]
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            idat += data[at + 8:at + 8 + length]
        at += 12 + length
    raw = zlib.decompressobj().decompress(idat, 16)
    channels = {2: 3, 6: 4}[colour_type]
    return tuple(raw[1:1 + channels])


@dataclass
class Gif:
    width: int
    height: int
    frames: list[tuple[int, int, int, int]] = field(default_factory=list)  # left, top, width, height
    delays: list[int] = field(default_factory=list)  # centiseconds, from each graphic control extension
    loops: int | None = None  # the NETSCAPE2.0 loop count (0: for ever), None without one


def read_gif(data: bytes) -> Gif:
    """The blocks of a GIF: its size, every image descriptor (0x2C), the delays
    of its graphic control extensions and its NETSCAPE loop count."""
    assert data[:6] == b"GIF89a", data[:6]
    width, height, packed = struct.unpack("<HHB", data[6:11])
    gif = Gif(width, height)
    at = 13 + (3 * 2 ** ((packed & 7) + 1) if packed & 0x80 else 0)

    def sub_blocks(at: int) -> tuple[bytes, int]:
        out = b""
        while data[at]:
            out += data[at + 1:at + 1 + data[at]]
            at += 1 + data[at]
        return out, at + 1

    while True:
        kind = data[at]
        if kind == 0x3B:  # trailer
            assert at == len(data) - 1, "bytes after the GIF's trailer"
            return gif
        if kind == 0x21:  # an extension
            label = data[at + 1]
            body, after = sub_blocks(at + 2)
            if label == 0xF9:
                gif.delays.append(struct.unpack("<H", body[1:3])[0])
            elif label == 0xFF and body.startswith(b"NETSCAPE2.0"):
                gif.loops = struct.unpack("<H", body[12:14])[0]
            at = after
        elif kind == 0x2C:  # an image
            left, top, w, h, flags = struct.unpack("<HHHHB", data[at + 1:at + 10])
            gif.frames.append((left, top, w, h))
            at += 10 + (3 * 2 ** ((flags & 7) + 1) if flags & 0x80 else 0)
            _, at = sub_blocks(at + 1)  # (after the LZW minimum code size)
        else:
            raise AssertionError(f"unknown GIF block 0x{kind:02x} at byte {at}")


def lzw_decode(data: bytes, min_size: int, count: int) -> bytes:
    """GIF's variable-length LZW (spec appendix F): `count` colour indices."""
    clear, end = 1 << min_size, (1 << min_size) + 1
    first = [bytes([i]) for i in range(clear)] + [b"", b""]
    table, size, out, prev = list(first), min_size + 1, bytearray(), b""
    acc = bits = at = 0
    while len(out) < count:
        while bits < size:
            assert at < len(data), "the image's codes end early"
            acc |= data[at] << bits
            bits, at = bits + 8, at + 1
        code, acc, bits = acc & ((1 << size) - 1), acc >> size, bits - size
        if code == clear:
            table, size, prev = list(first), min_size + 1, b""
            continue
        if code == end:
            break
        if code < len(table):
            entry = table[code]
            if prev and len(table) < 4096:
                table.append(prev + entry[:1])
        else:
            assert code == len(table) and prev, f"LZW code {code} with a table of {len(table)}"
            entry = prev + prev[:1]
            table.append(entry)
        out += entry
        prev = entry
        if len(table) == 1 << size and size < 12:
            size += 1
    assert len(out) == count, (len(out), count)
    return bytes(out)


def gif_frames(data: bytes) -> list[bytes]:
    """Every frame of a GIF as a viewer shows it, RGBA: each image drawn over
    what the frame before left (its transparent index showing what was there),
    then disposed of as its graphic control extension says (1: kept, 2: cleared,
    3: what was there before it). Non-interlaced images only (gifenc's)."""
    width, height, packed = struct.unpack("<HHB", data[6:11])
    at, table = 13, b""
    if packed & 0x80:
        table = data[at:at + 3 * 2 ** ((packed & 7) + 1)]
        at += len(table)
    screen = bytearray(width * height * 4)
    frames, dispose, clear = [], 0, None

    def sub_blocks(at: int) -> tuple[bytes, int]:
        out = bytearray()
        while data[at]:
            out += data[at + 1:at + 1 + data[at]]
            at += 1 + data[at]
        return bytes(out), at + 1

    while data[at] != 0x3B:
        if data[at] == 0x21:
            label, (body, at) = data[at + 1], sub_blocks(at + 2)
            if label == 0xF9:
                dispose, clear = (body[0] >> 2) & 7, body[3] if body[0] & 1 else None
            continue
        assert data[at] == 0x2C, f"unknown GIF block 0x{data[at]:02x}"
        left, top, w, h, flags = struct.unpack("<HHHHB", data[at + 1:at + 10])
        assert not flags & 0x40, "interlaced"
        at, colours = at + 10, table
        if flags & 0x80:
            colours = data[at:at + 3 * 2 ** ((flags & 7) + 1)]
            at += len(colours)
        body, after = sub_blocks(at + 1)
        index = lzw_decode(body, data[at], w * h)
        at = after
        colours = colours.ljust(768, b"\0")
        rgba = bytearray(w * h * 4)
        for channel in range(3):
            rgba[channel::4] = index.translate(colours[channel::3])
        rgba[3::4] = b"\xff" * (w * h)
        before = bytes(screen)
        drawn = re.compile(b"[^" + re.escape(bytes([clear])) + b"]+" if clear is not None else b"(?s).+")
        for row in range(h):
            start = ((top + row) * width + left) * 4
            for run in drawn.finditer(index, row * w, (row + 1) * w):
                a, b = run.start() - row * w, run.end() - row * w
                screen[start + 4 * a:start + 4 * b] = rgba[(row * w + a) * 4:(row * w + b) * 4]
        frames.append(bytes(screen))
        for row in range(h) if dispose in (2, 3) else ():
            start = ((top + row) * width + left) * 4
            screen[start:start + 4 * w] = bytes(4 * w) if dispose == 2 else before[start:start + 4 * w]
        dispose, clear = 0, None
    return frames


def png_of(width: int, height: int, rgba: bytes) -> bytes:
    """RGBA pixels as a PNG file (to look at a frame)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    rows = b"".join(b"\0" + rgba[y * width * 4:(y + 1) * width * 4] for y in range(height))
    return (PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))


def svg_texts(el: ET.Element, inside: bool = False) -> list[str]:
    """The texts of the <text> elements drawn inside an <svg> under `el`."""
    found = []
    for child in el:
        if child.tag == SVG + "text" and inside:
            words = "".join(child.itertext()).strip()
            if words:
                found.append(words)
        elif child.tag != SVG + "defs":
            found += svg_texts(child, inside or child.tag == SVG + "svg")
    return found


def svg_shapes(el: ET.Element, inside: bool = False) -> int:
    """How many shapes are drawn inside an <svg> under `el` (not in <defs>)."""
    count = 0
    for child in el:
        if child.tag == SVG + "defs":
            continue
        if inside and child.tag in {SVG + s for s in SHAPES}:
            count += 1
        count += svg_shapes(child, inside or child.tag == SVG + "svg")
    return count


def group(root: ET.Element, part: str) -> ET.Element:
    found = root.find(f".//{SVG}g[@id='{part}']")
    assert found is not None, f"the picture has no {part}"
    return found


# The page's own board, drawn: its SVG texts and shapes (what is on screen, not in <defs>).
PAGE_BOARD = """() => {
  const drawn = (el) => !el.closest('defs') && el.checkVisibility();
  return {
    texts: [...document.querySelectorAll('#board svg text')].filter(drawn).map((t) => t.textContent.trim()).filter(Boolean),
    // (the texts that are not part of a move target: a past position's board
    // plays side lines, and its targets may carry labels an inert board has not)
    fixed: [...document.querySelectorAll('#board svg text')].filter(drawn)
      .filter((t) => !t.closest('[data-move], [data-try], .target')).map((t) => t.textContent.trim()).filter(Boolean),
    // (nor the marks of a preview: a past position's board previews the ring
    // being built, since a side line can be played there; a picture shows it as it stood)
    shapes: [...document.querySelectorAll('#board svg :is(path, rect, circle, ellipse, line, polyline, polygon)')].filter(drawn)
      // (a square that answers a tap with why not, data-try, is drawn as it stands: since issue 56
      // Enumeration's row and column numbers are such squares; only a target's rings, and the half squares
      // of a square with two choices and the line between them, are the page's own)
      .filter((t) => !t.closest('[data-move], .half') && !t.matches('.ring, .focus-ring, .half-split') && !t.parentElement.querySelector(':scope > .preview')).length,
  };
}"""


# -- saving --------------------------------------------------------------------------


def save(page: Page, where: Locator, key: str, timeout: float = 60_000) -> tuple[str, bytes, str]:
    """Click a Picture button in `where`; the file's name, its bytes, and what the page said."""
    with page.expect_download(timeout=timeout) as info:
        where.locator(f'[data-key="{key}"]').click()
    download = info.value
    name = download.suggested_filename
    said = where.locator(".picture-said", has_text=f"Saved {name}")
    said.wait_for()
    return name, Path(download.path()).read_bytes(), said.inner_text()


def story(game_id: str) -> quetgames.State:
    """Some moves (up to 12) of a seeded random game with TYPED as the comment of the
    next-to-last move (the position a step back shows)."""
    states = random_game(game_id, seed=6)
    state = states[min(12, len(states) - 1)]
    return state.with_comment(len(state.history) - 1, TYPED)


def keep(name: str, data: bytes) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / name).write_bytes(data)


# -- the game page ---------------------------------------------------------------------


@pytest.mark.parametrize("game_id", list(quetgames.GAMES))
def test_pictures_of_the_position_shown(w: Watched, module: dict, game_id: str) -> None:
    page = w.page
    w.errors.clear()
    page.set_viewport_size(DESKTOP)
    forget_games(w)
    state = story(game_id)
    plies = len(state.history)
    name = state.view()["name"]
    open_record(w, state.record)
    page.locator(f'[data-key="ply-{plies - 1}"]').click()
    page.locator(".replay-banner").wait_for()
    page.locator("#move-comment", has_text=TYPED).wait_for()
    share = page.locator("#share")

    # SVG: XML, the board as the page draws it, the name, the credit, the comment as typed
    file, data, said = save(page, share, "picture-svg")
    assert file == f"{game_id}-move-{plies - 1}.svg"
    root = ET.fromstring(data)
    assert root.tag == SVG + "svg"
    words = " ".join(" ".join(t.itertext()) for t in root.iter(SVG + "text"))
    assert name in words and "Leroy Quet" in words
    assert not re.search(STRAY, words), words
    assert " ".join(" ".join(t.itertext()) for t in group(root, "comment").iter(SVG + "text")) == TYPED
    assert not [el.tag for el in root.iter() if el.tag in {SVG + "script", SVG + "b", "script", "b", SVG + "foreignObject"}]
    board = group(root, "board")
    drawn = page.evaluate(PAGE_BOARD)
    # nothing the page's board does not draw, and most of what it draws outside
    # its move targets: the page's board of a past position plays side lines
    # and labels what a move there would do ("+4", "←1"); the picture's is
    # drawn inert, without those
    pictured = Counter(svg_texts(board))
    assert not pictured - Counter(drawn["texts"]), (drawn["texts"], pictured)
    assert sum(pictured.values()) >= 0.8 * len(drawn["fixed"]) > 0, (drawn["fixed"], pictured)
    # (at least the page's shapes outside its previews: a board may add marks
    # from the engine's answers, which the picture asks for the position shown)
    assert svg_shapes(board) >= drawn["shapes"] >= 10
    width, height = int(root.get("width")), int(root.get("height"))
    assert width == module["width"] and f"{width} × {height}" in said

    # PNG: the same picture at the module's scale, as the page says
    file, data, said = save(page, share, "picture-png")
    assert file == f"{game_id}-move-{plies - 1}.png"
    size = png_header(data)
    assert size == (width * module["scale"], height * module["scale"])
    assert f"{size[0]} × {size[1]} pixels" in said
    keep(f"picture-{game_id}.png", data)

    # GIF: a frame for each position from the start to the one shown, looping
    file, data, said = save(page, share, "picture-gif")
    assert file == f"{game_id}-moves-0-{plies - 1}.gif"
    gif = read_gif(data)
    assert len(gif.frames) == plies and f"{plies} frames" in said
    assert all(frame == (0, 0, gif.width, gif.height) for frame in gif.frames)
    assert gif.loops == 0
    assert gif.delays == [module["delay"] // 10] * (plies - 1) + [module["last"] // 10]
    assert f"{gif.width} × {gif.height} pixels" in said
    if game_id == "prime-target":
        keep("picture-prime-target.gif", data)
        assert_clean(page, "the share panel after saving a picture")
    assert stray_words(page) == [] and w.errors == []


def test_the_whole_game_animated_and_the_picture_in_dark(w: Watched, module: dict) -> None:
    """Not stepping back: the picture is the game as it stands, the animation
    the whole game; the page's dark colours are the picture's."""
    page = w.page
    w.errors.clear()
    forget_games(w)
    state = random_game("multiplications", seed=8)[5]
    plies = len(state.history)
    open_record(w, state.record)
    share = page.locator("#share")
    _, data, _ = save(page, share, "picture-gif")
    assert len(read_gif(data).frames) == plies + 1
    light = save(page, share, "picture-png")[1]
    page.emulate_media(color_scheme="dark")
    try:
        page.wait_for_function("() => matchMedia('(prefers-color-scheme: dark)').matches")
        file, dark, _ = save(page, share, "picture-png")
    finally:
        page.emulate_media(color_scheme="light")
    assert file == f"multiplications-move-{plies}.png"
    keep("picture-multiplications-dark.png", dark)
    assert sum(png_first_pixel(light)[:3]) > 600  # the light page's paper
    assert sum(png_first_pixel(dark)[:3]) < 150  # the dark page's
    assert w.errors == []


def test_a_side_line_shown_is_pictured_as_one(w: Watched) -> None:
    """A side line's position: its own file name and words; the animation runs
    along the main line to where the side line leaves it, then along the line."""
    page = w.page
    w.errors.clear()
    forget_games(w)
    state = random_game("enumeration", seed=4)[3]
    before = state.position(1)
    seat = before.to_move[0]
    other = next(m for m in before.legal_moves(seat) if m != state.history[1])
    state = state.with_line(1, [(other, seat)], {1: "Sharper."})
    open_record(w, state.record)
    page.locator('[data-key="line-0-1"]').click()
    page.locator(".replay-banner", has_text="side line").wait_for()
    share = page.locator("#share")
    file, data, _ = save(page, share, "picture-svg")
    assert file == "enumeration-line-1-move-1.svg"
    root = ET.fromstring(data)
    where = " ".join(group(root, "where").itertext())
    assert where.startswith("Side line instead of move 2, move 1")
    assert " ".join(group(root, "comment").itertext()) == "Sharper."
    # the animation: the start, move 1, then the side line's move instead of move 2
    file, data, said = save(page, share, "picture-gif")
    assert file == "enumeration-moves-0-1-then-line-1-to-move-1.gif" and len(read_gif(data).frames) == 3
    assert "3 frames" in said
    assert w.errors == []


def test_copy_picture_puts_a_png_on_the_clipboard_or_says_why_not(w: Watched, server: str) -> None:
    page = w.page
    w.errors.clear()
    forget_games(w)
    open_record(w, random_game("prime-target", seed=3)[2].record)
    w.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.rstrip("/"))
    share = page.locator("#share")
    share.locator('[data-key="picture-copy"]').click()
    share.locator(".picture-said", has_text="Picture copied").wait_for()
    head = page.evaluate("""async () => {
      const [item] = await navigator.clipboard.read();
      const blob = await item.getType("image/png");
      return [...new Uint8Array(await blob.slice(0, 24).arrayBuffer())];
    }""")
    assert bytes(head[:8]) == PNG_SIGNATURE and bytes(head[12:16]) == b"IHDR"
    # a browser that refuses: said in words, with the way round it
    page.evaluate("() => { navigator.clipboard.write = () => Promise.reject(new DOMException('refused', 'NotAllowedError')); }")
    try:
        share.locator('[data-key="picture-copy"]').click()
        share.locator(".picture-said", has_text="would not put the picture on the clipboard").wait_for()
        assert "Save PNG" in share.locator(".picture-said").inner_text()
    finally:
        page.evaluate("() => { delete navigator.clipboard.write; }")
    assert w.errors == []


# -- the embed -------------------------------------------------------------------------


def test_the_embed_saves_pictures_too(browser: Browser, server: str) -> None:
    state = story("convoluted-coprimality")
    reader = watched_page(browser, server, viewport=PHONE, accept_downloads=True)
    reader.context.on("request", lambda request: reader.requests.append(request.url))
    try:
        page = reader.page
        page.goto(f"{server}embed.html?mode=replay&ply=2&theme=dark#{state.record}")
        page.locator("#embed-start").click()
        page.locator(READY).wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
        page.locator("#embed-picture summary").click()
        box = page.locator("#embed-picture")
        file, data, said = save(page, box, "picture-png")
        assert file == "convoluted-coprimality-move-2.png"
        width, height = png_header(data)
        assert f"{width} × {height} pixels" in said
        assert sum(png_first_pixel(data)[:3]) < 150  # theme=dark, whatever the reader's setting
        keep("picture-embed-dark.png", data)
        file, data, said = save(page, box, "picture-svg")
        root = ET.fromstring(data)
        assert "Leroy Quet" in " ".join(" ".join(t.itertext()) for t in root.iter(SVG + "text"))
        assert root.find(f".//{SVG}g[@id='comment']") is None  # move 2 has no comment
        _, data, _ = save(page, box, "picture-gif")
        assert len(read_gif(data).frames) == 3
        assert_clean(page, "the embed with Picture open")
        # everything made here: no request leaves the site (a data: image is made in the page)
        assert [url for url in reader.off_site() if not url.startswith("data:")] == []
        assert any(url.endswith("/vendor/gifenc.esm.js") for url in reader.requests)
        assert stray_words(page) == [] and reader.errors == []
    finally:
        reader.context.close()


# -- the worked example in docs/EMBED.md -------------------------------------------------

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_the_docs_worked_example_opens_and_is_pictured(w: Watched, module: dict) -> None:
    """The annotated game of docs/EMBED.md: its record loads with its comments
    and side line, the page shows them, and the picture of the side line's
    position is the one the docs show (written there with QUET_DOCS_SHOTS=1)."""
    text = (DOCS / "EMBED.md").read_text()
    record = re.search(r"<!-- story record -->\n```\n(\S+)\n```", text).group(1)
    state = quetgames.load(record)
    notes = state.view()["notes"]
    assert len(notes["comments"]) >= 2 and len(notes["lines"]) == 1
    line = notes["lines"][0]
    assert "](story.png)" in text and (DOCS / "story.png").exists()
    page = w.page
    w.errors.clear()
    page.set_viewport_size(DESKTOP)
    forget_games(w)
    open_record(w, record)
    # the comment of the last move shows under the board, and the side line in the list
    page.locator("#move-comment", has_text=notes["comments"][-1]["text"]).wait_for()
    page.locator('[data-key="line-0-1"]').click()
    page.locator(".replay-banner", has_text="side line").wait_for()
    page.locator("#move-comment", has_text=line["comments"][0]["text"]).wait_for()
    file, data, _ = save(page, page.locator("#share"), "picture-png")
    assert file == "prime-target-line-1-move-1.png"
    assert png_header(data)[0] == module["width"] * module["scale"]
    if os.environ.get("QUET_DOCS_SHOTS") == "1":
        (DOCS / "story.png").write_bytes(data)
    else:
        keep("picture-docs-story.png", data)
    assert w.errors == []



# -- every frame of an animation is its position alone ----------------------------------

# The position after `ply` moves (with `line`: after move line.n of that side
# line) as GameView.shown() hands it to picture.js, built here from the engine's
# "at" and the game's board module.
SHOWN_AT = """async ({ record, plies, ply, line }) => {
  const [{ engine }, { boardFor }, { seatName }] = await Promise.all([
    import("./bridge/engine.js"), import("./boards/index.js"), import("./ui/dom.js")]);
  const at = await engine.request("at", line ? { record, ply: line.n, line: line.index } : { record, ply });
  const mover = ply > 0 ? at.view.moves[ply - 1] : null;
  return { view: at.view, comment: at.comment ?? null, moveWords: mover ? `${seatName(at.view, mover.seat)}: ${mover.words}` : null,
    gameName: at.view.name, renderer: await boardFor(at.view.game), record, ply, plies, line, engine };
}"""

BYTES = """(bytes) => {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}"""

# The animation up to that position, made by picture.js: the GIF's bytes and the room it laid frames out in.
GIF_OF = f"""async (at) => {{
  const shown = await ({SHOWN_AT})(at);
  const made = await (await import("./share/picture.js")).pictureGif(shown);
  return {{ gif: ({BYTES})(new Uint8Array(await made.blob.arrayBuffer())), room: made.room ?? null,
    width: made.width, height: made.height, name: (await import("./share/picture.js")).fileName(shown, "gif") }};
}}"""

# That position pictured alone (its own SVG, in the animation's room) on a
# canvas of the GIF's size, as an <img> of the SVG draws it: RGBA and the SVG.
ALONE = f"""async ({{ at, width, height, room }}) => {{
  const shown = await ({SHOWN_AT})(at);
  const made = await (await import("./share/picture.js")).pictureSvg(shown, {{ width, room }});
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${{encodeURIComponent(made.svg)}}`;
  await image.decode();
  const canvas = document.createElement("canvas");
  [canvas.width, canvas.height] = [width, height];
  const context = canvas.getContext("2d", {{ willReadFrequently: true }});
  context.fillStyle = made.background;
  context.fillRect(0, 0, width, height);
  context.drawImage(image, 0, 0, made.width, made.height);
  return {{ pixels: ({BYTES})(new Uint8Array(context.getImageData(0, 0, width, height).data.buffer)), svg: made.svg }};
}}"""

# How far a GIF colour may be from the colour it stands for: a palette of 255
# colours for every frame (the worst seen: about 20, in a seat mark's edge)
NEAR = 40


def frame_mismatch(frame: bytes, alone: bytes) -> str | None:
    """Why a decoded frame is not the picture drawn alone, or None. Each colour
    of the picture alone must be shown as one colour everywhere in the frame
    (a ghost is the same colour shown two ways: a repainted place against an
    untouched one), and that colour near it."""
    assert len(frame) == len(alone)
    pairs = Counter(zip(array("I", alone), array("I", frame)))
    shown_as: dict[int, list[tuple[int, int]]] = {}
    for (want, got), n in pairs.items():
        shown_as.setdefault(want, []).append((n, got))

    def rgb(c: int) -> tuple[int, int, int]:
        return c & 0xFF, (c >> 8) & 0xFF, (c >> 16) & 0xFF

    split = {rgb(want): sorted(((n, rgb(got)) for n, got in ways), reverse=True) for want, ways in shown_as.items() if len(ways) > 1}
    if split:
        pixels = sum(sum(n for n, _ in ways[1:]) for ways in split.values())
        worst = sorted(split.items(), key=lambda item: -sum(n for n, _ in item[1][1:]))[:3]
        return f"{len(split)} colours shown two or more ways, {pixels} pixels off their colour's commonest way: {worst}"
    far = [(rgb(want), rgb(got)) for (want, got) in pairs if max(abs(a - b) for a, b in zip(rgb(want), rgb(got))) > NEAR]
    return f"{len(far)} colours shown more than {NEAR} away: {far[:5]}" if far else None


def where_words(root: ET.Element) -> str:
    return " ".join(" ".join(group(root, "where").itertext()).split())


def top_of(root: ET.Element, what: str) -> float:
    """Where the board's card ("rect") or its drawing ("svg") starts, from the top of the picture."""
    found = group(root, "board").find(f".//{SVG}{what}")
    assert found is not None
    return float(found.get("y"))


def steps_to(record: str, plies: int, ply: int, line: dict | None) -> list[dict]:
    """The positions a GIF of a position runs through (as SHOWN_AT takes them),
    and the words each frame must say where it is: the main line from the
    start, and into a side line from where it leaves the main line."""
    last = line["from"] if line else ply
    out = [{"record": record, "plies": plies, "ply": p, "line": None,
            "where": "The start" if p == 0 else f"After move {p} of {plies}"} for p in range(last + 1)]
    for n in range(1, line["n"] + 1 if line else 1):
        out.append({"record": record, "plies": plies, "ply": line["from"] + n, "line": {**line, "n": n},
                    "where": f"Side line instead of move {line['from'] + 1}, move {n}"})
    return out


def check_every_frame(w: Watched, at: dict, name: str) -> tuple[list[ET.Element], str]:
    """Make the GIF of the position `at` with picture.js, decode every frame,
    and check that each is exactly its position pictured alone, in the same
    room: the frames' own pictures (SVG roots), in order, and the GIF's file name."""
    made = w.page.evaluate(GIF_OF, at)
    data = base64.b64decode(made["gif"])
    keep(f"{name}.gif", data)
    gif = read_gif(data)
    assert (gif.width, gif.height) == (made["width"], made["height"])
    frames = gif_frames(data)
    steps = steps_to(at["record"], at["plies"], at["ply"], at["line"])
    assert len(frames) == len(steps)
    roots, wrong = [], []
    for i, (frame, step) in enumerate(zip(frames, steps)):
        alone = w.page.evaluate(ALONE, {"at": step, "width": gif.width, "height": gif.height, "room": made["room"]})
        root = ET.fromstring(alone["svg"])
        roots.append(root)
        assert where_words(root).startswith(step["where"]), (i, where_words(root), step["where"])
        pixels = base64.b64decode(alone["pixels"])
        why = frame_mismatch(frame, pixels)
        if why or i in (0, len(frames) // 2, len(frames) - 1):
            keep(f"{name}-frame-{i}.png", png_of(gif.width, gif.height, frame))
        if why:
            keep(f"{name}-frame-{i}-alone.png", png_of(gif.width, gif.height, pixels))
            wrong.append(f"frame {i} ({step['where']}): {why}")
    assert not wrong, "\n".join(wrong)
    # no band: every frame's own picture fills the GIF, and the board stays in one place
    assert {(int(root.get("width")), int(root.get("height"))) for root in roots} == {(gif.width, gif.height)}
    assert len({top_of(root, "rect") for root in roots}) == 1
    return roots, made["name"]


def board_numbers(root: ET.Element) -> Counter:
    """The numbers written in the board's drawing (its <svg>) of a picture."""
    return Counter(int(t) for t in svg_texts(group(root, "board")) if re.fullmatch(r"\d+", t))


def played_numbers(state: quetgames.State) -> Counter:
    """What a Prime Target board may write: the rays' numbers round the rim and
    every number played (in the centre and the rings built), nothing more."""
    board = state.view()["board"]
    return Counter(range(1, board["rays"] + 1)) + Counter(v for ring in board["rings"] for v in ring if v is not None)


@pytest.mark.parametrize("game_id, options", [("prime-target", {"players": 2, "k": 3, "rays": 10}), ("nonconformity", {})])
def test_every_gif_frame_is_its_position_alone(w: Watched, game_id: str, options: dict) -> None:
    """A GIF of a whole game, decoded here frame by frame: each frame is the
    picture of its position made alone (no ghost of an earlier frame), every
    frame fills the GIF (no empty band) with the board in the same place, and
    Prime Target's boards write the engine's numbers of that move and no others."""
    w.errors.clear()
    forget_games(w)
    states = [quetgames.new_game(game_id, **options)]
    rng = random.Random(5)
    while not states[-1].is_over and len(states) < 21:  # (one move a frame: a secret pick drawn unseen)
        seat = states[-1].to_move[0]
        states.append(states[-1].play(rng.choice(states[-1].legal_moves(seat)), seat))
    state = states[-1]
    open_record(w, state.record)
    at = {"record": state.record, "plies": state.plies, "ply": state.plies, "line": None}
    roots, name = check_every_frame(w, at, f"gif-{game_id}")
    assert name == f"{game_id}-moves-0-{state.plies}.gif"
    if game_id == "prime-target":
        # (and the target itself: the controls above it and the table under it have their room)
        assert len({top_of(root, "svg") for root in roots}) == 1
        for ply, root in enumerate(roots):
            assert board_numbers(root) == played_numbers(states[ply]), ply
    assert w.errors == []


def test_a_gif_in_a_side_line_runs_through_it(w: Watched) -> None:
    """A GIF taken in a side line: from the start along the main line to where
    the line leaves it, then along the line to the move shown; every frame its
    position alone."""
    w.errors.clear()
    forget_games(w)
    state = random_game("prime-target", seed=2, players=2, k=3, rays=10)[-1]
    branch = state.plies - 4
    position = state.position(branch)
    seat = position.to_move[0]
    line = [(next(m for m in position.legal_moves(seat) if m != state.history[branch]), seat)]
    for _ in range(2):
        position = position.play(*line[-1])
        line.append((position.legal_moves()[0], position.to_move[0]))
    state = state.with_line(branch, line, {2: "Another way round."})
    open_record(w, state.record)
    at = {"record": state.record, "plies": state.plies, "ply": branch + 2, "line": {"index": 0, "n": 2, "from": branch}}
    roots, name = check_every_frame(w, at, "gif-side-line")
    assert len(roots) == branch + 1 + 2
    assert board_numbers(roots[-1]) == played_numbers(state.line_position(0, 2))
    assert name == f"prime-target-moves-0-{branch}-then-line-1-to-move-2.gif"
    assert w.errors == []


def test_a_prime_target_picture_writes_only_numbers_played(w: Watched) -> None:
    """The live board previews the ring being built (its numbers in italics);
    a picture of that position shows the ring as it stands, empty: the numbers
    in the SVG's board are those the engine says were played."""
    page = w.page
    w.errors.clear()
    forget_games(w)
    states = random_game("prime-target", seed=3, players=2, k=3, rays=10)
    state = next(s for s in states if s.view()["board"]["phase"] == "rings" and s.view()["board"]["next_ring"] == 2)
    open_record(w, state.record)
    played = played_numbers(state)
    # (the page's own board: the ring being built previewed, more numbers than were played)
    page.wait_for_function("""n => [...document.querySelectorAll('#board svg text')]
        .filter((t) => /^\\d+$/.test(t.textContent.trim())).length > n""", arg=sum(played.values()))
    file, data, _ = save(page, page.locator("#share"), "picture-svg")
    assert file == f"prime-target-move-{state.plies}.svg"
    root = ET.fromstring(data)
    assert board_numbers(root) == played, (board_numbers(root), played)
    assert w.errors == []
