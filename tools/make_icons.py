"""Draw the app icons as PNGs with the standard library only (zlib + struct).

    python tools/make_icons.py      writes web/icons/*.png

The picture is web/icon.svg's: a blue tile, a faint 3x3 grid, a white Q. The
PNGs are committed (a few kB); run this again only when the design changes.
Shapes are signed distance functions, so edges are anti-aliased with one
sample per pixel (coverage = 0.5 - distance), and the same input gives the
same bytes every time.
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "web" / "icons"
BLUE = (0x2F, 0x5F, 0xB3)
WHITE = (0xFF, 0xFF, 0xFF)


def box(px: float, py: float, cx: float, cy: float, hw: float, hh: float, r: float = 0.0) -> float:
    """Signed distance from (px, py) to a box centred at (cx, cy) with corner radius r."""
    qx = abs(px - cx) - hw + r
    qy = abs(py - cy) - hh + r
    return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r


def segment(px: float, py: float, ax: float, ay: float, bx: float, by: float, half_width: float) -> float:
    """Signed distance to a thick line from a to b with round ends."""
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy) - half_width


def draw(size: int, maskable: bool) -> bytes:
    """RGBA rows of the icon, in a 64-unit design space scaled to `size` pixels.

    The maskable icon fills the whole square (the platform cuts its own shape)
    and shrinks the picture into the central safe circle (radius 40%)."""
    unit = size / 64
    shrink = 0.72 if maskable else 1.0
    rows = []
    for y in range(size):
        row = bytearray([0])  # PNG filter type 0 for this row
        for x in range(size):
            # design coordinates of the pixel centre, the picture scaled about (32, 32)
            px = ((x + 0.5) / unit - 32) / shrink + 32
            py = ((y + 0.5) / unit - 32) / shrink + 32
            to_units = unit * shrink  # design units -> pixels, for the coverage ramp

            if maskable:
                alpha = 1.0
            else:
                alpha = min(1.0, max(0.0, 0.5 - box((x + 0.5) / unit, (y + 0.5) / unit, 32, 32, 32, 32, 12) * unit))
            r, g, b = (float(c) for c in BLUE)

            grid = min(box(px, py, 22, 32, 1, 24), box(px, py, 42, 32, 1, 24),
                       box(px, py, 32, 22, 24, 1), box(px, py, 32, 42, 24, 1))
            cover = 0.35 * min(1.0, max(0.0, 0.5 - grid * to_units))
            r, g, b = (c + (255 - c) * cover for c in (r, g, b))

            ring = abs(math.hypot(px - 32, py - 31) - 10.5) - 2.6
            tail = segment(px, py, 35.5, 35.5, 42.5, 43.5, 2.6)
            cover = min(1.0, max(0.0, 0.5 - min(ring, tail) * to_units))
            r, g, b = (c + (255 - c) * cover for c in (r, g, b))

            row += bytes((round(r), round(g), round(b), round(alpha * 255)))
        rows.append(bytes(row))
    return b"".join(rows)


def png(size: int, rgba_rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rgba_rows, 9)) + chunk(b"IEND", b""))


# file name -> (size, maskable); web/manifest.webmanifest lists the same files
ICON_FILES = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "maskable-192.png": (192, True),
    "maskable-512.png": (512, True),
}


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    for name, (size, maskable) in ICON_FILES.items():
        data = png(size, draw(size, maskable))
        (ICONS / name).write_bytes(data)
        print(f"{ICONS / name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
