"""What the benchmark reads from /proc: memory and CPU time of processes, and the machine's CPU time.

Linux only, no dependencies. Every reader returns None (or skips the process) when a process has gone.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

CLK_TCK = os.sysconf("SC_CLK_TCK")
PROC = Path("/proc")


def status_kb(pid: int, field: str) -> int | None:
    """A kB field of /proc/<pid>/status (VmRSS, VmHWM), or None."""
    try:
        for line in (PROC / str(pid) / "status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds the process (all its threads) has used."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # the command name may hold spaces
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def pids_named(*names: str) -> list[int]:
    """Pids whose /proc/<pid>/comm is one of ``names`` (e.g. postgres, redis-server)."""
    found = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            comm = (entry / "comm").read_text().strip()
        except OSError:
            continue
        if comm in names:
            found.append(int(entry.name))
    return found


def cmdline(pid: int) -> str:
    try:
        return (
            (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        )
    except OSError:
        return ""


def postgres_pids(database: str) -> list[int]:
    """PostgreSQL's shared processes (postmaster, WAL writer, checkpointer...) and the backends serving
    ``database``; backends of other databases (another engineer's test run) are left out.

    A backend's title is "postgres: <cluster>: <user> <database> <host(port)> <state>".
    """
    found = []
    for pid in pids_named("postgres"):
        title = cmdline(pid)
        tokens = title.split(": ", 2)[-1].split()
        backend = len(tokens) >= 3 and ("(" in tokens[2] or tokens[2] == "[local]")
        if not backend or tokens[1] == database:
            found.append(pid)
    return found


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, over every core."""
    parts = [int(x) for x in (PROC / "stat").read_text().splitlines()[0].split()[1:]]
    idle = parts[3] + (parts[4] if len(parts) > 4 else 0)  # idle + iowait
    total = sum(parts[:8])  # user nice system idle iowait irq softirq steal
    return (total - idle) / CLK_TCK, total / CLK_TCK


def loadavg() -> list[float]:
    return [float(x) for x in (PROC / "loadavg").read_text().split()[:3]]


class CpuMeter:
    """CPU seconds used between start() and stop() by groups of processes, and by the whole machine.

    A group is a list of pids or a function returning one (looked up again at stop(), so that processes
    born during the window, such as new PostgreSQL backends, are counted from their birth).
    """

    def __init__(self, groups: dict[str, list[int] | Callable[[], list[int]]]):
        self.groups = groups
        self._start: dict[str, dict[int, float]] = {}
        self._machine: tuple[float, float] = (0.0, 0.0)

    def _pids(self, name: str) -> list[int]:
        group = self.groups[name]
        return list(group()) if callable(group) else list(group)

    def _sample(self) -> dict[str, dict[int, float]]:
        sample = {}
        for name in self.groups:
            sample[name] = {}
            for pid in self._pids(name):
                value = cpu_seconds(pid)
                if value is not None:
                    sample[name][pid] = value
        return sample

    def start(self) -> None:
        self._start = self._sample()
        self._machine = machine_cpu()
        self._t0 = time.monotonic()

    def stop(self) -> dict:
        """CPU use as % of one core per group, "other" (everything else on the machine) and "idle"."""
        end = self._sample()
        busy0, total0 = self._machine
        busy1, total1 = machine_cpu()
        used = {
            name: sum(value - self._start.get(name, {}).get(pid, 0.0) for pid, value in end[name].items())
            for name in self.groups
        }
        wall = max(time.monotonic() - self._t0, 1e-9)
        result: dict = {name: round(100 * value / wall, 1) for name, value in used.items()}
        result["other"] = round(100 * max(0.0, (busy1 - busy0) - sum(used.values())) / wall, 1)
        result["idle"] = round(100 * max(0.0, (total1 - total0) - (busy1 - busy0)) / wall, 1)
        result["cores"] = os.cpu_count() or 1
        result["seconds"] = {name: round(value, 3) for name, value in used.items()}
        result["wall_s"] = round(wall, 2)
        return result
