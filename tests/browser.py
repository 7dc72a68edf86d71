"""A real headless browser for the tests: Debian's ``chromium``, driven over the DevTools
protocol with the standard library only. The tests that need it are skipped only when no
chromium binary is installed (``.ci/run`` installs one)."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_browser = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary installed")


def chromium_args(profile: Path) -> list[str]:
    """A headless chromium with its own profile and a 1200 x 900 window, and nothing that
    reaches out on its own (updates, sync, background requests)."""
    args = [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
    args += ["--disable-background-networking", "--disable-component-update", "--disable-sync"]
    return args + ["--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=1200,900"]


class DevTools:
    """Headless chromium driven over ``--remote-debugging-pipe`` (the DevTools protocol on
    file descriptors 3 and 4, messages ending in NUL): real key presses, typing and clicks.
    Records every network request its pages make. It opens ``url`` and waits until the
    JavaScript ``ready`` is true; ``script`` runs in each page before the page's own.
    Every wait, the whole session's, ends ``seconds`` after the start."""

    def __init__(self, url: str, profile: Path, ready: str = "true", script: str | None = None, seconds: float = 20) -> None:
        to_browser, self._commands = os.pipe()
        self._replies, from_browser = os.pipe()

        def wire() -> None:  # in the child: the browser reads fd 3 and writes fd 4
            os.dup2(to_browser, 3)
            os.dup2(from_browser, 4)

        args = chromium_args(profile) + ["--remote-debugging-pipe", "about:blank"]
        self.proc = subprocess.Popen(args, preexec_fn=wire, pass_fds=(3, 4), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser)
        self._buffer, self._id = b"", 0
        self.events: list[dict] = []
        self.deadline = time.monotonic() + seconds
        self.script = script
        try:
            page = next(t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page")
            self.session = self.attach(page["targetId"], url, ready)
        except BaseException:
            self.close()
            raise

    def attach(self, target: str, url: str, ready: str) -> str:
        """Open ``url`` in the page ``target`` and make it the one the other methods drive;
        its session id."""
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Network.enable", session=True)
        self.call("Page.enable", session=True)
        if self.script is not None:
            self.call("Page.addScriptToEvaluateOnNewDocument", {"source": self.script}, session=True)
        self.call("Page.navigate", {"url": url}, session=True)
        self.wait_for(f"document.readyState === 'complete' && ({ready})")
        return self.session

    def new_page(self, url: str, ready: str = "true") -> str:
        """Open ``url`` in a second page (a tab of the same browser), which the other
        methods then drive (``self.session = ...`` goes back to another); its session id."""
        return self.attach(self.call("Target.createTarget", {"url": "about:blank"})["targetId"], url, ready)

    def call(self, method: str, params: dict | None = None, session: bool = False) -> dict:
        self._id += 1
        message = {"id": self._id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == self._id:
                    assert "error" not in reply, reply["error"]
                    return reply["result"]
                if "method" in reply:
                    self.events.append(reply)
            left = self.deadline - time.monotonic()
            assert left > 0 and select.select([self._replies], [], [], left)[0], f"browser timed out on {method}"
            chunk = os.read(self._replies, 1 << 16)
            assert chunk, "the browser closed the pipe"
            self._buffer += chunk

    def js(self, expression: str):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def wait_for(self, condition: str) -> None:
        while not self.js(f"!!({condition})"):
            assert time.monotonic() < self.deadline, f"never true: {condition}"
            time.sleep(0.05)

    def key(self, key: str, code: int) -> None:
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code}, True)

    def type(self, text: str) -> None:
        """``text`` typed into the element that has the focus, as a keyboard would."""
        self.call("Input.insertText", {"text": text}, session=True)

    def click(self, selector: str) -> None:
        """A real mouse click in the middle of the element, scrolled into view first."""
        box = self.js(
            f"(function(e){{e.scrollIntoView({{block: 'center'}}); var r = e.getBoundingClientRect();"
            f"return [r.left + r.width / 2, r.top + r.height / 2]}})(document.querySelector({json.dumps(selector)}))"
        )
        for kind in ("mousePressed", "mouseReleased"):
            event = {"type": kind, "x": box[0], "y": box[1], "button": "left", "clickCount": 1}
            self.call("Input.dispatchMouseEvent", event, True)

    def requests(self) -> list[str]:
        """The URL of every request any of the pages made (websockets too), in order."""
        return [
            e["params"]["request"]["url"] if e["method"] == "Network.requestWillBeSent" else e["params"]["url"]
            for e in self.events
            if e["method"] in ("Network.requestWillBeSent", "Network.webSocketCreated")
        ]

    def close(self) -> None:
        try:
            self.call("Browser.close")
            self.proc.wait(timeout=5)
        except Exception:
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            os.close(self._commands)
            os.close(self._replies)
