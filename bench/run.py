"""The whole live-play benchmark (`make bench`): servers, capacity ramps, saturation, scale-out, report.

For 1 and then 2 daphne processes (production settings, PostgreSQL + Redis), for our game consumer and
for the bare Channels baseline, back to back in one run:

- a capacity ramp: 1 s mean think time, G tables stepped up until a step misses p99 < 100 ms with no
  error; the capacity is the offered load (G / think actions per second) of the last step that passed;
- a saturation step: think time 0, the throughput is what the server sustains.

Every step starts fresh servers (so their peak memory is that step's) and ends with the log check.
The figures go to docs/benchmarks/latest.json; the summary and the neighbour pair to the generated part
of docs/BENCHMARKS.md (every step's table would take that page past its length; `--report` prints it).

    python -m bench.run                 # everything (about an hour)
    python -m bench.run --quick         # a smoke run of a minute: tiny steps, nothing written to docs/
    python -m bench.run --profile 20    # py-spy on the server during a saturation step of ours
    python -m bench.run --report docs/benchmarks/latest.json   # a run's whole report, every step
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from bench import loadgen, procstat

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts" / "bench"
JSON_OUT = ROOT / "docs" / "benchmarks" / "latest.json"
MD_OUT = ROOT / "docs" / "BENCHMARKS.md"
BEGIN, END = "<!-- bench:begin (written by `make bench`) -->", "<!-- bench:end -->"

DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/dicehall_loadbench")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/1")
FIRST_PORT = int(os.environ.get("BENCH_PORT", "8101"))
# The servers run the code in this directory (default: this checkout). Pointing it at a copy of an older
# tree measures "before" against "after" with the same generator.
SERVER_ROOT = Path(os.environ.get("BENCH_SERVER_ROOT", str(ROOT)))
DATABASE_NAME = DATABASE_URL.rsplit("/", 1)[1]
# Redis pub/sub channels are shared by every database number of a Redis server: two benchmarks that
# share one (a second run on BENCH_PORT/BENCH_REDIS_URL of its own) must differ in their channel-layer
# prefix, or each hears the other's events for the same game ids and the same users' notices groups.
LAYER_PREFIX = os.environ.get(
    "BENCH_LAYER_PREFIX",
    "loadbench" if DATABASE_NAME == "dicehall_loadbench" else f"loadbench-{DATABASE_NAME}",
)
P99_LIMIT_MS = 100.0
# A step is repeated when processes that are not the benchmark's (another engineer's test run) used
# more than this share of one core during it; before each step the benchmark waits for that too.
FOREIGN_LIMIT = 25.0
THINK = 1.0
RATIO_TARGET = 0.8  # ours / baseline, capacity and saturated throughput
SCALE_OUT_TARGET = 1.5  # 2 processes / 1, saturated
SOCKETS_RSS_LIMIT_MB = 600  # the quiet-socket step (5,000 sockets): one process's peak RSS
# The other tenant of a shared machine: busy 5 ms, asleep 5 ms, about half a core (--neighbour).
NEIGHBOUR_CODE = """
import time
while True:
    end = time.perf_counter() + 0.005
    while time.perf_counter() < end:
        pass
    time.sleep(0.005)
"""

# The environment of every server process: production settings as docker-compose runs them.
SERVER_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings.production",
    "DEBUG": "false",
    "CONN_MAX_AGE": "60",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "SECURE_SSL_REDIRECT": "false",
    "CHANNEL_LAYER_PREFIX": LAYER_PREFIX,
    "RATE_LIMIT_KEY_PREFIX": LAYER_PREFIX,
    "LOG_LEVEL": "WARNING",
    "PYTHONUNBUFFERED": "1",
}


# --- servers ---------------------------------------------------------------------------------------


class Servers:
    """n daphne processes on consecutive ports, started fresh and stopped after each step."""

    def __init__(self, count: int, label: str, extra_env: dict[str, str] | None = None):
        self.ports = [FIRST_PORT + i for i in range(count)]
        self.label = label
        self.extra_env = extra_env or {}
        self.procs: list[subprocess.Popen] = []
        self.logs = []

    def __enter__(self) -> Servers:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        env = {
            **os.environ,
            **SERVER_ENV,
            "DATABASE_URL": DATABASE_URL,
            "REDIS_URL": REDIS_URL,
            **self.extra_env,
        }
        for port in self.ports:
            log = open(ARTIFACTS / f"daphne-{port}.log", "a")
            log.write(f"\n--- {time.strftime('%H:%M:%S')} {self.label}\n")
            log.flush()
            self.logs.append(log)
            self.procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "daphne",
                        "-b",
                        "127.0.0.1",
                        "-p",
                        str(port),
                        "bench.asgi:application",  # the site's, plus the baseline's fan-out
                    ],
                    cwd=SERVER_ROOT,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    preexec_fn=loadgen.raise_nofile,  # thousands of sockets need more than 1,024 files
                )
            )
        for port, proc in zip(self.ports, self.procs, strict=True):
            _wait_healthy(port, proc)
        return self

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def __exit__(self, *exc) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        for log in self.logs:
            log.close()


class Neighbour:
    """A process that takes about half a core for the whole step (NEIGHBOUR_CODE), or nothing."""

    def __init__(self, on: bool):
        self.on = on
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> Neighbour:
        if self.on:
            self.proc = subprocess.Popen([sys.executable, "-c", NEIGHBOUR_CODE])
        return self

    @property
    def pids(self) -> list[int]:
        return [self.proc.pid] if self.proc else []

    def __exit__(self, *exc) -> None:
        if self.proc:
            self.proc.terminate()
            self.proc.wait(10)


def _wait_healthy(port: int, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"daphne on port {port} did not come up (see {ARTIFACTS}/daphne-{port}.log)")
        time.sleep(0.2)


# --- the database ----------------------------------------------------------------------------------


def prepare_database() -> None:
    """Create the benchmark database if needed, migrate it and empty it (every run starts the same)."""
    import psycopg

    name = DATABASE_URL.rsplit("/", 1)[1]
    admin = DATABASE_URL.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')  # a name from our own setting
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    call_command("flush", verbosity=0, interactive=False)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


# --- machine and load --------------------------------------------------------------------------------


def machine() -> dict:
    cpu = ""
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    mem_kb = procstat.status_kb(1, "VmRSS")  # any pid; real total below
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            mem_kb = int(line.split()[1])

    def version(cmd: list[str]) -> str:
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=10).stdout.strip()
        except OSError:
            return "?"

    return {
        "cores": os.cpu_count(),
        "cpu": cpu,
        "memory_gib": round(mem_kb / 2**20, 1),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "postgresql": version(["psql", "-h", "127.0.0.1", "-U", "postgres", "-Atc", "SHOW server_version"]),
        "redis": version(["redis-cli", "-u", REDIS_URL, "INFO", "server"])
        .split("redis_version:")[-1]
        .split()[0]
        if shutil.which("redis-cli")
        else "?",
        "generator": "one asyncio process on the same machine",
    }


def wait_for_quiet(max_wait: float, limit: float = 1.0) -> dict:
    """Wait (up to max_wait seconds) until the 1-minute load average is at most ``limit``."""
    start = time.monotonic()
    first = procstat.loadavg()
    while True:
        load = procstat.loadavg()
        if load[0] <= limit:
            return {"load_before": first, "load_at_start": load, "waited_s": round(time.monotonic() - start)}
        if time.monotonic() - start > max_wait:
            return {
                "load_before": first,
                "load_at_start": load,
                "waited_s": round(time.monotonic() - start),
                "warning": f"the machine stayed busy (load {load[0]}); figures are not trustworthy",
            }
        print(f"load average {load[0]:.2f} > {limit}: waiting", flush=True)
        time.sleep(60)


# --- steps -------------------------------------------------------------------------------------------


def parse_step_spec(spec: str) -> dict:
    """mode:processes:tables:think[:quiet[:watchers]] -> the step's settings.

    With a 5th field alone it is the number of quiet sockets, split by loadgen.split_quiet; with a 6th
    the 5th is the notices sockets and the 6th the idle game pages."""
    fields = spec.strip().split(":")
    if not 4 <= len(fields) <= 6:
        raise ValueError(f"a step is mode:processes:tables:think[:quiet[:watchers]], not {spec!r}")
    mode, processes, games, think = fields[0], int(fields[1]), int(fields[2]), float(fields[3])
    if mode not in ("ours", "baseline"):
        raise ValueError(f"no mode {mode!r}")
    notices = watchers = 0
    if len(fields) == 5:
        notices, watchers = loadgen.split_quiet(int(fields[4]), games * loadgen.SEATS)
    elif len(fields) == 6:
        notices, watchers = int(fields[4]), int(fields[5])
    return {
        "mode": mode,
        "processes": processes,
        "games": games,
        "think": think,
        "quiet_notices": notices,
        "quiet_watchers": watchers,
    }


def _p99(run: dict) -> float:
    value = run["latency"]["p99_ms"]
    return float("inf") if value is None else value


def median_index(runs: list[dict]) -> int:
    """The run whose p99 is the median (of an even count, the worse of the two middle ones)."""
    order = sorted(range(len(runs)), key=lambda i: _p99(runs[i]))
    return order[len(runs) // 2]


def failed_already(runs: list[dict], repeats: int, limit: float = P99_LIMIT_MS) -> bool:
    """Whether the step has failed whatever the runs still to come show: a run had an error, or more
    than half of the ``repeats`` runs missed the p99 limit (then the median misses it). The ladder
    stops there instead of spending minutes on runs that cannot change the verdict."""
    if any(r["errors"] for r in runs):
        return True
    return sum(1 for r in runs if _p99(r) >= limit) > repeats // 2


def combine_runs(runs: list[dict], limit: float = P99_LIMIT_MS) -> dict:
    """A step run K times: the median run's figures, every run's p99 and errors. It passes if the median
    run's p99 is under ``limit`` and no run had an error (a lost action in any run fails the step)."""
    result = dict(runs[median_index(runs)])
    kinds: dict[str, int] = {}
    for run in runs:
        for kind, n in run["error_kinds"].items():
            kinds[kind] = kinds.get(kind, 0) + n
    result["repeats"] = len(runs)
    result["median_run"] = median_index(runs)
    result["p99_runs_ms"] = [r["latency"]["p99_ms"] for r in runs]
    result["runs"] = [
        {
            "p99_ms": r["latency"]["p99_ms"],
            "actions_per_s": r["actions_per_s"],
            "errors": r["errors"],
            "error_kinds": r["error_kinds"],
            "error_samples": r["error_samples"][:5],
            "server_rss_peak_mb": r["server_rss_peak_mb"],
            "cpu": r.get("cpu"),
            "disturbed": r.get("disturbed"),
        }
        for r in runs
    ]
    result["errors"] = sum(r["errors"] for r in runs)
    result["error_kinds"] = kinds
    result["log_check"] = {
        "games": sum(r["log_check"]["games"] for r in runs),
        "ok": all(r["log_check"]["ok"] for r in runs),
    }
    p99 = result["latency"]["p99_ms"]
    result["passed"] = result["errors"] == 0 and p99 is not None and p99 < limit
    result["disturbed"] = any(r.get("disturbed") for r in runs)
    return result


class Bench:
    def __init__(self, args):
        self.args = args
        self.steps: list[dict] = []
        self.users: list = []
        self.cookies: dict[int, str] = {}
        self.seed = 1

    def _users(self, tables: int) -> list:
        if len(self.users) < tables * loadgen.SEATS:
            users = loadgen.ensure_users(tables)
            fresh = [u for u in users if u.pk not in self.cookies]
            self.cookies.update(loadgen.session_cookies(fresh))
            self.users = users
        return self.users

    def _groups(self, server_pids: list[int]) -> dict:
        """Our processes, for the CPU meter: everything else on the machine is "other" (foreign)."""
        return {
            "daphne": server_pids,
            "generator": [os.getpid()],
            "postgres": lambda: procstat.postgres_pids(DATABASE_NAME),
            "redis": lambda: procstat.pids_named("redis-server"),
        }

    def wait_until_quiet(self) -> float:
        """Wait until other work on the machine uses at most FOREIGN_LIMIT % of a core (over 3 s)."""
        deadline = time.monotonic() + self.args.max_wait
        while True:
            meter = procstat.CpuMeter(self._groups([]))
            meter.start()
            time.sleep(3)
            foreign = meter.stop()["other"]
            if foreign <= FOREIGN_LIMIT or time.monotonic() > deadline:
                return foreign
            print(f"    other work uses {foreign}% of a core: waiting", flush=True)
            time.sleep(15)

    def step(self, spec: dict, duration: float, repeats: int = 1, kind: str = "step") -> dict:
        """One step (``spec`` as parse_step_spec gives it, plus "neighbour") run ``repeats`` times."""
        runs: list[dict] = []
        while len(runs) < repeats and not failed_already(runs, repeats):
            runs.append(self._attempts(spec, duration))
        result = combine_runs(runs)
        result["kind"] = kind
        if repeats > 1:
            print(f"    p99 of the {repeats} runs: {result['p99_runs_ms']} ms; passed: {result['passed']}")
        self.steps.append(result)
        return result

    def _attempts(self, spec: dict, duration: float) -> dict:
        """One run of a step; run again (up to --retries times) when other work took CPU during it."""
        disturbed = []
        for attempt in range(1 + self.args.retries):
            foreign_before = None if self.args.no_wait else self.wait_until_quiet()
            result = self._step_once(spec, duration)
            result["foreign_cpu_before_pct"] = foreign_before
            foreign = (result.get("cpu") or {}).get("other", 0)
            if foreign <= FOREIGN_LIMIT or attempt == self.args.retries:
                break
            disturbed.append(foreign)
            print(f"    disturbed: other work used {foreign}% of a core; again", flush=True)
        result["attempts"] = attempt + 1
        result["disturbed_attempts_foreign_cpu_pct"] = disturbed
        result["disturbed"] = foreign > FOREIGN_LIMIT
        return result

    def _step_once(self, spec: dict, duration: float) -> dict:
        mode, processes, games, think = spec["mode"], spec["processes"], spec["games"], spec["think"]
        users = self._users(games)
        self.seed += 1
        quiet = spec["quiet_notices"] + spec["quiet_watchers"]
        neighbour = spec.get("neighbour", False)
        label = f"{mode} x{processes} G={games} think={think}" + (f" quiet={quiet}" if quiet else "")
        label += " +neighbour" if neighbour else ""
        print(f"[{time.strftime('%H:%M:%S')}] {label} ...", flush=True)
        load = procstat.loadavg()
        with Servers(processes, label, self.args.server_env) as servers, Neighbour(neighbour) as other:
            cfg = loadgen.Config(
                mode=mode,
                games=games,
                think=think,
                duration=duration,
                warmup=self.args.warmup,
                ports=servers.ports,
                server_pids=servers.pids,
                seed=self.seed,
                start_spread=think if think > 0 else 0.5,
                quiet_notices=spec["quiet_notices"],
                quiet_watchers=spec["quiet_watchers"],
            )
            # The neighbour is a group of its own: the quiet-machine checks count only "other".
            meter = procstat.CpuMeter(self._groups(servers.pids) | {"neighbour": other.pids})
            result = loadgen.Step(cfg, users, self.cookies).run(meter)
        result["neighbour"] = neighbour
        result["loadavg_at_start"] = load
        lat = result["latency"]
        result["passed"] = (
            result["errors"] == 0 and lat["p99_ms"] is not None and lat["p99_ms"] < P99_LIMIT_MS
        )
        cpu = result.get("cpu") or {}
        print(
            f"    {result['actions_per_s']:>7.1f} actions/s  p50 {lat['p50_ms']}  p95 {lat['p95_ms']}  "
            f"p99 {lat['p99_ms']}  max {lat['max_ms']} ms  errors {result['errors']}  "
            f"rss {result['server_rss_peak_mb']} MB  cpu daphne {cpu.get('daphne')}% "
            f"pg {cpu.get('postgres')}% redis {cpu.get('redis')}% gen {cpu.get('generator')}% "
            f"other {cpu.get('other')}% idle {cpu.get('idle')}%"
            + (f" neighbour {cpu.get('neighbour')}%" if neighbour else ""),
            flush=True,
        )
        print(
            f"    sockets {result['sockets']} busy + {quiet} quiet = {result['sockets_total']}  "
            f"rss fresh {result['server_rss_fresh_mb']} -> connected {result['server_rss_connected_mb']}"
            f" MB = {result['memory_per_socket_kb']} kB/socket  notices frames {result['notices_frames']}"
            f"  connect quiet {result['connect_quiet_s']} s",
            flush=True,
        )
        if result["errors"]:
            print("    errors:", result["error_kinds"], result["error_samples"][:3], flush=True)
        return result

    def ramp(self, mode: str, processes: int, ladder: list[int], duration: float, repeats: int) -> dict:
        """Step G up the ladder until a step fails; the capacity is the last offered load that passed."""
        passed = None
        for games in ladder:
            spec = parse_step_spec(f"{mode}:{processes}:{games}:{THINK}")
            result = self.step(spec, duration, repeats, kind="capacity")
            if not result["passed"]:
                break
            passed = result
        return {
            "mode": mode,
            "processes": processes,
            "capacity_actions_per_s": passed["offered_actions_per_s"] if passed else 0,
            "capacity_games": passed["games"] if passed else 0,
            "capacity_sockets": passed["sockets"] if passed else 0,
            "measured_actions_per_s": passed["actions_per_s"] if passed else 0,
        }


def run(args) -> dict:
    bench = Bench(args)
    quiet = (
        {"load_at_start": procstat.loadavg(), "skipped": True}
        if args.no_wait
        else wait_for_quiet(args.max_wait)
    )
    started = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    t0 = time.monotonic()
    summary: dict = {"capacity": [], "saturation": []}
    for processes in args.processes:
        for mode in args.modes:
            summary["capacity"].append(
                bench.ramp(mode, processes, args.ladder[mode], args.duration, args.repeats)
            )
        for mode in args.modes:
            spec = parse_step_spec(f"{mode}:{processes}:{args.saturation_games}:0")
            result = bench.step(spec, args.saturation_duration, kind="saturation")
            summary["saturation"].append(
                {
                    "mode": mode,
                    "processes": processes,
                    "games": args.saturation_games,
                    "actions_per_s": result["actions_per_s"] if result["errors"] == 0 else 0,
                    "actions_per_s_measured": result["actions_per_s"],
                    "errors": result["errors"],
                    "p50_ms": result["latency"]["p50_ms"],
                    "server_rss_peak_mb": result["server_rss_peak_mb"],
                }
            )
    summary["neighbour"] = neighbour_pairs(bench, args)
    summary["quiet"] = quiet_steps(bench, args)
    summary["targets"] = targets(summary, bench.steps)
    return {
        "issue": 19,
        "started_at": started,
        "wall_s": round(time.monotonic() - t0),
        "machine": machine(),
        "quiet_check": quiet,
        "settings": {
            "server": {**SERVER_ENV, "DATABASE_URL": DATABASE_URL, "REDIS_URL": REDIS_URL},
            "server_root": str(SERVER_ROOT),
            "server_env_extra": args.server_env,
            "channel_layer": "channels_redis.pubsub.RedisPubSubChannelLayer (the settings default)",
            "think_mean_s": THINK,
            "p99_limit_ms": P99_LIMIT_MS,
            "step_duration_s": args.duration,
            "warmup_s": args.warmup,
            "saturation_games": args.saturation_games,
            "saturation_duration_s": args.saturation_duration,
            "ladder": args.ladder,
            "repeats": args.repeats,
            "neighbour_step": args.neighbour_step,
            "quiet_step": args.quiet_step,
            "ping_every_s": loadgen.PING_EVERY_S,
            "neighbour": "python busy 5 ms / asleep 5 ms (bench/run.py NEIGHBOUR_CODE)",
            "kinds": {k: {"weight": w, "options": o} for k, (w, o) in loadgen.KINDS.items()},
        },
        "commands": ["make bench", "python -m bench.run " + " ".join(sys.argv[1:])],
        "summary": summary,
        "steps": bench.steps,
    }


def _row(result: dict) -> dict:
    cpu = result.get("cpu") or {}
    return {
        "p99_ms": result["latency"]["p99_ms"],
        "p50_ms": result["latency"]["p50_ms"],
        "actions_per_s": result["actions_per_s"],
        "errors": result["errors"],
        "passed": result["passed"],
        "server_rss_peak_mb": result["server_rss_peak_mb"],
        "daphne_cpu_pct": cpu.get("daphne"),
        "neighbour_cpu_pct": cpu.get("neighbour"),
    }


def neighbour_pairs(bench: Bench, args) -> list[dict]:
    """Each mode at the same tables, without and then with the neighbour (--neighbour-step)."""
    rows = []
    for mode in args.modes:
        spec = parse_step_spec(f"{mode}:1:{args.neighbour_step}")
        alone = bench.step(spec, args.duration, kind="neighbour")
        crowded = bench.step(spec | {"neighbour": True}, args.duration, kind="neighbour")
        rows.append({"mode": mode, "games": spec["games"], "alone": _row(alone), "neighbour": _row(crowded)})
    return rows


def quiet_steps(bench: Bench, args) -> list[dict]:
    """Each mode with its busy tables and the quiet sockets of --quiet-step (1 process)."""
    rows = []
    for mode in args.modes:
        spec = parse_step_spec(f"{mode}:1:{args.quiet_step}")
        result = bench.step(spec, args.duration, kind="quiet")
        rows.append(
            {
                "mode": mode,
                "games": spec["games"],
                "busy_sockets": result["sockets"],
                "quiet_sockets": result["quiet_sockets"],
                "sockets_total": result["sockets_total"],
                "memory_per_socket_kb": result["memory_per_socket_kb"],
                "server_rss_fresh_mb": result["server_rss_fresh_mb"],
                "server_rss_connected_mb": result["server_rss_connected_mb"],
                "notices_frames": result["notices_frames"],
                **_row(result),
            }
        )
    return rows


def _find(rows: list[dict], mode: str, processes: int) -> dict | None:
    return next((r for r in rows if r["mode"] == mode and r["processes"] == processes), None)


def targets(summary: dict, steps: list[dict]) -> dict:
    out = {}
    for processes in sorted({r["processes"] for r in summary["capacity"]}):
        for name, rows, key in (
            ("capacity", summary["capacity"], "capacity_actions_per_s"),
            ("saturation", summary["saturation"], "actions_per_s"),
        ):
            ours, base = _find(rows, "ours", processes), _find(rows, "baseline", processes)
            if ours and base and base[key]:
                ratio = ours[key] / base[key]
                out[f"{name}_ratio_{processes}p"] = {
                    "value": round(ratio, 2),
                    "target": RATIO_TARGET,
                    "met": ratio >= RATIO_TARGET,
                }
    for mode in ("ours", "baseline"):
        one, two = _find(summary["saturation"], mode, 1), _find(summary["saturation"], mode, 2)
        if one and two and one["actions_per_s"]:
            ratio = two["actions_per_s"] / one["actions_per_s"]
            out[f"scale_out_{mode}"] = {
                "value": round(ratio, 2),
                "target": SCALE_OUT_TARGET,
                "met": ratio >= SCALE_OUT_TARGET,
            }
    ours = next((r for r in summary.get("quiet", []) if r["mode"] == "ours"), None)
    if ours:
        rss = sum(ours["server_rss_peak_mb"])
        out["quiet_sockets"] = {
            "sockets": ours["sockets_total"],
            "p99_ms": ours["p99_ms"],
            "rss_peak_mb": rss,
            "target": f"p99 < {P99_LIMIT_MS:.0f} ms and RSS < {SOCKETS_RSS_LIMIT_MB} MB, no error",
            "met": ours["passed"] and rss < SOCKETS_RSS_LIMIT_MB,
        }
    errors = sum(s["errors"] for s in steps if s["passed"] or s["think_mean_s"] == 0)
    checked = all(s["log_check"]["ok"] for s in steps)
    out["no_loss_no_error"] = {
        "errors_in_passing_and_saturation_steps": errors,
        "every_log_checked_ok": checked,
        "met": errors == 0 and checked,
    }
    return out


# --- the report ----------------------------------------------------------------------------------------


def _fmt(value, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def markdown(report: dict, *, every_step: bool = True) -> str:
    """The run's report; docs/BENCHMARKS.md gets it without ``every_step``'s table (in the JSON)."""
    m = report["machine"]
    lines = [
        BEGIN,
        "",
        f"Run of {report['started_at']} ({report['wall_s'] // 60} min), `{report['commands'][1].strip()}`.",
        "",
        f"Machine: {m['cores']} cores ({m['cpu']}), {m['memory_gib']} GiB, Linux {m['kernel']}, Python "
        f"{m['python']}, PostgreSQL {m['postgresql']}, Redis {m['redis']}; the generator is "
        f"{m['generator']}. Load average before the run: {report['quiet_check'].get('load_at_start')}"
        + (f" ({report['quiet_check']['warning']})" if report["quiet_check"].get("warning") else "")
        + ".",
        "",
        "### Summary",
        "",
        "| | processes | ours | baseline | ours / baseline | target |",
        "|---|---|---|---|---|---|",
    ]
    summary = report["summary"]
    t = summary["targets"]
    for processes in sorted({r["processes"] for r in summary["capacity"]}):
        ours, base = (
            _find(summary["capacity"], "ours", processes),
            _find(summary["capacity"], "baseline", processes),
        )
        key = f"capacity_ratio_{processes}p"
        verdict = "met" if t.get(key, {}).get("met") else "MISSED"
        lines.append(
            f"| capacity, actions/s offered (tables) | {processes} | "
            f"{_fmt(ours['capacity_actions_per_s'])} ({ours['capacity_games']}) | "
            f"{_fmt(base['capacity_actions_per_s'])} ({base['capacity_games']}) | "
            f"{_fmt(t.get(key, {}).get('value'), 2)} | >= {RATIO_TARGET} {verdict} |"
        )
        ours, base = (
            _find(summary["saturation"], "ours", processes),
            _find(summary["saturation"], "baseline", processes),
        )
        key = f"saturation_ratio_{processes}p"
        lines.append(
            f"| saturated throughput, actions/s | {processes} | {_fmt(ours['actions_per_s'])} | "
            f"{_fmt(base['actions_per_s'])} | {_fmt(t.get(key, {}).get('value'), 2)} | >= {RATIO_TARGET} "
            f"{'met' if t.get(key, {}).get('met') else 'MISSED'} |"
        )
    for mode in ("ours", "baseline"):
        key = f"scale_out_{mode}"
        if key in t:
            lines.append(
                f"| 2 processes / 1, saturated ({mode}) | | | | {_fmt(t[key]['value'], 2)} | "
                f">= {SCALE_OUT_TARGET} "
                f"{'met' if t[key]['met'] else 'MISSED'} |"
            )
    lines += _quiet_summary_rows(summary)
    nl = t["no_loss_no_error"]
    lines += [
        "",
        f"No action lost or duplicated, no error: **{'met' if nl['met'] else 'MISSED'}** "
        f"(errors in passing and saturation steps: {nl['errors_in_passing_and_saturation_steps']}; every "
        f"game's log checked: {'ok' if nl['every_log_checked_ok'] else 'PROBLEMS'}).",
    ]
    if not every_step:
        lines += [
            "",
            "Every step's figures (latency, CPU by process, memory, load) are in the run's JSON; "
            f"`python -m bench.run --report {JSON_OUT.relative_to(ROOT)}` prints their table.",
        ]
        lines += _neighbour_table(summary.get("neighbour") or [])
        return "\n".join([*lines, "", END])
    lines += [
        "",
        "### Every step",
        "",
        "Latency: from sending an action until its event has reached all 4 seats. CPU: % of one core over "
        'the measured window (2 cores = 200 %); "other" is every other process on the machine.',
        "",
        "A step run more than once shows the median run (by p99) and every run's p99; it passes if the "
        "median's p99 is under 100 ms and no run had an error. Sockets: busy + quiet (notices / idle game "
        "pages); kB/socket: (RSS with every socket connected - RSS of the fresh server) / sockets.",
        "",
        "| server | proc | tables | sockets busy + quiet = total | think s | offered/s | actions/s | "
        "p50 ms | p95 ms | p99 ms | max ms | errors | pass | RSS peak MB | kB/socket | "
        "CPU daphne / pg / redis / gen / other / idle % | load avg | event B |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in report["steps"]:
        lat, cpu = s["latency"], s.get("cpu") or {}
        cpu_text = " / ".join(
            _fmt(cpu.get(k)) for k in ("daphne", "postgres", "redis", "generator", "other", "idle")
        )
        q = s.get("quiet_sockets") or {}
        sockets = (
            f"{s['sockets']} + {q.get('notices', 0)} / {q.get('watchers', 0)} = {s.get('sockets_total')}"
        )
        lines.append(
            f"| {s['mode']}{' + neighbour' if s.get('neighbour') else ''} | {s['processes']} | "
            f"{s['games']} | {sockets} | {_fmt(s['think_mean_s'])} | "
            f"{_fmt(s['offered_actions_per_s'])} | {_fmt(s['actions_per_s'])} | {_fmt(lat['p50_ms'])} | "
            f"{_fmt(lat['p95_ms'])} | {_p99_text(s)} | {_fmt(lat['max_ms'])} | {s['errors']} | "
            f"{'yes' if s['passed'] else 'no'} | {' + '.join(_fmt(x) for x in s['server_rss_peak_mb'])} | "
            f"{_fmt(s.get('memory_per_socket_kb'))} | "
            f"{cpu_text} | {s['loadavg_at_start'][0]:.2f} | {_fmt(s['mean_event_bytes'])} |"
        )
    lines += _neighbour_table(summary.get("neighbour") or [])
    lines += ["", END]
    return "\n".join(lines)


def _p99_text(step: dict) -> str:
    """ "42.0", or for a repeated step every run's p99, "42.0 / 55.0 / 61.0" (the median in bold)."""
    runs = step.get("p99_runs_ms") or [step["latency"]["p99_ms"]]
    if len(runs) == 1:
        return _fmt(runs[0])
    median = step.get("median_run")
    return " / ".join(f"**{_fmt(v)}**" if i == median else _fmt(v) for i, v in enumerate(runs))


def _quiet_summary_rows(summary: dict) -> list[str]:
    rows = {r["mode"]: r for r in summary.get("quiet") or []}
    target = summary["targets"].get("quiet_sockets")
    if "ours" not in rows or target is None:
        return []
    ours, base = rows["ours"], rows.get("baseline") or {}

    def cell(row: dict) -> str:
        if not row:
            return "-"
        rss = " + ".join(_fmt(x) for x in row["server_rss_peak_mb"])
        return f"p99 {_fmt(row['p99_ms'])} ms, RSS {rss} MB, {_fmt(row['memory_per_socket_kb'])} kB/socket"

    return [
        f"| {ours['sockets_total']:,} sockets ({ours['busy_sockets']} playing), 1 s think | 1 | {cell(ours)} "
        f"| {cell(base)} | | p99 < {P99_LIMIT_MS:.0f} ms and RSS < {SOCKETS_RSS_LIMIT_MB} MB "
        f"{'met' if target['met'] else 'MISSED'} |"
    ]


def _neighbour_table(rows: list[dict]) -> list[str]:
    if not rows:
        return []
    lines = [
        "",
        "### Under a neighbour",
        "",
        "The same step alone and with a neighbour process that busy-loops 5 ms and sleeps 5 ms (its CPU "
        "share measured over the window), 1 process, 1 s think.",
        "",
        "| server | tables | p99 alone ms | p99 with neighbour ms | actions/s alone / with | "
        "daphne CPU alone / with % | neighbour CPU % | errors alone / with |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        a, n = r["alone"], r["neighbour"]
        lines.append(
            f"| {r['mode']} | {r['games']} | {_fmt(a['p99_ms'])} | {_fmt(n['p99_ms'])} | "
            f"{_fmt(a['actions_per_s'])} / {_fmt(n['actions_per_s'])} | {_fmt(a['daphne_cpu_pct'])} / "
            f"{_fmt(n['daphne_cpu_pct'])} | {_fmt(n['neighbour_cpu_pct'])} | {a['errors']} / {n['errors']} |"
        )
    return lines


def write_markdown(block: str) -> None:
    text = MD_OUT.read_text() if MD_OUT.exists() else f"# Benchmarks\n\n{BEGIN}\n{END}\n"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        text = head + block + tail
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    MD_OUT.write_text(text)


# --- profiling ------------------------------------------------------------------------------------------


def profile(args) -> None:
    """py-spy on one server process during a saturation step of ours; a summary of where time goes."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    bench = Bench(args)
    users = bench._users(args.saturation_games)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for mode in args.profile_modes:
        with Servers(1, f"profile {mode}", args.server_env) as servers:
            raw = ARTIFACTS / f"profile-{mode}.txt"
            spy_cmd = [
                spy,
                "record",
                "-p",
                str(servers.pids[0]),
                "-d",
                str(int(args.profile)),
                "-r",
                "200",
                "-f",
                "raw",
                "-o",
                str(raw),
                *(["--idle"] if args.profile_idle else ["--gil"]),
                "--threads",
                "--nonblocking",
            ]
            spies: list[subprocess.Popen] = []

            def start_spy(cmd=spy_cmd, spies=spies) -> None:
                spies.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

            cfg = loadgen.Config(
                mode=mode,
                games=args.saturation_games,
                think=0.0,
                duration=args.profile + 4,
                warmup=2,
                ports=servers.ports,
                server_pids=servers.pids,
                seed=7,
                start_spread=0.5,
                on_measure=start_spy,
            )
            result = loadgen.Step(cfg, users, bench.cookies).run()
            for spy_proc in spies:
                spy_proc.wait(60)
        text = summarise_profile(raw)
        (ARTIFACTS / f"profile-{mode}-summary.txt").write_text(text + "\n")
        print(f"{mode}: {result['actions_per_s']} actions/s (py-spy attached); stacks in {raw}")
        print(text)


# Parts of the hot path, found by a substring of a frame (py-spy's "function (file:line)").
PROFILE_PARTS = [
    ("rate limiter (ConnectionLimiter.check + its Redis calls)", "ratelimit.py"),
    ("a move (games/live/moves.py: decide, on either transport)", "games/live/moves.py"),
    ("  engine apply", "games/rules/"),
    ("  event_payload (state + preview)", "event_payload"),
    ("  commit", "Connection.commit"),
    ("  broadcast after commit (send_now)", "send_now"),
    ("fan-out to sockets (GameConsumer.game_message)", "GameConsumer.game_message"),
    ("ack and other replies (GameConsumer.send_json)", "GameConsumer.send_json"),
    (
        "socket connect / disconnect (connection_open/close)",
        ("connection_open (games", "connection_close (games"),
    ),
    ("session lookup at the handshake (channels.auth.get_user)", "get_user (channels/auth.py"),
    ("baseline relay (BaselineConsumer)", "BaselineConsumer"),
    ("all Django ORM + psycopg", "django/db/"),
    ("  waiting for PostgreSQL (psycopg wait)", "Connection.wait (psycopg"),
    ("all channels-redis + redis-py", "redis/"),
    ("  msgpack (channel layer)", "serializers.py"),
    ("all JSON encode/decode", "json/"),
    ("twisted + autobahn + daphne (websocket I/O)", "twisted/"),
    ("  autobahn", "autobahn/"),
    ("event loop waiting (epoll)", "EpollSelector.select"),
]


def summarise_profile(path: Path, top: int = 25) -> str:
    """Where the server's time went, from py-spy's raw output (collapsed stacks with counts).

    First the share of all samples under each part of the hot path (PROFILE_PARTS, inclusive), then per
    thread (the default executor's asyncio_N threads added up) its share and its heaviest functions.
    Without --idle the samples are CPU time; with it, wall-clock time including waits.
    """
    threads: dict[str, int] = {}
    inclusive: dict[str, dict[str, int]] = {}
    parts = dict.fromkeys((label for label, _ in PROFILE_PARTS), 0)
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        frames = stack.split(";")
        name = frames[0].split(":")[-1].strip() or frames[0]
        if name.startswith("asyncio_"):
            name = "asyncio_N (default executor)"
        n = int(count)
        total += n
        threads[name] = threads.get(name, 0) + n
        counts = inclusive.setdefault(name, {})
        for frame in set(frames[1:]):
            counts[frame] = counts.get(frame, 0) + n
        for label, needles in PROFILE_PARTS:
            needles = (needles,) if isinstance(needles, str) else needles
            if any(needle in frame for frame in frames[1:] for needle in needles):
                parts[label] += n
    if not total:
        return "no samples"
    out = [f"{total} samples", "share of all samples:"]
    out += [f"  {100 * n / total:5.1f}%  {label}" for label, n in parts.items()]
    skip = (
        "threading.py",
        "concurrent/futures",
        "runpy",
        "daphne/cli.py",
        "daphne/__main__",
        "asgiref/sync.py",
    )
    for name, count in sorted(threads.items(), key=lambda kv: -kv[1])[:4]:
        out.append(f"== {name}: {count} samples ({100 * count / total:.1f}% of all)")
        shown = 0
        for frame, n in sorted(inclusive[name].items(), key=lambda kv: -kv[1]):
            if any(s in frame for s in skip):
                continue
            out.append(f"  {100 * n / count:5.1f}%  {frame}")
            shown += 1
            if shown >= top:
                break
    return "\n".join(out)


def only_steps(args) -> int:
    """Run the steps named on the command line (experiments); the figures go to artifacts/bench/."""
    if not args.no_wait:
        print(wait_for_quiet(args.max_wait))
    bench = Bench(args)
    for text in args.steps.split(","):
        spec = parse_step_spec(text)
        if args.quiet_notices or args.quiet_watchers:
            spec |= {"quiet_notices": args.quiet_notices, "quiet_watchers": args.quiet_watchers}
        spec["neighbour"] = args.neighbour
        duration = args.duration if spec["think"] > 0 else args.saturation_duration
        bench.step(spec, duration, args.repeats or 1)
    out = ARTIFACTS / f"steps-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.write_text(json.dumps({"server_root": str(SERVER_ROOT), "steps": bench.steps}, indent=1) + "\n")
    print(f"written: {out}")
    return 0


# --- main -----------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run; writes nothing to docs/")
    parser.add_argument("--no-wait", action="store_true", help="do not wait for a quiet machine")
    parser.add_argument("--max-wait", type=float, default=3600, help="seconds to wait for load <= 1")
    parser.add_argument("--processes", default="1,2")
    parser.add_argument("--modes", default="ours,baseline", help="ours, baseline or both")
    parser.add_argument("--no-docs", action="store_true", help="write only --out, not docs/BENCHMARKS.md")
    parser.add_argument("--retries", type=int, default=2, help="repeats of a step disturbed by other work")
    parser.add_argument("--duration", type=float, default=20.0, help="measured seconds per ramp step")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--saturation-games", type=int, default=64)
    parser.add_argument("--saturation-duration", type=float, default=20.0)
    # Wide enough for this machine on a fast day (2026-12-03: ours passed 500 tables, the baseline 500):
    # a ladder whose top step passes reports its top, not the capacity.
    parser.add_argument("--ladder-ours", default="100,200,300,350,400,450,500,550,600")
    parser.add_argument("--ladder-baseline", default="200,300,400,450,500,550,600,650,700")
    parser.add_argument(
        "--repeats", type=int, default=None, help="runs per capacity step (default 3; 1 with --steps)"
    )
    parser.add_argument(
        "--steps",
        default="",
        help="only these steps, e.g. ours:1:64:0,baseline:2:200:1,ours:1:200:1:4200 "
        "(mode:processes:tables:think[:quiet sockets | :notices:watchers])",
    )
    parser.add_argument("--quiet-notices", type=int, default=0, help="with --steps: idle notices sockets")
    parser.add_argument("--quiet-watchers", type=int, default=0, help="with --steps: idle game pages")
    parser.add_argument("--neighbour", action="store_true", help="with --steps: a half-core neighbour")
    parser.add_argument(
        "--neighbour-step", default="150:1", help="tables:think of the full run's neighbour pair"
    )
    parser.add_argument(
        "--quiet-step", default="200:1:4200", help="tables:think:quiet sockets of the full run's 5,000 step"
    )
    parser.add_argument("--profile", type=float, default=0, help="profile for this many seconds instead")
    parser.add_argument("--profile-modes", default="ours")
    parser.add_argument(
        "--profile-idle",
        action="store_true",
        help="sample every thread, waiting too (default: the GIL holder)",
    )
    parser.add_argument("--server-env", default="", help="extra server settings: KEY=VALUE,KEY=VALUE")
    parser.add_argument("--out", default=str(JSON_OUT))
    parser.add_argument("--report", metavar="JSON", help="print a run's whole report from its JSON and stop")
    args = parser.parse_args(argv)
    if args.report:
        print(markdown(json.loads(Path(args.report).read_text())))
        return 0
    args.processes = [int(x) for x in args.processes.split(",")]
    args.modes = args.modes.split(",")
    args.ladder = {
        "ours": [int(x) for x in args.ladder_ours.split(",")],
        "baseline": [int(x) for x in args.ladder_baseline.split(",")],
    }
    args.profile_modes = args.profile_modes.split(",")
    args.server_env = dict(kv.split("=", 1) for kv in args.server_env.split(",") if kv)
    if args.quick:
        args.ladder = {"ours": [4, 8], "baseline": [4, 8]}
        args.repeats = args.repeats or 1
        defaults = parser.parse_args([])
        if args.neighbour_step == defaults.neighbour_step:
            args.neighbour_step = "4:1"
        if args.quiet_step == defaults.quiet_step:
            args.quiet_step = "4:1:40"
        args.duration, args.warmup, args.saturation_games, args.saturation_duration = 4.0, 1.0, 4, 4.0
        args.no_wait = True
    if args.repeats is None and not args.steps:
        args.repeats = 3

    os.environ["DATABASE_URL"] = DATABASE_URL
    os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_urlsafe(60))
    # The generator's own Django reads the same database with the same settings as the servers.
    os.environ.update(SERVER_ENV)
    loadgen.setup_django()
    prepare_database()
    if args.profile:
        profile(args)
        return 0
    if args.steps:
        return only_steps(args)
    report = run(args)
    text = json.dumps(report, indent=1)
    if args.quick:
        out = ARTIFACTS / "quick.json"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        out.write_text(text + "\n")
        print(markdown(report))
    else:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n")
        print(markdown(report))
        if not args.no_docs:
            write_markdown(markdown(report, every_step=False))
    print(json.dumps(report["summary"], indent=1))
    docs = "" if args.quick or args.no_docs else f" and {MD_OUT}"
    print(f"written: {out if args.quick else args.out}{docs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
