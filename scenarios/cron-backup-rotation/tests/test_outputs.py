"""Hidden tests for the cron-backup-rotation scenario.

/app/backup/backup.sh is executed in subprocesses (with timeouts) on trees
built here, with BACKUP_DATE fixed so that every run is deterministic. The
crontab is parsed with a small cron field parser and its two commands are run
the way cron would run them (SHELL, environment lines, `%` handling).
"""
import os
import re
import shutil
import stat
import tarfile
import tempfile

import pytest
import trl_agent_run as agent_run

SCRIPT = "/app/backup/backup.sh"
CRONTAB = "/app/backup/crontab"
TIMEOUT = 60


# --- helpers -------------------------------------------------------------------

def make_tree(root, files, dirs=(), links=None):
    os.makedirs(root, exist_ok=True)
    for d in dirs:
        os.makedirs(os.path.join(root, d), exist_ok=True)
    for rel, content in files.items():
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", newline="") as fh:
            fh.write(content)
    for rel, target in (links or {}).items():
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        os.symlink(target, p)
    return root


def workdir():
    return tempfile.mkdtemp(prefix="backup-test-")


AGENT_HOME = "/home/agent"  # the script runs as the agent user, as its own crontab would run it


def temp_paths(env):
    """The test work folders (directly under the temporary directory) named in env, to hand to the agent user."""
    temp = tempfile.gettempdir()
    found = []
    for value in env.values():
        if value and value.startswith(temp + "/"):
            found.append(os.path.join(temp, os.path.relpath(value, temp).split(os.sep)[0]))
    return [p for p in found if os.path.isdir(p)]


def run_backup(env_vars, cwd="/tmp"):
    assert os.path.isfile(SCRIPT), f"{SCRIPT} is missing"
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": AGENT_HOME, "LANG": "C.UTF-8"}
    env.update({k: v for k, v in env_vars.items() if v is not None})
    return agent_run.run([SCRIPT], env=env, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT,
                         share=temp_paths(env))


def members(path):
    with tarfile.open(path, "r:gz") as tf:
        return {m.name.rstrip("/"): m for m in tf.getmembers()}


def regular_files(path, base):
    out = set()
    for name, m in members(path).items():
        if m.isfile():
            assert name.startswith(base + "/"), name
            out.add(name[len(base) + 1:])
    return out


def archives(dest):
    return sorted(f for f in os.listdir(dest) if f.endswith(".tar.gz"))


def read_log(path):
    with open(path) as fh:
        return fh.read().splitlines()


def touch_archive(dest, name, mtime):
    p = os.path.join(dest, name)
    with open(p, "wb") as fh:
        fh.write(b"old archive " + name.encode())
    os.utime(p, (mtime, mtime))
    return p


# --- script ----------------------------------------------------------------------

def test_creates_named_archive_with_relative_members_links_and_private_mode():
    w = workdir()
    src = make_tree(
        os.path.join(w, "srv", "webdata"),
        {"index.html": "<h1>hi</h1>", "css/site.css": "body{}", "deep/a/b/c.txt": "c", ".hidden": "h"},
        dirs=["empty-dir", "deep/empty"],
        links={"current": "css/site.css", "outside": "/etc/hostname"},
    )
    dest = os.path.join(w, "backups", "nested")
    proc = run_backup({"BACKUP_SRC": src, "BACKUP_DEST": dest, "BACKUP_DATE": "20240305-023000"})
    assert proc.returncode == 0, proc.stderr
    path = os.path.join(dest, "webdata-20240305-023000.tar.gz")
    assert archives(dest) == ["webdata-20240305-023000.tar.gz"]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    ms = members(path)
    assert all(n == "webdata" or n.startswith("webdata/") for n in ms), sorted(ms)
    assert regular_files(path, "webdata") == {"index.html", "css/site.css", "deep/a/b/c.txt", ".hidden"}
    assert ms["webdata/empty-dir"].isdir() and ms["webdata/deep/empty"].isdir()
    assert ms["webdata/current"].issym() and ms["webdata/current"].linkname == "css/site.css"
    assert ms["webdata/outside"].issym()


def test_builtin_and_backupignore_exclusions_match_names_at_any_depth():
    w = workdir()
    files = {
        "keep.txt": "k",
        "src/app.py": "print()",
        "src/app.pyc": "bytecode",
        "logs/today.log": "l",
        "logs/readme.md": "r",
        "build/out.bin": "b",
        "src/build/inner.o": "o",
        "building/keep.txt": "not build",
        "data/secret-1.csv": "s",
        "data/public.csv": "p",
        "notes/draft.txt~": "d",
        ".backupignore": "# generated files\r\n*.pyc\r\n\r\n  build  \r\n*.log\r\nsecret-*\r\n#keep.txt\r\n",
    }
    for name in ("x.tmp", "y.swp", "z~"):
        files[f"a/{name}"] = "x"
    for name in (".cache", "node_modules", "__pycache__"):
        files[f"a/{name}/inner.txt"] = "x"
    files["b/node_modules/pkg/index.js"] = "x"
    files["b/c/__pycache__/m.pyc"] = "x"
    files["b/.cache/pip/f"] = "x"
    files["b/c/vim.swp"] = "x"
    src = make_tree(os.path.join(w, "proj"), files)
    dest = os.path.join(w, "dest")
    proc = run_backup({"BACKUP_SRC": src, "BACKUP_DEST": dest, "BACKUP_DATE": "20240306-010000"})
    assert proc.returncode == 0, proc.stderr
    got = regular_files(os.path.join(dest, "proj-20240306-010000.tar.gz"), "proj")
    assert got == {"keep.txt", "src/app.py", "logs/readme.md", "building/keep.txt", "data/public.csv", ".backupignore"}


def test_rotation_keeps_newest_by_timestamp_in_name_not_file_time():
    w = workdir()
    src = make_tree(os.path.join(w, "projects"), {"f.txt": "f"})
    dest = os.path.join(w, "dest")
    os.makedirs(dest)
    old = [f"projects-202402{d:02d}-023000.tar.gz" for d in range(20, 27)]  # 7 archives
    for i, name in enumerate(old):
        touch_archive(dest, name, 1_900_000_000 - i * 1000)  # newer name -> older mtime
    proc = run_backup({"BACKUP_SRC": src, "BACKUP_DEST": dest, "BACKUP_DATE": "20240305-023000",
                       "BACKUP_KEEP": "3"})
    assert proc.returncode == 0, proc.stderr
    assert archives(dest) == [
        "projects-20240225-023000.tar.gz",
        "projects-20240226-023000.tar.gz",
        "projects-20240305-023000.tar.gz",
    ]


def test_rotation_never_touches_other_names_or_unrelated_files():
    w = workdir()
    src = make_tree(os.path.join(w, "projects"), {"f.txt": "f"})
    dest = os.path.join(w, "dest")
    os.makedirs(dest)
    others = [
        "projects-weekly-20240101-031500.tar.gz",
        "projects-weekly-20240108-031500.tar.gz",
        "projects-old.tar.gz",
        "projects-2024-01-01.tar.gz",
        "projects-20240101-0130.tar.gz",
        "projects-20240101-013000.tar.gz.bak",
        "xprojects-20240101-013000.tar.gz",
        "notes.txt",
    ]
    for i, name in enumerate(others):
        touch_archive(dest, name, 1_000_000_000 + i)
    mine = ["projects-20240101-013000.tar.gz", "projects-20240102-013000.tar.gz"]
    for i, name in enumerate(mine):
        touch_archive(dest, name, 1_000_000_000 + i)
    proc = run_backup({"BACKUP_SRC": src, "BACKUP_DEST": dest, "BACKUP_DATE": "20240103-013000",
                       "BACKUP_KEEP": "1"})
    assert proc.returncode == 0, proc.stderr
    remaining = set(os.listdir(dest)) - {"backup.log"}
    assert remaining == set(others) | {"projects-20240103-013000.tar.gz"}


def test_existing_archive_is_left_alone_with_exit_status_3():
    w = workdir()
    src = make_tree(os.path.join(w, "projects"), {"f.txt": "f"})
    dest = os.path.join(w, "dest")
    os.makedirs(dest)
    for d in (1, 2, 3):
        touch_archive(dest, f"projects-2024010{d}-013000.tar.gz", 1_000_000_000)
    proc = run_backup({"BACKUP_SRC": src, "BACKUP_DEST": dest, "BACKUP_DATE": "20240103-013000",
                       "BACKUP_KEEP": "1"})
    assert proc.returncode == 3
    with open(os.path.join(dest, "projects-20240103-013000.tar.gz"), "rb") as fh:
        assert fh.read() == b"old archive projects-20240103-013000.tar.gz"
    assert len(archives(dest)) == 3, "no rotation after a failed run"
    assert read_log(os.path.join(dest, "backup.log")) == [
        "2024-01-03T01:30:00Z ERROR projects-20240103-013000.tar.gz already exists"
    ]


def assert_rejected(case):
    w = workdir()
    src = make_tree(os.path.join(w, "projects"), {"f.txt": "f"})
    file_src = os.path.join(w, "plain-file")
    with open(file_src, "w") as fh:
        fh.write("x")
    dest = os.path.join(w, "dest")
    env = {"BACKUP_SRC": src, "BACKUP_DEST": dest, "BACKUP_DATE": "20240305-023000", "BACKUP_KEEP": "2"}
    env.update(case)
    if env.get("BACKUP_SRC") == "FILE":
        env["BACKUP_SRC"] = file_src
    proc = run_backup(env)
    assert proc.returncode == 2, (case, proc.returncode, proc.stderr)
    assert proc.stderr.strip(), f"{case}: an error message is expected on stderr"
    assert not os.path.exists(dest), f"{case}: nothing may be created for an invalid configuration"


def test_missing_or_invalid_paths_and_names_exit_2_without_side_effects():
    for case in (
        {"BACKUP_SRC": None},
        {"BACKUP_SRC": ""},
        {"BACKUP_DEST": None},
        {"BACKUP_SRC": "/nonexistent/source"},
        {"BACKUP_SRC": "FILE"},
        {"BACKUP_NAME": "bad/name"},
        {"BACKUP_NAME": "has space"},
    ):
        assert_rejected(case)


def test_invalid_keep_or_date_exit_2_without_side_effects():
    for case in (
        {"BACKUP_KEEP": "0"},
        {"BACKUP_KEEP": "-2"},
        {"BACKUP_KEEP": "three"},
        {"BACKUP_KEEP": "2.5"},
        {"BACKUP_DATE": "2024-03-05"},
        {"BACKUP_DATE": "20240305023000"},
        {"BACKUP_DATE": "20240305-0230"},
    ):
        assert_rejected(case)


def test_log_lines_for_created_and_removed_archives_are_appended():
    w = workdir()
    src = make_tree(os.path.join(w, "site"), {"a.txt": "a", "b/c.txt": "c", "b/d.tmp": "d", "e/f/g.txt": "g"},
                    dirs=["empty"], links={"l": "a.txt"})
    dest = os.path.join(w, "dest")
    log = os.path.join(w, "logs", "backup.log")
    os.makedirs(os.path.dirname(log))
    base = {"BACKUP_SRC": src, "BACKUP_DEST": dest, "BACKUP_KEEP": "2", "BACKUP_LOG": log}
    for date in ("20240101-000000", "20240102-000000", "20240103-000000", "20240104-120000"):
        proc = run_backup(dict(base, BACKUP_DATE=date))
        assert proc.returncode == 0, proc.stderr
    assert not os.path.exists(os.path.join(dest, "backup.log")), "BACKUP_LOG must be honoured"
    assert read_log(log) == [
        "2024-01-01T00:00:00Z INFO created site-20240101-000000.tar.gz files=3",
        "2024-01-02T00:00:00Z INFO created site-20240102-000000.tar.gz files=3",
        "2024-01-03T00:00:00Z INFO created site-20240103-000000.tar.gz files=3",
        "2024-01-03T00:00:00Z INFO removed site-20240101-000000.tar.gz",
        "2024-01-04T12:00:00Z INFO created site-20240104-120000.tar.gz files=3",
        "2024-01-04T12:00:00Z INFO removed site-20240102-000000.tar.gz",
    ]


def test_defaults_keep_seven_name_from_source_and_log_in_dest():
    w = workdir()
    src = make_tree(os.path.join(w, "Team_Share.v2"), {"x": "x"})
    dest = os.path.join(w, "dest")
    for day in range(1, 10):
        proc = run_backup({"BACKUP_SRC": src + "/", "BACKUP_DEST": dest, "BACKUP_DATE": f"202405{day:02d}-220000"})
        assert proc.returncode == 0, proc.stderr
    assert archives(dest) == [f"Team_Share.v2-202405{d:02d}-220000.tar.gz" for d in range(3, 10)]
    lines = read_log(os.path.join(dest, "backup.log"))
    assert lines[0] == "2024-05-01T22:00:00Z INFO created Team_Share.v2-20240501-220000.tar.gz files=1"
    assert sum(" INFO removed " in l for l in lines) == 2


def test_archive_creation_failure_exits_4_and_logs_an_error():
    w = workdir()
    src = make_tree(os.path.join(w, "projects"), {"f.txt": "f"})
    log = os.path.join(w, "backup.log")
    # /proc/self exists and is a directory, but no file can be created in it (not even by root)
    proc = run_backup({"BACKUP_SRC": src, "BACKUP_DEST": "/proc/self", "BACKUP_DATE": "20240305-023000",
                       "BACKUP_LOG": log})
    assert proc.returncode == 4, (proc.returncode, proc.stderr)
    lines = read_log(log)
    assert lines and all(l.startswith("2024-03-05T02:30:00Z ERROR ") for l in lines), lines


# --- crontab ---------------------------------------------------------------------

NAMES = {
    3: {n: i for i, n in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1)},
    4: {n: i for i, n in enumerate(["sun", "mon", "tue", "wed", "thu", "fri", "sat"])},
}
RANGES = [(0, 59), (0, 23), (1, 31), (1, 12), (0, 7)]


def expand(field, index):
    lo, hi = RANGES[index]
    names = NAMES.get(index, {})

    def value(tok):
        tok = tok.lower()
        if tok in names:
            return names[tok]
        assert re.fullmatch(r"\d+", tok), f"bad cron token {tok!r}"
        return int(tok)

    out = set()
    for part in field.split(","):
        step = 1
        if "/" in part:
            part, step_s = part.split("/", 1)
            step = int(step_s)
        if part == "*":
            a, b = lo, hi
        elif "-" in part:
            a, b = (value(x) for x in part.split("-", 1))
        else:
            a = b = value(part)
            if step != 1:
                b = hi
        assert lo <= a <= b <= hi, f"out of range: {field!r}"
        out.update(range(a, b + 1, step))
    if index == 4 and 7 in out:
        out.discard(7)
        out.add(0)
    return out


def parse_crontab():
    assert os.path.isfile(CRONTAB), f"{CRONTAB} is missing"
    env, jobs = {}, []
    with open(CRONTAB) as fh:
        for raw in fh:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)", line)
            if m and not re.match(r"[\d*@]", line):
                value = m.group(2).strip()
                if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
                    value = value[1:-1]
                env[m.group(1)] = value
                continue
            assert not line.startswith("@"), "use the five time fields"
            parts = line.split(None, 5)
            assert len(parts) == 6, f"not a crontab job line: {line!r}"
            jobs.append((parts[:5], parts[5]))
    return env, jobs


def cron_command(command):
    """What cron really executes: text up to the first unescaped %, with \\% unescaped."""
    m = re.search(r"(?<!\\)%", command)
    if m:
        command = command[: m.start()]
    return command.replace("\\%", "%")


def find_jobs():
    env, jobs = parse_crontab()
    assert len(jobs) == 2, f"expected exactly two jobs, found {len(jobs)}"
    weekly = [j for j in jobs if "projects-weekly" in j[1]]
    daily = [j for j in jobs if "projects-weekly" not in j[1]]
    assert len(weekly) == 1 and len(daily) == 1
    return env, daily[0], weekly[0]


def test_crontab_environment_and_schedules():
    env, daily, weekly = find_jobs()
    assert env.get("SHELL") == "/bin/bash"
    assert env.get("PATH") == "/usr/local/bin:/usr/bin:/bin"
    assert env.get("MAILTO") == "backup-alerts@example.test"
    all_days, all_months = set(range(1, 32)), set(range(1, 13))
    fields, _ = daily
    assert [expand(f, i) for i, f in enumerate(fields)] == [{30}, {1, 13}, all_days, all_months, {1, 2, 3, 4, 5, 6}]
    assert fields[2].startswith("*"), "a restricted day-of-month would be OR-ed with the weekdays"
    fields, _ = weekly
    assert [expand(f, i) for i, f in enumerate(fields)] == [{15}, {3}, all_days, all_months, {0}]
    assert fields[2].startswith("*"), "a restricted day-of-month would be OR-ed with the weekday"


def run_cron_job(env, command, date):
    shell = env.get("SHELL", "/bin/sh")
    full_env = {"HOME": AGENT_HOME, "LOGNAME": "agent", "PATH": "/usr/bin:/bin", "BACKUP_DATE": date}
    full_env.update(env)
    return agent_run.run([shell, "-c", cron_command(command)], env=full_env, cwd=AGENT_HOME,
                         capture_output=True, text=True, timeout=TIMEOUT, share=temp_paths(full_env))


def test_crontab_jobs_back_up_and_rotate_separately():
    env, daily, weekly = find_jobs()
    for path in ("/srv/projects", "/var/backups/projects", "/var/log/backup"):
        shutil.rmtree(path, ignore_errors=True)
    make_tree("/srv/projects", {"alpha/readme.md": "a", "beta/main.c": "int main(){}", "beta/main.o.tmp": "x"})
    os.makedirs("/var/log/backup")
    agent_run.share("/srv/projects", "/var/backups", "/var/log/backup")
    dates = [f"202406{d:02d}-013000" for d in range(1, 17)]
    sundays = [f"202406{d:02d}-031500" for d in (2, 9, 16, 23, 30)] + [f"202407{d:02d}-031500" for d in (7, 14, 21, 28)]
    # weekly archives exist before the daily job rotates, and the other way round
    for date in sundays[:5]:
        proc = run_cron_job(env, weekly[1], date)
        assert proc.returncode == 0, proc.stderr
    for date in dates:
        proc = run_cron_job(env, daily[1], date)
        assert proc.returncode == 0, proc.stderr
    for date in sundays[5:]:
        proc = run_cron_job(env, weekly[1], date)
        assert proc.returncode == 0, proc.stderr
    names = archives("/var/backups/projects")
    assert [n for n in names if not n.startswith("projects-weekly-")] == [f"projects-{d}.tar.gz" for d in dates[2:]]
    assert [n for n in names if n.startswith("projects-weekly-")] == [f"projects-weekly-{d}.tar.gz" for d in sundays[1:]]
    got = regular_files(f"/var/backups/projects/projects-{dates[-1]}.tar.gz", "projects")
    assert got == {"alpha/readme.md", "beta/main.c"}
    assert os.path.isfile("/var/log/backup/cron.log"), "job output must be appended to /var/log/backup/cron.log"
