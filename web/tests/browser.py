"""The page in a real browser: web/ served on a loopback port by a static
server in a thread, and Debian's headless Chromium driven through
WebDriver (selenium, chromium, chromium-driver). Shared by the tests
(test_page.py) and by the script that takes docs/web.png (screenshot.py).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import threading
from pathlib import Path
from typing import Iterator

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

WEB = Path(__file__).resolve().parent.parent

# What gives headless Chromium on Linux a WebGPU adapter: the flag alone
# (Chromium 156 answers with SwiftShader, its Vulkan on the CPU).
WEBGPU_FLAGS = ("--enable-unsafe-webgpu",)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@contextlib.contextmanager
def serve() -> Iterator[str]:
    """web/ on a free loopback port, for as long as the block runs: its URL."""
    wasm = WEB / "queens.wasm"
    if not wasm.is_file():
        raise RuntimeError(f"{wasm} is missing: run web/build.sh first")
    handler = functools.partial(_Quiet, directory=str(WEB))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


def _find(names: list[str], variable: str) -> str:
    if os.environ.get(variable):
        return os.environ[variable]
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    raise RuntimeError(f"none of {names} is on PATH (or set {variable})")


@contextlib.contextmanager
def chromium(
    width: int = 1200, height: int = 900, phone: bool = False, webgpu: bool = False
) -> Iterator[WebDriver]:
    """Headless Chromium with a window of width x height CSS pixels, or
    with a phone's screen of that size (a window is at least 500 wide).
    Without `webgpu` it has navigator.gpu but no adapter (Linux's WebGPU
    is behind a flag); with it, SwiftShader (Vulkan on the CPU, shipped
    with Chromium) is its adapter."""
    options = webdriver.ChromeOptions()
    if phone:
        metrics = {"width": width, "height": height, "pixelRatio": 1, "mobile": True, "touch": True}
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    options.binary_location = _find(["chromium", "chromium-browser"], "CHROMIUM")
    for arg in (
        "--headless=new",
        # CI runs as root, where Chromium's sandbox cannot start.
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        f"--window-size={width},{height}",
        "--force-device-scale-factor=1",
        *(WEBGPU_FLAGS if webgpu else ()),
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(_find(["chromedriver"], "CHROMEDRIVER"))
    driver = webdriver.Chrome(service=service, options=options)
    try:
        yield driver
    finally:
        driver.quit()


class Page:
    """The page, as a person uses it: clicks, keys, and what it shows."""

    def __init__(self, driver: WebDriver, url: str) -> None:
        self.driver = driver
        driver.get(url)
        self.wait_for_count()

    def el(self, css: str) -> WebElement:
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def wait(self, what, timeout: float = 30):
        return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(what)

    def size(self, n: int) -> None:
        Select(self.el("#size")).select_by_value(str(n))
        self.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".cell")) == n * n)
        self.wait_for_count()

    def n(self) -> int:
        return int(Select(self.el("#size")).first_selected_option.get_attribute("value"))

    def cell(self, row: int, col: int) -> WebElement:
        """The square in `row` and `col`, 0-based."""
        return self.el(f'.cell[data-row="{row}"][data-col="{col}"]')

    def mode(self, what: str) -> None:
        self.el(f'input[name=mode][value="{what}"]').click()

    def place(self, queens=(), blocked=()) -> None:
        """Clicks each queen's square, then each blocked one (0-based)."""
        self.mode("queen")
        for row, col in queens:
            self.cell(row, col).click()
        self.mode("block")
        for row, col in blocked:
            self.cell(row, col).click()
        self.mode("queen")

    def clear(self) -> None:
        self.el("#clear").click()
        self.wait_for_count()

    def wait_for_count(self, timeout: float = 60) -> tuple[str, str]:
        """Waits until the completion count is settled: (state, exact count)."""
        out = self.wait(
            lambda d: (o := d.find_element(By.ID, "count")).get_attribute("data-state")
            in ("done", "known", "long", "error")
            and o,
            timeout,
        )
        return out.get_attribute("data-state"), out.get_attribute("data-count")

    def attacks(self) -> list[list[tuple[int, str]]]:
        """Each square's attack count (its data-attacks) and the number it
        shows, row by row."""
        cells = self.driver.execute_script(
            "return [...document.querySelectorAll('.cell')].map(c => "
            "[+c.dataset.row, +c.dataset.col, +c.dataset.attacks, c.querySelector('.num').textContent])"
        )
        n = self.n()
        grid = [[(0, "")] * n for _ in range(n)]
        for row, col, k, text in cells:
            grid[row][col] = (k, text)
        return grid

    def console_errors(self) -> list[str]:
        return [
            e["message"]
            for e in self.driver.get_log("browser")
            if e["level"] == "SEVERE"
        ]

