"""The proof gallery: ``output/index.html`` shows every card face of the build, and ``output/fonts/``.

This module owns two things ``pnp build`` always writes beside ``svg/``:

- ``fonts/``: the bundled TTF files and their licences, copied from ``templates/fonts/``. The SVGs
  of ``svg/`` name these files in their ``@font-face`` rules (``url("../fonts/<file>.ttf")``, see
  :func:`pnp.svg.font_faces`), so a card opened in a browser shows EB Garamond, not a fallback serif.
- ``index.html``: one figure per card face, game by game, fronts in print order and then the backs,
  each captioned with its face id (a link to its SVG), front or back, its record's kind, its origin
  in ``cards.toml`` (``rulebook``, ``public`` or ``authored``), its line there, how many copies print
  and which back it has. The cards are embedded with ``<object type="image/svg+xml">``, not
  ``<img>``: an SVG shown as an image may not load fonts, an SVG document in an object does.

The page has no script, no time stamp and no absolute path, so it is byte-identical between builds
and works from any folder (open ``output/index.html`` directly).
"""
from __future__ import annotations

import html
import shutil
from pathlib import Path

from pnp import fonts
from pnp.database import Database
from pnp.drawing import Drawing

FONTS_FOLDER = "fonts"
SVG_FONTS_URL = f"../{FONTS_FOLDER}/"
"""Where an SVG in ``svg/`` finds the fonts (passed to :func:`pnp.svg.write_svg`)."""
PAGE_FONTS_URL = f"{FONTS_FOLDER}/"
FONT_SUFFIXES = (".ttf", ".txt")
"""The files of ``templates/fonts/`` copied into ``fonts/`` (the fonts and their licences), by suffix."""
INDEX = "index.html"
"""The gallery page's name in the output folder."""

_STYLE = """\
{faces}
body {{ margin: 0; padding: 1.5rem 2rem 3rem; background: #f6f1e6; color: #3b2a1a;
       font-family: "EB Garamond", "NanumMyeongjo", Georgia, serif; font-size: 17px; }}
h1 {{ font-size: 2rem; margin: 0 0 .25rem; }}
h2 {{ font-size: 1.5rem; margin: 2.5rem 0 .25rem; border-bottom: 1px solid #c9b891; }}
h3 {{ font-size: 1.15rem; margin: 1.5rem 0 .5rem; font-style: italic; font-weight: normal; }}
p.note {{ margin: .25rem 0 1rem; max-width: 48rem; }}
.cards {{ display: flex; flex-wrap: wrap; gap: 1.25rem 1rem; }}
figure {{ margin: 0; width: min-content; }}
figure object {{ display: block; background: #fff; box-shadow: 0 1px 4px rgba(59, 42, 26, .35); }}
figcaption {{ font-size: 14px; line-height: 1.3; margin-top: .35rem; }}
figcaption a {{ color: #7a2e2a; word-break: break-all; }}
figcaption .meta {{ color: #6e5b44; }}
"""


def copy_fonts(out_dir: Path) -> list[Path]:
    """Copy the bundled TTFs and licences (``templates/fonts/``) into ``out_dir/fonts/``; return the paths."""
    target = Path(out_dir) / FONTS_FOLDER
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for source in sorted(fonts.FONT_DIR.iterdir()):
        if source.suffix.lower() in FONT_SUFFIXES:
            written.append(Path(shutil.copyfile(source, target / source.name)))
    return written


def _page_faces() -> str:
    """``@font-face`` rules for every bundled font the page's own captions use: regular, italic and bold EB
    Garamond, and NanumMyeongjo for Hangul, which no Garamond has (a Korean card's caption, in the regular
    weight, printed as boxes in a browser without a Korean font, issue 15)."""
    rules = []
    for key in ("serif", "serif-bold", "serif-italic", "korean"):
        fam = fonts.family(key)
        rules.append(f'@font-face {{ font-family: "{fam.svg_family}"; font-weight: {fam.svg_weight}; '
                     f'font-style: {fam.svg_style}; src: url("{PAGE_FONTS_URL}{fam.file}") format("truetype"); }}')
    return "\n".join(rules)


def _figure(face_id: str, drawing: Drawing, side: str, kind: str, origin: str, line: int,
            copies: int = 1, back: str | None = None, source: str = "cards.toml") -> str:
    bleed = drawing.bleed_box
    src = f"svg/{face_id}.svg"
    title = drawing.title or face_id
    meta = [side, kind.replace("_", " "), f"origin: {origin}"]
    if line:
        meta.append(f"{source}:{line}")
    if copies > 1:
        meta.append(f"{copies} copies")
    back_line = f'<br><span class="meta">back: <a href="#{html.escape(back)}">{html.escape(back)}</a></span>' if back else ""
    e = html.escape
    return (f'<figure id="{e(face_id)}">'
            f'<object data="{e(src)}" type="image/svg+xml" style="width: {bleed.width:g}mm; height: {bleed.height:g}mm" '
            f'aria-label="{e(title)}"></object>'
            f'<figcaption><a href="{e(src)}">{e(face_id)}</a><br>{e(title)}<br>'
            f'<span class="meta">{e(" · ".join(meta))}</span>{back_line}</figcaption></figure>')


def gallery_html(database: Database, rendered) -> str:
    """The text of ``index.html`` for ``rendered`` (:func:`pnp.layout.render` of ``database``)."""
    e = html.escape
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             "<title>Shadows Upon Lassadar: card proofs</title>",
             f"<style>\n{_STYLE.format(faces=_page_faces())}</style>", "</head>", "<body>",
             "<h1>Shadows Upon Lassadar: card proofs</h1>",
             '<p class="note">Every card face of this build, drawn from <code>svg/</code> at print size with '
             "its bleed (3 mm beyond the cut line). The PDF sheets beside this page are what you print.</p>"]
    for game in ("solo", "duel"):
        faces = rendered.game(game)
        if not faces:
            continue
        title = database.games[game].title if game in database.games else game
        parts.append(f'<h2 id="game-{game}">{e(title)}</h2>')
        parts.append("<h3>Fronts</h3>")
        source = Path(database.path).name  # the database the cards were built from (--db), by its file name
        parts.append('<div class="cards">')
        backs: list[str] = []
        for face in faces:
            record = face.record
            copies = face.copies if face.board_cards == 1 else 1
            parts.append(_figure(face.id, face.drawing, "front", record.kind, record.origin,
                                 database.line_of(record.id), copies, face.back, source))
            if face.back and face.back not in backs:
                backs.append(face.back)
        parts.append("</div>")
        if backs:
            parts.append("<h3>Backs</h3>")
            parts.append('<div class="cards">')
            for back_id in backs:
                back = rendered.backs[back_id]
                parts.append(_figure(back.id, back.drawing, "back", back.record.kind, back.record.origin,
                                     database.line_of(back.record.id), source=source))
            parts.append("</div>")
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)


def write_gallery(database: Database, rendered, out_dir: Path) -> list[Path]:
    """Write ``fonts/`` and ``index.html`` into ``out_dir`` (the SVGs are written by the build with
    :data:`SVG_FONTS_URL`); return the paths written."""
    out_dir = Path(out_dir)
    written = copy_fonts(out_dir)
    index = out_dir / INDEX
    index.write_text(gallery_html(database, rendered), encoding="utf-8")
    written.append(index)
    return written
