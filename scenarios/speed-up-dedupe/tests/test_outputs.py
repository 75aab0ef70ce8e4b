"""Hidden tests for the speed-up-dedupe scenario.

One large export (~75 000 rows) is generated deterministically: a background
population whose true clusters are known by construction, plus several small
hand-written cases (each isolated from everything else). The agent's
/app/dedupe.py runs once on it, in a subprocess with a generous time limit
(the original script needs hours; an indexed version needs seconds).

Expected output: the original script's own merge() and writer applied to the
known clusters (background) and to the original script's own cluster() result
(small cases). Each test then checks one aspect of the single run. The script
exactly as shipped (byte for byte the original) is not run: it needs hours on
this export, so it is recorded as not finishing without a minute spent showing it.
"""
import csv
import io
import os
import random
import stat
import subprocess
import sys
import tempfile
import time

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import dedupe_data  # noqa: E402
import original_dedupe as orig  # noqa: E402
import trl_agent_run as agent_run

SCRIPT = "/app/dedupe.py"
TIME_LIMIT = 60  # seconds; the reference solution needs about 2 s, the original hours


@pytest.fixture(scope="module")
def run():
    tmp = tempfile.mkdtemp(prefix="dedupe-test-")
    bg_rows, bg_clusters = dedupe_data.background()
    clash = dedupe_data.check_cases_isolated(bg_rows)
    assert not clash, f"test data self-check failed: {clash}"

    # Interleave the small cases into the background at fixed positions.
    rows = list(bg_rows)
    rng = random.Random(99)
    case_of_id = {}
    for name, case_rows in dedupe_data.CASES.items():
        for r in case_rows:
            rows.insert(rng.randrange(len(rows) + 1), dict(r))
            case_of_id[r["id"]] = name
    src = os.path.join(tmp, "customers.csv")
    with open(src, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=orig.FIELDS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)

    # Expected result, computed with the original script's own functions.
    read = orig.read_rows(src)
    index_of_id = {r["id"]: i for i, r in enumerate(read)}
    clusters = [[index_of_id[bg_rows[i]["id"]] for i in c] for c in bg_clusters]
    for name, case_rows in dedupe_data.CASES.items():
        local = [read[index_of_id[r["id"]]] for r in case_rows]
        for group in orig.cluster(local):
            clusters.append([index_of_id[local[i]["id"]] for i in group])
    merged = [orig.merge([read[i] for i in c]) for c in clusters]
    merged.sort(key=lambda r: int(r["id"]))
    expected_path = os.path.join(tmp, "expected.csv")
    orig.write_rows(expected_path, merged)
    with open(expected_path, "rb") as fh:
        expected = fh.read()

    out = os.path.join(tmp, "merged.csv")
    result = {"expected": expected, "expected_rows": merged, "case_of_id": case_of_id,
              "timed_out": False, "returncode": None, "output": None, "stderr": "", "seconds": None}
    if not os.path.isfile(SCRIPT):
        result["stderr"] = f"{SCRIPT} is missing"
        return result
    if _is_original(SCRIPT):
        result["timed_out"] = True
        result["unchanged"] = True
        return result
    start = time.monotonic()
    try:
        res = agent_run.run([sys.executable, SCRIPT, src, out], capture_output=True, text=True,
                             timeout=TIME_LIMIT, cwd=tmp)
        result["returncode"] = res.returncode
        result["stderr"] = res.stderr[-2000:]
    except subprocess.TimeoutExpired:
        result["timed_out"] = True
    result["seconds"] = time.monotonic() - start
    if os.path.isfile(out) and not result["timed_out"]:
        with open(out, "rb") as fh:
            result["output"] = fh.read()
    return result


def _is_original(path):
    """Whether the agent's script is a regular file holding the original's bytes (never a link, FIFO or device)."""
    with open(orig.__file__, "rb") as fh:
        original = fh.read()
    try:
        info = os.lstat(path)
    except OSError:
        return False
    if not stat.S_ISREG(info.st_mode) or info.st_size != len(original):
        return False
    with open(path, "rb") as fh:
        return fh.read() == original


def _finished(run):
    assert not run.get("unchanged"), "dedupe.py is the original script, unchanged: it needs hours on this export"
    assert not run["timed_out"], f"dedupe.py did not finish within {TIME_LIMIT} s"
    assert run["returncode"] == 0, f"dedupe.py failed: {run['stderr']}"
    assert run["output"] is not None, "no output file"


def _rows(data):
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")))


def _case_rows(run, case):
    ids = {i for i, c in run["case_of_id"].items() if c == case}
    got = [r for r in _rows(run["output"]) if r.get("id") in ids or
           (r.get("source_ids") and set(r["source_ids"].split(";")) & ids)]
    exp = [r for r in run["expected_rows"] if set(r["source_ids"].split(";")) & ids]
    return got, exp


def _check_case(run, case):
    _finished(run)
    got, exp = _case_rows(run, case)
    assert got == exp, (
        f"{case}: got clusters {[r.get('source_ids') for r in got]}, "
        f"expected {[r['source_ids'] for r in exp]}"
    )


def test_large_export_finishes_within_time_limit(run):
    _finished(run)


def test_output_is_byte_identical_to_original_behaviour(run):
    _finished(run)
    got, exp = run["output"], run["expected"]
    if got != exp:
        gl, el = got.split(b"\n"), exp.split(b"\n")
        first = next((i for i, (a, b) in enumerate(zip(gl, el)) if a != b), min(len(gl), len(el)))
        pytest.fail(f"output differs from line {first + 1}: got {gl[first:first + 1]!r}, "
                    f"expected {el[first:first + 1]!r} ({len(gl)} vs {len(el)} lines)")


def test_header_and_row_count(run):
    _finished(run)
    text = run["output"].decode("utf-8")
    assert text.split("\n", 1)[0] == ",".join(orig.OUT_FIELDS)
    assert len(_rows(run["output"])) == len(run["expected_rows"])


def test_background_clusters_are_recovered(run):
    _finished(run)
    got = {r["source_ids"] for r in _rows(run["output"])}
    exp = {r["source_ids"] for r in run["expected_rows"]}
    missing = exp - got
    assert not missing, f"{len(missing)} expected clusters missing, e.g. {sorted(missing)[:5]}"


def test_email_normalisation_and_shared_mailboxes(run):
    _check_case(run, "email")


def test_phone_normalisation_and_switchboard_limit(run):
    _check_case(run, "phone")


def test_names_within_one_edit_in_same_postcode(run):
    _check_case(run, "name")


def test_links_are_transitive(run):
    _check_case(run, "chain")


def test_merged_fields_follow_newest_first_rules(run):
    _check_case(run, "merge")


def test_csv_quoting_and_unicode_are_preserved(run):
    _check_case(run, "csv")
