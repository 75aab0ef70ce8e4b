"""Hidden tests for the log-incident-summary scenario.

The logs (shipped and hidden) are rendered by loggen.py from ground-truth
events; expected reports are computed from those events, never by parsing the
files. expected_shipped.json holds the report for the shipped logs
(gen_shipped.SHIPPED). The agent's tool always runs in a subprocess with a
timeout.
"""
import json
import os
import shutil
import sys
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_shipped  # noqa: E402
import loggen  # noqa: E402
import trl_agent_run as agent_run

TOOL = "/app/incident_report.py"
SHIPPED_LOGS = "/app/logs"
SHIPPED_REPORT = "/app/incident.json"
KEYS = {"errors_per_hour", "top_failing_endpoints", "p95_latency_ms", "exceptions"}
SERVICES = {"web", "api", "worker", "billing"}
TIMEOUT = 90

with open(os.path.join(HERE, "expected_shipped.json"), encoding="utf-8") as fh:
    EXPECTED_SHIPPED = json.load(fh)


def run_tool(log_dir):
    assert os.path.isfile(TOOL), f"{TOOL} is missing"
    out = os.path.join(tempfile.mkdtemp(prefix="incident-out-"), "report.json")
    proc = agent_run.run([sys.executable, TOOL, log_dir, out], capture_output=True, text=True,
                          timeout=TIMEOUT, cwd="/tmp")
    assert proc.returncode == 0, proc.stderr[-3000:]
    with open(out, encoding="utf-8") as fh:
        return json.load(fh)


def shipped_report():
    assert os.path.isfile(SHIPPED_REPORT), f"{SHIPPED_REPORT} was not produced"
    with open(SHIPPED_REPORT, encoding="utf-8") as fh:
        return json.load(fh)


def diff_dict(got, want, what):
    assert isinstance(got, dict), f"{what}: not an object"
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want))
    wrong = sorted(k for k in set(want) & set(got) if got[k] != want[k])
    assert not (missing or extra or wrong), (
        f"{what}: missing {missing[:5]}, unexpected {extra[:5]}, "
        f"different {[(k, got[k], want[k]) for k in wrong[:5]]}"
    )


@pytest.fixture(scope="module")
def hidden():
    root = tempfile.mkdtemp(prefix="incident-hidden-")
    requests, events = gen_shipped.dataset(gen_shipped.HIDDEN)
    loggen.write_logs(root, requests, events, gen_shipped.HIDDEN_LAYOUT)
    # files that are not logs of the service must be ignored
    with open(os.path.join(root, "nginx", "access.log.bak"), "w") as fh:
        fh.write('10.0.0.1 - - [27/Oct/2024:01:00:00 +0000] "GET /api/v2/search HTTP/1.1" 500 1 "-" "-" rt=9.999\n')
    with open(os.path.join(root, "api", "README"), "w") as fh:
        fh.write("2024-10-27 01:00:00,000 +0000 ERROR [api] x: not a log file\n")
    return run_tool(root), loggen.expected_report(requests, events)


# --- shipped logs ----------------------------------------------------------------

def test_shipped_report_has_exact_keys_and_all_services():
    report = shipped_report()
    assert set(report) == KEYS
    assert set(report["errors_per_hour"]) == SERVICES


def test_shipped_errors_per_hour_in_utc():
    report = shipped_report()
    for service in SERVICES:
        diff_dict(report["errors_per_hour"].get(service), EXPECTED_SHIPPED["errors_per_hour"][service],
                  f"errors_per_hour[{service}]")


def test_shipped_top_failing_endpoints_and_p95():
    report = shipped_report()
    assert report["top_failing_endpoints"] == EXPECTED_SHIPPED["top_failing_endpoints"]
    diff_dict(report["p95_latency_ms"], EXPECTED_SHIPPED["p95_latency_ms"], "p95_latency_ms")


def test_shipped_exceptions_first_and_last_seen():
    report = shipped_report()
    diff_dict(report["exceptions"], EXPECTED_SHIPPED["exceptions"], "exceptions")


def test_tool_reproduces_shipped_report():
    copy = os.path.join(tempfile.mkdtemp(prefix="incident-shipped-"), "logs")
    shutil.copytree(SHIPPED_LOGS, copy)
    assert run_tool(copy) == EXPECTED_SHIPPED


# --- hidden incident ----------------------------------------------------------------

def test_hidden_errors_per_hour_with_other_offsets(hidden):
    got, want = hidden
    assert set(got) == KEYS
    for service in SERVICES:
        diff_dict(got["errors_per_hour"].get(service), want["errors_per_hour"][service], f"errors_per_hour[{service}]")


def test_hidden_top_failing_endpoints_normalised(hidden):
    got, want = hidden
    assert got["top_failing_endpoints"] == want["top_failing_endpoints"]


def test_hidden_p95_latency_nearest_rank(hidden):
    got, want = hidden
    diff_dict(got["p95_latency_ms"], want["p95_latency_ms"], "p95_latency_ms")


def test_hidden_exception_types_python_chained_and_java(hidden):
    got, want = hidden
    diff_dict(got["exceptions"], want["exceptions"], "exceptions")


def test_missing_service_and_noise_only_access_log():
    params = dict(gen_shipped.HIDDEN, seed=5150, n_requests=0, n_app=25)
    requests, events = gen_shipped.dataset(params)
    root = tempfile.mkdtemp(prefix="incident-sparse-")
    loggen.write_logs(root, requests, events, {"web": [("", 0)], "api": [("", -90)], "billing": [(".1.gz", 60)]})
    got = run_tool(root)
    want = loggen.expected_report(requests, events, services=("api", "billing"))
    assert got["errors_per_hour"]["web"] == {} and got["errors_per_hour"]["worker"] == {}
    assert got == want
