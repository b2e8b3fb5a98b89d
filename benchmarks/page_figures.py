"""The README's pictures of `pipscover serve`: a puzzle of our own making (never an NYT day) with its first hint
shown, at 1280x800 and on a 390x844 phone. Needs Playwright and Debian's Chromium, as the page's
tests do.

    python benchmarks/page_figures.py encodings/figures
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from pipscover.formats import puzzle_to_nyt
from pipscover.generate.generator import generate

CHROMIUM = "/usr/bin/chromium"
ARGUMENTS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
SEED = 11  # a unique 8-domino puzzle with a hint worth showing


def main(folder: str) -> None:
    with tempfile.TemporaryDirectory() as work:
        puzzle = Path(work) / "made-by-pipscover.json"
        puzzle.write_text(json.dumps(puzzle_to_nyt(generate(dominoes=8, seed=SEED).puzzle)))
        server = subprocess.Popen([sys.executable, "-m", "pipscover", "serve", "--port", "0", "--json",
                                   "--cache-dir", work], stdout=subprocess.PIPE, text=True)
        try:
            url = json.loads(server.stdout.readline())["url"]  # type: ignore[union-attr]  # piped above
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGUMENTS)
                for width, height, name in ((1280, 800, "serve-1280x800.png"), (390, 844, "serve-390x844.png")):
                    phone = width < 800  # a touch screen, as a phone's: the page leaves out what only keys do
                    page = browser.new_page(viewport={"width": width, "height": height}, has_touch=phone,
                                            is_mobile=phone)
                    show_a_hint(page, url, puzzle)
                    if phone:  # the whole page, in a window as tall as it (a full-page picture drops the touch
                        # screen's media: it showed what only keys do)
                        tall = page.evaluate("document.documentElement.scrollHeight")
                        page.set_viewport_size({"width": width, "height": tall})
                    page.screenshot(path=str(Path(folder) / name))
                    page.close()
                browser.close()
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=10)


def show_a_hint(page: Page, url: str, puzzle: Path) -> None:
    """Open the puzzle through the file picker and ask for a hint."""
    page.goto(url)
    page.set_input_files("#file", str(puzzle))
    page.wait_for_selector("rect.cell")
    page.click("#hint")
    page.wait_for_selector(".hint-cell")


if __name__ == "__main__":
    main(sys.argv[1])
