"""A headless Chromium driven over the DevTools protocol (aiohttp's websocket client), for the HTML report
tests: open a page, evaluate JavaScript, set the viewport, take a screenshot."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

__all__ = ["Browser", "find_chromium"]

_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")


def find_chromium() -> str | None:
    """The Chromium (or Chrome) executable: ``TOOLWIRE_CHROMIUM``, else the first on the PATH."""
    given = os.environ.get("TOOLWIRE_CHROMIUM")
    if given:
        return given if Path(given).is_file() else None
    return next((p for p in map(shutil.which, _NAMES) if p), None)


class Browser:
    """One headless Chromium and one page in it; every method waits for the browser's answer."""

    def __init__(self, executable: str) -> None:
        self.profile = tempfile.TemporaryDirectory(prefix="toolwire-chromium-")
        self.process = subprocess.Popen(
            [
                executable,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-extensions",
                "--no-first-run",
                "--no-default-browser-check",
                "--remote-debugging-port=0",
                f"--user-data-dir={self.profile.name}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: close() stops the helpers it forks too
        )
        self.loop = asyncio.new_event_loop()
        self.ids = itertools.count(1)
        self.events: list[dict[str, Any]] = []
        try:
            port = self._port()
            self.loop.run_until_complete(self._connect(port))
        except BaseException:
            self.close()
            raise

    def _port(self) -> int:
        marker = Path(self.profile.name) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"chromium exited with {self.process.returncode}")
            if marker.is_file():
                text = marker.read_text().split()
                if text:
                    return int(text[0])
            time.sleep(0.05)
        raise RuntimeError("chromium did not open its DevTools port in 30 s")

    async def _connect(self, port: int) -> None:
        self.session = aiohttp.ClientSession()
        for _ in range(100):
            async with self.session.get(f"http://127.0.0.1:{port}/json/list") as resp:
                pages = [t for t in await resp.json() if t.get("type") == "page"]
            if pages:
                break
            await asyncio.sleep(0.05)
        else:
            raise RuntimeError("chromium has no page")
        self.ws = await self.session.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0)
        for domain in ("Page", "Runtime"):
            await self._send(f"{domain}.enable", {})

    async def _send(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        n = next(self.ids)
        await self.ws.send_str(json.dumps({"id": n, "method": method, "params": params}))
        while True:
            msg = json.loads((await asyncio.wait_for(self.ws.receive(), 60)).data)
            if msg.get("id") == n:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self.events.append(msg)

    async def _until(self, event: str, timeout: float) -> None:
        seen = next((e for e in self.events if e.get("method") == event), None)
        deadline = time.monotonic() + timeout
        while seen is None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(event)
            msg = json.loads((await asyncio.wait_for(self.ws.receive(), left)).data)
            self.events.append(msg)
            if msg.get("method") == event:
                seen = msg

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        return self.loop.run_until_complete(self._send(method, params))

    def open(self, url: str, timeout: float = 30) -> None:
        """Navigate and wait for the load event."""
        self.events.clear()
        self.call("Page.navigate", url=url)
        self.loop.run_until_complete(self._until("Page.loadEventFired", timeout))

    def js(self, expression: str) -> Any:
        """The value of a JavaScript expression (a promise is awaited)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result.get("result", {}).get("value")

    def viewport(self, width: int, height: int, mobile: bool = False) -> None:
        self.call(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=mobile,
        )

    def screenshot(self, path: Path) -> Path:
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        async def shut() -> None:
            if getattr(self, "ws", None) is not None:
                await self.ws.close()
            if getattr(self, "session", None) is not None:
                await self.session.close()

        try:
            self.loop.run_until_complete(shut())
        finally:
            self.loop.close()
            self._signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGKILL)
                self.process.wait()
            self._remove_profile()

    def _signal(self, sig: int) -> None:
        """``sig`` to the browser's whole process group (renderers and crash handler write to the profile)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, sig)

    def _remove_profile(self) -> None:
        """Remove the profile; a helper that outlived the group's signal may still be writing to it, so a few
        tries a moment apart."""
        for _ in range(50):
            try:
                self.profile.cleanup()
                return
            except OSError:
                time.sleep(0.1)
        shutil.rmtree(self.profile.name, ignore_errors=True)
