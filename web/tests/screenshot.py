"""Takes the screenshot of the page that docs/web.md shows: an 8-board
with two queens placed and a square blocked, the attacks on every square,
the count of completions, and one completion shown in outline.

    bash web/build.sh
    python3 web/tests/screenshot.py docs/web.png

Needs what the tests need (selenium, chromium, chromium-driver).
"""

from __future__ import annotations

import sys
from pathlib import Path

from selenium.webdriver.common.by import By

from browser import Page, chromium, serve


def main(out: Path) -> None:
    with serve() as url, chromium(1100, 860) as driver:
        page = Page(driver, url)
        page.size(8)
        page.place([(0, 2), (1, 5)], [(4, 4)])
        state, count = page.wait_for_count()
        assert state == "done", page.el("#count-note").text
        page.el("#show-one").click()
        page.wait(lambda d: d.find_elements(By.CSS_SELECTOR, ".cell.ghost"))
        # No focus ring, and the page from its top.
        driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
        out.write_bytes(driver.get_screenshot_as_png())
        print(f"{out}: 8-board, {count} completions")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python3 web/tests/screenshot.py OUT.png")
    main(Path(sys.argv[1]))
