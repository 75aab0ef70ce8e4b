"""Hidden tests for the git-bisect-regression scenario.

The repository history is generated deterministically when the image is built,
so the commit hashes below are fixed. main of /app/repo is cloned into a
temporary directory and every check runs there, in subprocesses with timeouts.
"""
import json
import os
import re
import sys
import tempfile

import pytest
import trl_agent_run as agent_run

REPO = "/app/repo"
ANSWER = "/app/first_bad_commit.txt"
ORIGINAL_TIP = "18c56bf6b164aada3162d73c44e97ba82844c71f"   # "Bump version to 1.1.0.dev0"
FIRST_BAD = "92ac594045c922e30e6b78567da227b225916c7d"      # "Refactor: one UNITS table ..."
TIMEOUT = 60


_GIT_HOME = None


def git_env():
    # The repository belongs to the agent user while the tests run as root, so
    # git needs safe.directory; it is only honoured from the global config.
    global _GIT_HOME
    if _GIT_HOME is None:
        _GIT_HOME = tempfile.mkdtemp(prefix="githome-")
        with open(os.path.join(_GIT_HOME, ".gitconfig"), "w") as fh:
            fh.write("[safe]\n\tdirectory = *\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    agent_run.share(_GIT_HOME)
    env.update({"HOME": _GIT_HOME, "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"})
    return env


def git(*args, cwd=REPO, check=True):
    res = agent_run.run(["git", *args], cwd=cwd, env=git_env(), capture_output=True, text=True,
                         timeout=TIMEOUT)
    if check:
        assert res.returncode == 0, f"git {' '.join(args)} failed: {res.stderr}"
    return res


def main_sha():
    res = git("rev-parse", "--verify", "refs/heads/main^{commit}", check=False)
    assert res.returncode == 0, "branch main does not exist in /app/repo"
    return res.stdout.strip()


@pytest.fixture(scope="module")
def clone():
    main_sha()
    dst = os.path.join(tempfile.mkdtemp(prefix="tinydur-"), "repo")
    git("clone", "-q", "--no-hardlinks", "--branch", "main", REPO, dst, cwd="/tmp")
    return dst


def py(clone_dir, code, timeout=TIMEOUT):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return agent_run.run([sys.executable, "-c", code], cwd=clone_dir, env=env, capture_output=True,
                          text=True, timeout=timeout)


def cli(clone_dir, *args, stdin=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return agent_run.run([sys.executable, "-m", "tinydur", *args], cwd=clone_dir, env=env,
                          input=stdin, capture_output=True, text=True, timeout=TIMEOUT)


def parse_values(clone_dir, inputs):
    code = (
        "import json, sys\n"
        "from tinydur import parse\n"
        "out = {}\n"
        f"for text in {inputs!r}:\n"
        "    try:\n"
        "        out[text] = parse(text)\n"
        "    except ValueError:\n"
        "        out[text] = 'ValueError'\n"
        "print(json.dumps(out))\n"
    )
    res = py(clone_dir, code)
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads(res.stdout)


def test_answer_file_holds_one_full_commit_hash():
    assert os.path.isfile(ANSWER), f"{ANSWER} is missing"
    text = open(ANSWER, encoding="utf-8").read()
    assert re.fullmatch(r"[0-9a-f]{40}\n?", text), f"expected a full 40-character hash, got {text!r}"
    sha = text.strip()
    res = git("cat-file", "-t", sha, check=False)
    assert res.stdout.strip() == "commit", f"{sha} is not a commit of /app/repo"


def test_first_bad_commit_is_the_one_that_introduced_the_regression():
    assert os.path.isfile(ANSWER), f"{ANSWER} is missing"
    sha = open(ANSWER, encoding="utf-8").read().strip()
    assert sha == FIRST_BAD, f"{sha} is not the first bad commit"


def test_main_keeps_history_and_adds_fix_on_top():
    tip = main_sha()
    assert tip != ORIGINAL_TIP, "main has no new commit"
    res = git("merge-base", "--is-ancestor", ORIGINAL_TIP, tip, check=False)
    assert res.returncode == 0, "the original main is no longer an ancestor of main (history was rewritten)"
    new = git("rev-list", f"{ORIGINAL_TIP}..{tip}").stdout.split()
    assert 1 <= len(new) <= 5, f"{len(new)} new commits on main"
    tags = git("rev-parse", "v1.0^{commit}", check=False).stdout.strip()
    assert tags == "bf623d04a054f040dacd0bde2edc14ae04c331eb", "tag v1.0 was changed"


def test_fix_is_small_and_only_touches_package_code():
    tip = main_sha()
    names = git("diff", "--name-only", ORIGINAL_TIP, tip).stdout.split()
    assert names, "main does not change anything"
    for name in names:
        assert name.startswith("tinydur/") and name.endswith(".py"), f"fix touches {name}"
    stat = git("diff", "--numstat", ORIGINAL_TIP, tip).stdout.splitlines()
    changed = sum(int(a) + int(d) for a, d, _ in (line.split("\t") for line in stat))
    assert changed <= 20, f"{changed} changed lines is not a minimal fix"


def test_repository_test_suite_passes_on_fixed_main(clone):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    res = agent_run.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
                         cwd=clone, env=env, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stdout[-3000:]
    assert re.search(r"\b30 passed\b", res.stdout), res.stdout[-500:]


def test_milliseconds_parse_again(clone):
    got = parse_values(clone, ["250ms", "1500ms", "1m500ms", "2m 5ms", "7MS", "3s 40 ms", "999ms"])
    assert got == {"250ms": 0.25, "1500ms": 1.5, "1m500ms": 60.5, "2m 5ms": 120.005, "7MS": 0.007,
                   "3s 40 ms": 3.04, "999ms": 0.999}


def test_fractions_weeks_spaces_and_case_still_work(clone):
    got = parse_values(clone, ["1.5h", "2w 3d", "5 m", "1H30M", "1h 30m 15s", "0.5w", "1w2d3h4m5s6ms", "90s"])
    assert got == {"1.5h": 5400, "2w 3d": 1468800, "5 m": 300, "1H30M": 5400, "1h 30m 15s": 5415,
                   "0.5w": 302400, "1w2d3h4m5s6ms": 788645.006, "90s": 90}


def test_invalid_durations_rejected_while_valid_ms_accepted(clone):
    bad = ["", "ms", "5x", "1h-", "h1", "1.h", "m5", "1 h x", "3mss", "5msm"]
    got = parse_values(clone, bad + ["3ms", "5m5ms"])
    assert got == {**{b: "ValueError" for b in bad}, "3ms": 0.003, "5m5ms": 300.005}


def test_formatter_output_parses_back_and_units_table_unchanged(clone):
    code = (
        "from tinydur import format_duration as f\n"
        "print(f(694861)); print(f(90.25)); print(f(0)); print(f(3661, style='long'));"
        " print(f(5415, style='compact')); print(f(1209600.5, style='long'))\n"
    )
    res = py(clone, code)
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.splitlines() == [
        "1w 1d 1h 1m 1s", "1m 30s 250ms", "0s", "1 hour, 1 minute, 1 second", "1h30m15s",
        "2 weeks, 500 milliseconds"]
    res = cli(clone, "units")
    assert res.stdout.splitlines() == ["w 604800", "d 86400", "h 3600", "m 60", "s 1", "ms 0.001"]
    round_trip = py(clone, "from tinydur import parse, format_duration as f\n"
                           "for x in (694861, 90.25, 3.5, 604800.001, 86399.999):\n"
                           "    assert parse(f(x)) == x, (x, f(x))\n"
                           "    assert parse(f(x, style='compact')) == x\n"
                           "print('ok')\n")
    assert round_trip.stdout == "ok\n", round_trip.stderr[-1500:]


def test_cli_commands_work_on_fixed_main(clone):
    assert cli(clone, "sum", "1h", "30m", "250ms").stdout == "1h 30m 250ms\n"
    assert cli(clone, "sum", "--style", "long", "-", stdin="45s\n15s\n500ms\n").stdout == "1 minute, 500 milliseconds\n"
    res = cli(clone, "parse", "--json", "2w 1ms")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout) == {"input": "2w 1ms", "seconds": 1209600.001}
    bad = cli(clone, "parse", "12 parsecs")
    assert bad.returncode == 1 and bad.stderr.startswith("tinydur: ")
