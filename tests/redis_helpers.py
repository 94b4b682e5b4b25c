"""A real Redis (Debian's `redis-server`) on a free port of 127.0.0.1, and real computer-player
workers (`python -m bot worker`) beside it: for the remote path's tests and bench/."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"
SECRET = "a test secret shared by the bot and its workers"  # COMPUTER_SECRET
ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    """One redis-server, in memory only, stopped and started again on the same port."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> RedisServer:
        args = [REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        args += ["--appendonly", "no", "--daemonize", "no", "--loglevel", "warning"]
        self._process = subprocess.Popen(args, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not _answers(self.port):
            if time.monotonic() > deadline or self._process.poll() is not None:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        if self._process is not None:
            self._process.kill()  # as a crash would: nothing is saved
            self._process.wait()
            self._process = None

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


class Workers:
    """`python -m bot worker --processes N` against a broker, as an operator starts it."""

    def __init__(
        self, url: str, processes: int = 1, *, nice: int = 0, log: Path | None = None
    ) -> None:
        self.url, self.processes, self.nice = url, processes, nice
        self.log = log  # where their log lines go (else to the test's own stderr)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Workers:
        env = {**os.environ, "COMPUTER_BROKER": self.url, "PYTHONPATH": str(ROOT)}
        env["COMPUTER_SECRET"] = SECRET
        args = [sys.executable, "-m", "bot", "worker", "--processes", str(self.processes)]
        stderr = None if self.log is None else self.log.open("ab")
        self.process = subprocess.Popen(
            args, env=env, cwd=ROOT, start_new_session=True, preexec_fn=self._nicer, stderr=stderr
        )
        if stderr is not None:
            stderr.close()  # the worker has its own copy
        return self

    def _nicer(self) -> None:
        os.nice(self.nice)

    def children(self) -> list[int]:
        """The worker processes' ids (those that run the searches)."""
        assert self.process is not None
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            return [int(pid) for pid in path.read_text().split()]
        except OSError:
            return []

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)  # its own session: the workers too
            self.process.wait()
        self.process = None

    def __enter__(self) -> Workers:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()
