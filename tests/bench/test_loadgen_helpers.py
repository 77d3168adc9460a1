"""The load generator's pure helpers (bench/loadgen.py): the figures and checks `make bench` relies on."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from bench import procstat
from bench.loadgen import (
    KINDS,
    Script,
    choose_kind,
    latency_summary,
    log_problems,
    memory_per_socket_kb,
    percentile,
    seq_problems,
    split_quiet,
    think_time,
)
from bench.run import combine_runs, failed_already, median_index, parse_step_spec, summarise_profile, targets


def test_percentile_is_nearest_rank():
    values = [float(v) for v in range(1, 101)]  # 1 .. 100
    assert percentile(values, 50) == 50
    assert percentile(values, 99) == 99
    assert percentile(values, 100) == 100
    assert percentile(values, 0) == 1
    assert percentile([7.0], 99) == 7.0
    assert percentile([], 50) is None
    with pytest.raises(ValueError):
        percentile(values, 101)


def test_latency_summary_in_milliseconds():
    summary = latency_summary([0.003, 0.001, 0.002, 0.100])
    assert summary == {
        "count": 4,
        "p50_ms": 2.0,
        "p95_ms": 100.0,
        "p99_ms": 100.0,
        "max_ms": 100.0,
        "mean_ms": 26.5,
    }
    assert latency_summary([])["p99_ms"] is None


def test_think_time_is_uniform_between_half_and_one_and_a_half_means():
    rng = random.Random(3)
    draws = [think_time(rng, 2.0) for _ in range(2000)]
    assert min(draws) >= 1.0
    assert max(draws) <= 3.0
    assert 1.9 < sum(draws) / len(draws) < 2.1
    assert think_time(rng, 0) == 0.0


def test_choose_kind_follows_the_weights():
    rng = random.Random(5)
    picks = [choose_kind(rng) for _ in range(4000)]
    assert set(picks) == set(KINDS)
    assert 0.35 < picks.count("farkle") / len(picks) < 0.45


def test_seq_problems_finds_gaps_and_duplicates():
    assert seq_problems([1, 2, 3]) == []
    assert seq_problems([4, 5], start=3) == []
    assert seq_problems([1, 3]) == ["gap: seq 3 after 1"]
    assert seq_problems([1, 2, 2, 3]) == ["duplicate or old seq 2 (expected 3)"]


def test_log_problems_compares_log_sends_acks_and_seats():
    seen = {"0": 3, "1": 3, "2": 3, "3": 3}
    assert log_problems([1, 2, 3], [1, 2, 3], [1, 2, 3], seen, 3) == []
    assert log_problems([1, 2, 3], [1, 2, 3], None, seen, 3) == []  # the baseline has no acks
    problems = log_problems([1, 2, 4], [1, 2, 3], [1, 2, 3, 3], {**seen, "2": 2}, 4)
    assert "gap: seq 4 after 2" in problems
    assert "3 actions sent, 3 stored" in problems
    assert any(p.startswith("4 acks (duplicates: [3])") for p in problems)
    assert "seat 0 saw events up to 3, the game is at 4" in problems
    assert "seat 2 saw events up to 2, the game is at 4" in problems


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_baseline_script_is_the_event_stream_the_server_would_send(kind):
    script = Script(kind, ["a", "b", "c", "d"], random.Random(1))
    script.extend(30)
    events = [json.loads(frame) for frame in script.frames]
    assert [e["seq"] for e in events] == list(range(1, 31))
    assert all(e["type"] == "event" and e["status"] == "playing" for e in events)
    # Each event is played by the player to move in the previous state.
    state = script.initial
    for event in events:
        assert event["player"] == state["current"]
        assert event["seat"] == ["a", "b", "c", "d"].index(event["player"])
        state = event["state"]
    assert script.frame(31) is not None  # extended on demand


def test_targets_compare_ours_with_the_baseline_and_two_processes_with_one():
    summary = {
        "capacity": [
            {"mode": "ours", "processes": 1, "capacity_actions_per_s": 100},
            {"mode": "baseline", "processes": 1, "capacity_actions_per_s": 300},
        ],
        "saturation": [
            {"mode": "ours", "processes": 1, "actions_per_s": 200.0},
            {"mode": "baseline", "processes": 1, "actions_per_s": 300.0},
            {"mode": "ours", "processes": 2, "actions_per_s": 280.0},
            {"mode": "baseline", "processes": 2, "actions_per_s": 450.0},
        ],
    }
    steps = [{"errors": 0, "passed": True, "think_mean_s": 1.0, "log_check": {"ok": True}}]
    result = targets(summary, steps)
    assert result["capacity_ratio_1p"] == {"value": 0.33, "target": 0.8, "met": False}
    assert result["saturation_ratio_1p"] == {"value": 0.67, "target": 0.8, "met": False}
    assert result["scale_out_ours"] == {"value": 1.4, "target": 1.5, "met": False}
    assert result["scale_out_baseline"]["met"] is True
    assert result["no_loss_no_error"]["met"] is True
    assert "quiet_sockets" not in result  # no quiet step in this run


def test_the_quiet_socket_target_wants_p99_and_memory():
    row = {
        "mode": "ours",
        "sockets_total": 5000,
        "p99_ms": 80.0,
        "passed": True,
        "server_rss_peak_mb": [550.0],
    }
    summary = {"capacity": [], "saturation": [], "quiet": [row]}
    steps = [{"errors": 0, "passed": True, "think_mean_s": 1.0, "log_check": {"ok": True}}]
    assert targets(summary, steps)["quiet_sockets"]["met"] is True
    summary["quiet"] = [row | {"server_rss_peak_mb": [650.0]}]
    assert targets(summary, steps)["quiet_sockets"]["met"] is False
    summary["quiet"] = [row | {"passed": False}]
    assert targets(summary, steps)["quiet_sockets"]["met"] is False


def test_step_specs_take_an_optional_quiet_count_or_both_kinds():
    assert parse_step_spec("ours:2:64:0") == {
        "mode": "ours",
        "processes": 2,
        "games": 64,
        "think": 0.0,
        "quiet_notices": 0,
        "quiet_watchers": 0,
    }
    # 200 tables = 800 seats, each with its notices socket; the other 3,400 split evenly.
    spec = parse_step_spec("ours:1:200:1:4200")
    assert (spec["quiet_notices"], spec["quiet_watchers"]) == (2500, 1700)
    spec = parse_step_spec("baseline:1:10:1:30:70")
    assert (spec["mode"], spec["quiet_notices"], spec["quiet_watchers"]) == ("baseline", 30, 70)
    for bad in ("ours:1:10", "ours:1:10:1:2:3:4", "theirs:1:10:1", "ours:x:10:1"):
        with pytest.raises(ValueError):
            parse_step_spec(bad)


def test_split_quiet_gives_busy_seats_their_notices_socket_first():
    assert split_quiet(4200, 800) == (2500, 1700)
    assert split_quiet(100, 800) == (100, 0)  # fewer than the busy seats: notices only
    assert split_quiet(801, 800) == (800, 1)
    assert split_quiet(0, 40) == (0, 0)


def test_memory_per_socket_is_the_growth_over_the_fresh_server_per_socket():
    assert memory_per_socket_kb(100_000, 300_000, 5000) == 40.0
    assert memory_per_socket_kb(100_000, 100_500, 3) == 166.7
    assert memory_per_socket_kb(None, 300_000, 5000) is None
    assert memory_per_socket_kb(100_000, 300_000, 0) is None


def _run(p99, errors=0, kinds=None):
    return {
        "latency": {"p99_ms": p99},
        "actions_per_s": 100.0,
        "errors": errors,
        "error_kinds": kinds or {},
        "error_samples": [],
        "server_rss_peak_mb": [100.0],
        "log_check": {"games": 3, "ok": errors == 0},
    }


def test_median_run_is_chosen_by_p99():
    assert median_index([_run(61.0), _run(42.0), _run(55.0)]) == 2
    assert median_index([_run(10.0)]) == 0
    assert median_index([_run(None), _run(42.0), _run(55.0)]) == 2  # no latency at all counts as worst
    assert median_index([_run(20.0), _run(10.0)]) == 0  # of two, the worse


def test_a_repeated_step_passes_on_its_median_and_fails_on_any_error():
    step = combine_runs([_run(61.0), _run(42.0), _run(55.0)])
    assert step["latency"]["p99_ms"] == 55.0
    assert step["p99_runs_ms"] == [61.0, 42.0, 55.0]
    assert step["median_run"] == 2
    assert step["passed"] is True
    assert step["log_check"] == {"games": 9, "ok": True}
    # One lost action in a run that is not the median still fails the step, and is reported.
    step = combine_runs([_run(40.0, errors=1, kinds={"lost": 1}), _run(42.0), _run(45.0)])
    assert step["passed"] is False
    assert step["errors"] == 1 and step["error_kinds"] == {"lost": 1}
    assert step["runs"][0]["error_kinds"] == {"lost": 1}
    assert step["log_check"]["ok"] is False
    assert combine_runs([_run(90.0), _run(120.0), _run(150.0)])["passed"] is False


def test_profile_summary_adds_up_samples_per_thread(tmp_path):
    raw = tmp_path / "raw.txt"
    raw.write_text(
        "thread (1): MainThread;run (a.py:1);select (b.py:2) 3\n"
        "thread (1): MainThread;run (a.py:1);send (c.py:3) 1\n"
        "thread (2): asyncio_0;work (d.py:4) 2\n"
    )
    text = summarise_profile(raw)
    assert "== MainThread: 4 samples" in text
    assert "75.0%  select (b.py:2)" in text
    assert "== asyncio_N (default executor): 2 samples" in text


def test_procstat_reads_this_process():
    import os

    assert procstat.status_kb(os.getpid(), "VmRSS") > 0
    assert procstat.cpu_seconds(os.getpid()) > 0
    busy, total = procstat.machine_cpu()
    assert 0 < busy <= total
    assert len(procstat.loadavg()) == 3


def test_the_benchmark_starts_before_django_is_set_up():
    """`make bench` imports bench.run in a fresh process and sets Django up only where it needs it; a
    module-level import of the site's models would stop it at once."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = "import bench.run, bench.loadgen, bench.pg_move"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_step_stops_repeating_once_its_verdict_cannot_change():
    assert failed_already([], 3) is False
    assert failed_already([_run(40.0)], 3) is False
    assert failed_already([_run(40.0, errors=1)], 3) is True  # a lost action fails the step
    assert failed_already([_run(140.0)], 3) is False  # one slow run: the median may still pass
    assert failed_already([_run(140.0), _run(None)], 3) is True  # two of three missed
    assert failed_already([_run(140.0)], 1) is True
