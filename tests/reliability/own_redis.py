"""A redis-server of a test's own, on a free port (never the shared one), that the test can stop for
real (SIGTERM, SIGKILL, SIGSTOP) and start again on the same port."""

from __future__ import annotations

import shutil
import signal
import subprocess
import time

import pytest

from tests.reliability.conftest import free_port


class OwnRedis:
    def __init__(self):
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                *("--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"),
                *("--enable-debug-command", "local"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while self.cli("PING") != "PONG":
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def cli(self, *args: str) -> str:
        result = subprocess.run(
            ["redis-cli", "-p", str(self.port), *args], capture_output=True, text=True, timeout=10
        )
        return result.stdout.strip()

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        """A clean shutdown (SIGTERM): the port is closed, clients get "connection refused"."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(10)

    def pause(self) -> None:
        """SIGSTOP: the port still accepts connections, nothing answers (a hung server)."""
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.proc.send_signal(signal.SIGCONT)


@pytest.fixture
def own_redis():
    if not shutil.which("redis-server"):
        pytest.skip("redis-server is not installed")
    redis = OwnRedis()
    redis.start()
    yield redis
    if redis.proc and redis.proc.poll() is None:
        redis.resume()  # a paused server ignores SIGKILL's sibling signals until continued
    redis.kill()
