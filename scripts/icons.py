"""Draws the web app's icons (web/img/icon-192.png, icon-512.png and the
maskable icon-maskable-512.png) from the shapes of web/img/hat.svg, with
nothing but the standard library: the hat's rectangles and brim are filled
with 4 × 4 samples a pixel and written as an indexed PNG, so the files stay
a few kilobytes and the same every time.

    python3 scripts/icons.py            # rewrites the three files
"""

import struct
import sys
import zlib
from pathlib import Path

INK = (0x2B, 0x2D, 0x42)  # the hat (hat.svg)
BAND = (0xD9, 0x04, 0x29)  # its band
PAPER = (0xF7, 0xF5, 0xF0)  # the page's --paper, the icon's ground
SAMPLES = 4


def hat_colour(x, y):
    """The colour of hat.svg (a 32 × 32 box) at (x, y), or None outside it;
    later shapes of the file are drawn over earlier ones."""
    if ((x - 16) / 14) ** 2 + ((y - 23) / 4) ** 2 <= 1:
        return INK  # the brim
    if 9 <= x <= 23 and 15 <= y <= 18:
        return BAND
    if 9 <= x <= 23 and 4 <= y <= 21:
        # The crown, its corners rounded (rx 2).
        cx = min(max(x, 11), 21)
        cy = min(max(y, 6), 19)
        return INK if (x - cx) ** 2 + (y - cy) ** 2 <= 4 else None
    return None


def draw(size, hat_share, rounded):
    """A `size` square: the paper ground (a rounded square when `rounded`,
    else to the edges, as a maskable icon must be) with the hat filling
    `hat_share` of its width, centred."""
    palette = [(0, 0, 0, 0)]
    index = {palette[0]: 0}
    rows = []
    hat_px = size * hat_share
    offset = (size - hat_px) / 2
    radius = size * 0.18
    for py in range(size):
        row = bytearray([0])  # filter: none
        for px in range(size):
            acc = [0, 0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = px + (sx + 0.5) / SAMPLES
                    y = py + (sy + 0.5) / SAMPLES
                    if rounded and not inside_rounded(x, y, size, radius):
                        continue
                    colour = hat_colour((x - offset) / hat_px * 32, (y - offset) / hat_px * 32 + 1.5) or PAPER
                    acc[0] += colour[0]
                    acc[1] += colour[1]
                    acc[2] += colour[2]
                    acc[3] += 255
            n = SAMPLES * SAMPLES
            covered = acc[3] // 255
            if covered == 0:
                pixel = (0, 0, 0, 0)
            else:
                # Few levels of each edge, so the palette stays under 256.
                pixel = tuple(round(c / covered / 8) * 8 if i < 3 else 0 for i, c in enumerate(acc[:3])) + (
                    round(acc[3] / n / 17) * 17,
                )
                pixel = tuple(min(255, v) for v in pixel)
            if pixel not in index:
                index[pixel] = len(palette)
                palette.append(pixel)
            row.append(index[pixel])
        rows.append(bytes(row))
    if len(palette) > 256:
        sys.exit(f"{size}: {len(palette)} colours, more than a palette holds")
    return png(size, palette, b"".join(rows))


def inside_rounded(x, y, size, r):
    cx = min(max(x, r), size - r)
    cy = min(max(y, r), size - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def png(size, palette, data):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", size, size, 8, 3, 0, 0, 0)
    plte = b"".join(bytes(p[:3]) for p in palette)
    trns = bytes(p[3] for p in palette)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"PLTE", plte)
        + chunk(b"tRNS", trns)
        + chunk(b"IDAT", zlib.compress(data, 9))
        + chunk(b"IEND", b"")
    )


def main():
    out = Path(__file__).resolve().parent.parent / "web" / "img"
    for name, size, share, rounded in [
        ("icon-192.png", 192, 0.78, True),
        ("icon-512.png", 512, 0.78, True),
        # Maskable: the ground to the edges, the hat inside the safe circle
        # (the middle 80 %).
        ("icon-maskable-512.png", 512, 0.56, False),
    ]:
        data = draw(size, share, rounded)
        (out / name).write_bytes(data)
        print(f"{name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
