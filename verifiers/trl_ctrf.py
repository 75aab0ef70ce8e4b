"""pytest plugin: writes a CTRF report (https://ctrf.io) of the session to --ctrf PATH.

Baked into the sandbox base image; scenario test.sh files load it with `-p trl_ctrf`.
Only outcomes and names are recorded per test, so two runs of a deterministic
suite give the same report apart from timings.
"""
import json
import os
import time

_results = {}
_order = []


def pytest_addoption(parser):
    parser.addoption("--ctrf", action="store", default=None, help="write a CTRF JSON report to this path")


def pytest_runtest_logreport(report):
    nodeid = report.nodeid
    if nodeid not in _results:
        _order.append(nodeid)
        _results[nodeid] = {"name": nodeid, "status": "passed", "duration": 0}
    entry = _results[nodeid]
    entry["duration"] += int(getattr(report, "duration", 0) * 1000)
    if report.skipped and entry["status"] == "passed" and report.when in ("setup", "call"):
        entry["status"] = "skipped"
    if report.failed:
        entry["status"] = "failed"
        if "message" not in entry:
            entry["message"] = str(report.longrepr)[-2000:]


def pytest_collectreport(report):
    if report.failed:
        nodeid = report.nodeid or "collection"
        _order.append(nodeid)
        _results[nodeid] = {"name": nodeid, "status": "failed", "duration": 0, "message": str(report.longrepr)[-2000:]}


def pytest_sessionstart(session):
    session.config._trl_ctrf_start = int(time.time() * 1000)


def pytest_sessionfinish(session, exitstatus):
    path = session.config.getoption("--ctrf")
    if not path:
        return
    tests = [_results[n] for n in _order]
    summary = {
        "tests": len(tests),
        "passed": sum(1 for t in tests if t["status"] == "passed"),
        "failed": sum(1 for t in tests if t["status"] == "failed"),
        "skipped": sum(1 for t in tests if t["status"] == "skipped"),
        "pending": 0,
        "other": 0,
        "start": session.config._trl_ctrf_start,
        "stop": int(time.time() * 1000),
    }
    report = {"results": {"tool": {"name": "pytest"}, "summary": summary, "tests": tests}}
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as handle:
        json.dump(report, handle, indent=1)
