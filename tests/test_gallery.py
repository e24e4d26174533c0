"""The proof gallery output/index.html: every card face, front and back, with its id, kind and origin,
drawn from svg/ in the bundled fonts; checked in headless Chromium where it is installed."""
from __future__ import annotations

import html
import re
import shutil

import pytest

from pnp import fonts, layout

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _faces(db):
    rendered = layout.render(db)
    return rendered, [(face.id, "front", face.record) for face in rendered.fronts] + [
        (face.id, "back", face.record) for face in rendered.backs.values()]


def test_index_lists_every_face_with_its_kind_and_origin(db, screens_output):
    page = (screens_output / "index.html").read_text(encoding="utf-8")
    rendered, faces = _faces(db)
    figures = re.findall(r'<figure id="([^"]+)">(.*?)</figure>', page, re.S)
    assert sorted(face_id for face_id, _ in figures) == sorted(face_id for face_id, _, _ in faces)
    by_id = dict(figures)
    for face_id, side, record in faces:
        figure = by_id[html.escape(face_id)]
        assert f'<object data="svg/{face_id}.svg" type="image/svg+xml"' in figure
        assert f'<a href="svg/{face_id}.svg">' in figure
        meta = re.search(r'<span class="meta">([^<]*)</span>', figure).group(1)
        assert meta.startswith(f"{side} · {record.kind.replace('_', ' ')} · origin: {record.origin}")
        assert (screens_output / "svg" / f"{face_id}.svg").is_file()
    assert "<img" not in page and "<script" not in page


def test_svgs_name_the_copied_fonts(screens_output):
    copied = {path.name for path in (screens_output / "fonts").iterdir()}
    assert {family.file for family in fonts.FAMILIES.values()} <= copied
    assert "EBGaramond-OFL.txt" in copied
    for svg in (screens_output / "svg").glob("*.svg"):
        text = svg.read_text(encoding="utf-8")
        urls = set(re.findall(r'url\("\.\./fonts/([^"]+)"\)', text))
        assert urls, f"{svg.name} names no font file"
        assert urls <= copied, svg.name


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium driven by Playwright (the Debian chromium, no browser download; Playwright
    gives it a new, empty profile)."""
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.mark.slow  # a headless Chromium loads every card (about 15 s); the page's own tests below stay quick
def test_gallery_loads_every_card_in_its_fonts_without_errors(db, screens_output, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    problems: list[str] = []
    page.on("console", lambda message: problems.append(f"console {message.type}: {message.text}")
            if message.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("requestfailed", lambda request: problems.append(f"failed: {request.url}"))
    page.goto((screens_output / "index.html").as_uri(), wait_until="load")
    _, faces = _faces(db)
    frames = [frame for frame in page.frames if frame != page.main_frame]
    assert sorted(frame.url.rsplit("/", 1)[-1] for frame in frames) == sorted(f"{face_id}.svg" for face_id, _, _ in faces)
    for frame in frames:
        assert frame.evaluate("document.documentElement.localName") == "svg", frame.url
        state = frame.evaluate("document.fonts.ready.then(() => ({"
                               " faces: [...document.fonts].map(f => f.family.replace(/\"/g, '') + ' ' + f.status),"
                               " garamond: document.fonts.check('12px \"EB Garamond\"')}))")
        assert state["garamond"] and any(face.startswith("EB Garamond ") for face in state["faces"]), frame.url
        assert state["faces"] and all(face.endswith(" loaded") for face in state["faces"]), (frame.url, state)
    page_fonts = page.evaluate("document.fonts.ready.then(() => [...document.fonts].map(f => f.family.replace(/\"/g, '') + ' ' + f.status))")
    assert page_fonts and all(face.endswith(" loaded") for face in page_fonts), page_fonts
    assert "NanumMyeongjo loaded" in page_fonts  # the Korean card's caption (issue 15), never boxes
    assert problems == []
    page.close()


def test_the_page_declares_every_font_its_captions_use(screens_output):
    """Issue 15, Text: the Korean card's caption showed as boxes in a browser without a Korean font, because
    the page declared only EB Garamond. Every family of the page's font stack that is bundled (EB Garamond
    regular, italic, bold; NanumMyeongjo, whose regular weight the captions use) has an @font-face rule
    naming a copied file (the browser test below checks each is loaded and used)."""
    page = (screens_output / "index.html").read_text(encoding="utf-8")
    copied = {path.name for path in (screens_output / "fonts").iterdir()}
    declared = re.findall(r'@font-face \{ font-family: "([^"]+)"; font-weight: (\w+); font-style: (\w+); src: url\("fonts/([^"]+)"\)', page)
    assert {(name, weight) for name, weight, _, _ in declared} >= {("EB Garamond", "normal"), ("EB Garamond", "bold"),
                                                                  ("NanumMyeongjo", "normal")}
    assert {file for *_, file in declared} <= copied
    stack = re.search(r"body \{[^}]*font-family: ([^;]+);", page)
    assert stack is not None and '"NanumMyeongjo"' in stack.group(1)
