"""The web page (web/), driven in headless Chromium as a person would use
it, and checked against the command line: the attack counts it shows, the
completions it counts, the completion it shows, the search it runs and the
solutions it lists (issue 37); the empty board counted on the GPU through
WebGPU where the browser has an adapter, and on the CPU where it has none
(issue 51).

Needs web/queens.wasm (web/build.sh), chromium and chromium-driver, and
the `queens` binary: $QUEENS, else target/debug/queens. The screenshots go
to $QUEENS_ARTEFACTS (default target/ci-artefacts/web).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import pytest
from PIL import Image
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser import Page, chromium, serve

ROOT = Path(__file__).resolve().parents[2]
QUEENS = os.environ.get("QUEENS") or str(ROOT / "target" / "debug" / "queens")
ARTEFACTS = Path(os.environ.get("QUEENS_ARTEFACTS") or ROOT / "target" / "ci-artefacts" / "web")

# OEIS A000170 (https://oeis.org/A000170), n = 0 to 13: the solutions of
# the empty n-board.
A000170 = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712]


def queens(*args: str) -> str:
    """The command line's output for `args`."""
    return subprocess.run([QUEENS, *args], check=True, capture_output=True, text=True).stdout


def squares(cells) -> str:
    """0-based squares as the command line takes them: 1-based ROW:COL,..."""
    return ",".join(f"{r + 1}:{c + 1}" for r, c in cells)


def cli_count(n: int, given=(), blocked=()) -> int:
    args = ["count", str(n), "-q"]
    if given:
        args += ["--given", squares(given)]
    if blocked:
        args += ["--blocked", squares(blocked)]
    return int(queens(*args))


def reference_attacks(n: int, queens_at) -> list[list[int]]:
    """How many queens attack each square: same row, column or diagonal,
    a queen's own square not counted."""
    return [
        [
            sum(
                1
                for qr, qc in queens_at
                if (qr, qc) != (r, c) and (qr == r or qc == c or abs(qr - r) == abs(qc - c))
            )
            for c in range(n)
        ]
        for r in range(n)
    ]


@pytest.fixture(scope="module")
def url():
    with serve() as url:
        yield url


@pytest.fixture(scope="module")
def driver():
    with chromium() as driver:
        yield driver


@pytest.fixture(scope="module")
def gpu_driver():
    """A browser whose WebGPU has an adapter (SwiftShader): where it has
    none, the GPU tests fail rather than skip."""
    with chromium(webgpu=True) as driver:
        yield driver


@pytest.fixture
def page(driver, url):
    page = Page(driver, url)
    yield page
    assert page.console_errors() == []


def test_the_binary_is_the_one_with_given_queens():
    # A stale binary without --given would make every comparison fail with
    # a usage error; say so plainly instead.
    assert "--given" in queens("count", "--help"), f"{QUEENS} has no count --given"


# Positions clicked on the page, 0-based: (n, queens, blocked squares).
POSITIONS = [
    (6, [], []),
    (8, [(0, 1), (2, 2)], []),
    (8, [(0, 0)], [(1, 2), (5, 5)]),
    (10, [(0, 0), (4, 5)], [(1, 3), (6, 6), (9, 2)]),
    (12, [(3, 7)], []),
    # Two queens that attack each other: no completion.
    (7, [(0, 0), (3, 3)], []),
]


@pytest.mark.parametrize("n,given,blocked", POSITIONS)
def test_attacks_and_completions_match_the_command_line(page, n, given, blocked):
    page.size(n)
    page.place(given, blocked)
    state, count = page.wait_for_count()
    assert state == "done", page.el("#count-note").text
    assert int(count) == cli_count(n, given, blocked)
    want = reference_attacks(n, given)
    shown = page.attacks()
    for r in range(n):
        for c in range(n):
            k, text = shown[r][c]
            assert k == want[r][c], f"square {r + 1}:{c + 1}"
            # The number is written on every attacked square but those that
            # hold a queen or are blocked.
            plain = (r, c) not in given and (r, c) not in blocked
            assert text == (str(k) if plain and k > 0 else ""), f"square {r + 1}:{c + 1}"
    # Queens under attack are marked as such.
    for r, c in given:
        conflict = "conflict" in page.cell(r, c).get_attribute("class")
        assert conflict == (want[r][c] > 0)


@pytest.mark.parametrize("n,total", [(17, 95815104), (20, 39029188884)])
def test_an_empty_board_too_long_to_count_shows_the_oeis_total(page, n, total):
    # Issue 47, item 15: "not counted yet ... about 7.30 h" for boards
    # whose totals the library knows.
    page.size(n)
    state, count = page.wait_for_count()
    assert (state, count) == ("known", str(total)), page.el("#count-note").text
    assert page.el("#count").text == f"{total:,}"
    assert "OEIS A000170" in page.el("#count-note").text
    assert page.el("#count-anyway").is_displayed()
    if n == 20:
        # A queen placed: a problem, whose total OEIS does not give, and
        # still too long to count at once.
        page.place([(0, 0)])
        state, _ = page.wait_for_count()
        assert state == "long", page.el("#count-note").text


def test_two_queens_in_a_row_are_refused_in_the_command_lines_words(page):
    page.size(8)
    page.place([(0, 0), (0, 3)])
    assert page.wait_for_count() == ("error", "")
    cli = subprocess.run(
        [QUEENS, "count", "8", "--given", "1:1,1:4", "-q"], capture_output=True, text=True
    )
    assert cli.returncode == 2
    assert cli.stderr.strip() == f"queens: {page.el('#count-note').text}"


def test_the_keyboard_places_removes_and_blocks(page):
    page.size(8)
    page.cell(0, 0).click()  # a queen on 1:1, and the focus there
    page.cell(0, 0).send_keys(Keys.ENTER)  # removed again
    board = page.el("#board")
    active = page.driver.switch_to.active_element
    active.send_keys(Keys.ARROW_DOWN, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.SPACE)  # 2:3
    page.driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN, "x")  # 3:3 blocked
    assert board.find_elements(By.CSS_SELECTOR, ".cell.queen") == [page.cell(1, 2)]
    assert board.find_elements(By.CSS_SELECTOR, ".cell.blocked") == [page.cell(2, 2)]
    state, count = page.wait_for_count()
    assert (state, int(count)) == ("done", cli_count(8, [(1, 2)], [(2, 2)]))


def test_show_one_shows_the_command_lines_completion(page):
    page.size(9)
    given = [(0, 2), (4, 4)]
    page.place(given)
    page.el("#show-one").click()
    page.wait(lambda d: d.find_elements(By.CSS_SELECTOR, ".cell.ghost"))
    queens_at = sorted(
        (int(c.get_attribute("data-row")), int(c.get_attribute("data-col")))
        for c in page.driver.find_elements(By.CSS_SELECTOR, ".cell.queen, .cell.ghost")
    )
    want = json.loads(queens("one", "9", "--given", squares(given), "--json"))["cols"]
    assert queens_at == list(enumerate(want))


def test_the_search_of_the_6_board_runs_to_the_end_as_the_command_line_counts(page):
    page.size(6)
    page.el("#speed").send_keys(Keys.END)  # as fast as it goes
    page.el("#search-run").click()
    page.wait(lambda d: d.find_element(By.ID, "search-status").get_attribute("data-state") == "done")
    nodes = int(page.el("#search-nodes").text.replace(",", ""))
    solutions = int(page.el("#search-solutions").text.replace(",", ""))
    assert solutions == int(queens("count", "6", "-q"))
    # The page's search is row by row with no symmetry: its nodes are the
    # tree that `ladder`'s row-by-row steps walk (153, OEIS A319283), not
    # the bitmask step's half tree (77).
    steps = {s["algorithm"]: s for s in map(json.loads, queens("ladder", "6", "--json").splitlines())}
    assert nodes == steps["flags"]["nodes"] == steps["attack-counts"]["nodes"]
    assert nodes != steps["bitmask"]["nodes"]


def test_the_search_of_a_position_finds_its_completions(page):
    page.size(8)
    given, blocked = [(2, 4)], [(0, 0), (7, 3)]
    page.place(given, blocked)
    state, count = page.wait_for_count()
    page.el("#speed").send_keys(Keys.END)
    page.el("#search-run").click()
    page.wait(lambda d: d.find_element(By.ID, "search-status").get_attribute("data-state") == "done")
    assert int(page.el("#search-solutions").text) == int(count) == cli_count(8, given, blocked)


def test_the_solutions_of_the_8_board_by_class(page):
    page.size(8)
    page.el("#solutions summary").click()
    page.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#classes .class"))
    classes = page.driver.find_elements(By.CSS_SELECTOR, "#classes .class")
    sizes = [len(c.find_elements(By.CSS_SELECTOR, ".thumb")) for c in classes]
    unique = json.loads(queens("count", "8", "--unique", "--json"))
    assert len(classes) == unique["unique"]
    assert sum(sizes) == unique["solutions"]
    assert sizes.count(4) == unique["classes"]["rotation_180"]
    assert sizes.count(2) == unique["classes"]["rotation_90"]
    # A thumbnail puts its solution on the board: one completion, itself.
    classes[0].find_element(By.CSS_SELECTOR, ".thumb").click()
    assert len(page.driver.find_elements(By.CSS_SELECTOR, ".cell.queen")) == 8
    assert page.wait_for_count() == ("done", "1")


def not_blank(png: bytes, what: str) -> Image.Image:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 20) or []
    assert len(colours) > 20, f"{what}: {len(colours)} colours: a blank page?"
    return image


def test_screenshots_are_not_blank(url):
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    with chromium(1200, 900) as driver:
        page = Page(driver, url)
        page.place([(0, 1), (2, 2)], [(5, 5)])
        page.wait_for_count()
        png = driver.get_screenshot_as_png()
        (ARTEFACTS / "page.png").write_bytes(png)
        image = not_blank(png, "page.png")
        # The board alone: light and dark squares, attacked ones, queens.
        board = page.el("#board").screenshot_as_png
        (ARTEFACTS / "board.png").write_bytes(board)
        assert len(not_blank(board, "board.png").getcolors(1 << 20)) > 4
        # Most of the page is not the background.
        background = image.getpixel((image.width - 5, image.height - 5))
        share = sum(k for k, colour in image.getcolors(1 << 20) if colour == background)
        assert share < 0.8 * image.width * image.height
    # A phone: nothing wider than the screen, the board within it.
    with chromium(390, 844, phone=True) as driver:
        page = Page(driver, url)
        page.place([(0, 1), (2, 2)])
        page.wait_for_count()
        (ARTEFACTS / "phone.png").write_bytes(driver.get_screenshot_as_png())
        width, scroll = driver.execute_script(
            "return [innerWidth, document.documentElement.scrollWidth]"
        )
        assert (width, scroll) == (390, 390)
        board = driver.execute_script("return document.getElementById('board').getBoundingClientRect().right")
        assert board <= width


def where(page: Page) -> tuple[str, str]:
    """Where the page says the last count ran: ("gpu" | "cpu", its words)."""
    out = page.el("#count-where")
    return out.get_attribute("data-where"), out.text


def test_the_empty_boards_count_on_the_gpu(gpu_driver, url):
    # Issue 51, item 4: the portable executor's kernel, run by the page
    # through WebGPU; the module checks each total against A000170 and the
    # page counts on the CPU, saying so, where the GPU's is wrong. On
    # SwiftShader n = 12 and 13 take two rounds (gpu.js): the walks paused
    # by the first are resumed.
    page = Page(gpu_driver, url)
    for n in range(4, 14):
        page.size(n)
        state, count = page.wait_for_count()
        ran, words = where(page)
        assert ran == "gpu", f"n = {n}: {words}"
        assert (state, int(count)) == ("done", A000170[n]), f"n = {n}"
        assert words.startswith("Counted on the GPU (") and words.endswith(", through WebGPU).")
    # A position is not a whole-board plan: the CPU counts it.
    page.place([(0, 1)], [(5, 5)])
    state, count = page.wait_for_count()
    assert (state, int(count)) == ("done", cli_count(13, [(0, 1)], [(5, 5)]))
    assert where(page) == ("cpu", "Counted on the CPU (the GPU counts the empty board only).")
    assert page.console_errors() == []


def test_without_an_adapter_the_page_counts_on_the_cpu(page):
    # Headless Chromium on Linux without the WebGPU flag has navigator.gpu
    # but no adapter.
    page.size(10)
    assert page.wait_for_count() == ("done", str(A000170[10]))
    assert where(page) == ("cpu", "Counted on the CPU (WebGPU is here but found no adapter).")


def test_asked_not_to_the_page_counts_on_the_cpu(gpu_driver, url):
    page = Page(gpu_driver, url + "?gpu=off")
    page.size(9)
    assert page.wait_for_count() == ("done", str(A000170[9]))
    assert where(page) == (
        "cpu",
        "Counted on the CPU (the page was asked not to use it: ?gpu=off).",
    )
    assert page.console_errors() == []
