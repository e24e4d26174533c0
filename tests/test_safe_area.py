"""Icons stay inside the safe area like text (issue 3, Geometry: "text and icons stay inside the safe
area"); backgrounds and frames may run into the bleed. The text half is tests/test_layout.py."""
from __future__ import annotations

import math

from pnp.drawing import Box, Group, Icon
from pnp.layout import render


def to_card(x, y, transforms):
    """Point ``(x, y)`` of a nested group, in card coordinates (each group rotates, then shifts)."""
    for dx, dy, rotation in reversed(transforms):
        angle = math.radians(rotation)
        x, y = x * math.cos(angle) - y * math.sin(angle) + dx, x * math.sin(angle) + y * math.cos(angle) + dy
    return x, y


def bounds(box, transforms):
    corners = [to_card(x, y, transforms) for x in (box.x, box.right) for y in (box.y, box.bottom)]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def icon_boxes(items, transforms=(), clip=None):
    """(name, box) of every icon in card coordinates, through shifted and rotated groups; icons a
    group's clip hides entirely (a board's neighbouring card) are skipped."""
    for item in items:
        if isinstance(item, Group):
            inner_transforms = transforms + ((item.dx, item.dy, item.rotation),)
            inner = bounds(item.clip, inner_transforms) if item.clip is not None else clip
            yield from icon_boxes(item.items, inner_transforms, inner)
        elif isinstance(item, Icon):
            box = bounds(Box(item.x, item.y, item.size, item.size), transforms)
            if clip is not None and (box.right <= clip.x or box.x >= clip.right or box.bottom <= clip.y or box.y >= clip.bottom):
                continue
            yield item.name, box


def test_every_icon_is_inside_the_safe_area(db):
    rendered = render(db)
    failures = []
    for face in list(rendered.fronts) + list(rendered.backs.values()):
        drawing = face.drawing
        safe = drawing.safe_box(db.print.safe_mm)
        if face.board_cards > 1:  # a board's inner edges are used side by side, not cut: 1 mm is enough
            left = 1.0 if face.board_index > 0 else db.print.safe_mm
            right = 1.0 if face.board_index < face.board_cards - 1 else db.print.safe_mm
            safe = Box(left, safe.y, drawing.width_mm - left - right, safe.height)
        for name, box in icon_boxes(drawing.items):
            if face.board_cards > 1 and (box.x >= drawing.width_mm or box.right <= 0):
                continue
            if box.x < safe.x - 0.05 or box.right > safe.right + 0.05 or box.y < safe.y - 0.05 or box.bottom > safe.bottom + 0.05:
                failures.append(f"{face.id}: icon {name} at {box}")
    assert failures == []
