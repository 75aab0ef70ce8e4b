"""Hidden tests for the fix-c-makefile-build scenario.

Every test works on a fresh copy of /app/libini: build outputs are removed and
the C sources are restored from a pristine copy shipped with the tests, so only
the agent's Makefile (and any make include files) are exercised. make and the
built programs always run in subprocesses with timeouts.
"""
import math
import os
import shutil
import stat
import tempfile

import pytest
import trl_agent_run as agent_run

PROJECT = "/app/libini"
PRISTINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pristine")
MAKE_TIMEOUT = 180
RUN_TIMEOUT = 20

OBJECTS = ["ini", "table", "strutil", "stats", "iniq"]
LIB_MEMBERS = {"ini.o", "table.o", "strutil.o", "stats.o"}
ARTIFACTS = [f"build/{o}.o" for o in OBJECTS] + ["build/libini.a", "build/iniq"]
SCRUB_ENV = ("CC", "CFLAGS", "CPPFLAGS", "LDFLAGS", "LDLIBS", "MAKEFLAGS", "MFLAGS",
             "MAKELEVEL", "PREFIX", "DESTDIR", "GNUMAKEFLAGS")


def pristine_files():
    out = []
    for root, _dirs, files in os.walk(PRISTINE):
        for name in files:
            full = os.path.join(root, name)
            out.append(os.path.relpath(full, PRISTINE))
    return sorted(out)


def fresh_tree():
    assert os.path.isfile(os.path.join(PROJECT, "Makefile")), "/app/libini/Makefile is missing"
    root = tempfile.mkdtemp(prefix="libini-test-")
    dst = os.path.join(root, "libini")
    shutil.copytree(PROJECT, dst, symlinks=True, ignore=shutil.ignore_patterns("build"))
    for dirpath, _dirs, files in os.walk(dst):
        for name in files:
            if name.endswith((".o", ".a", ".d")) or name == "iniq":
                os.remove(os.path.join(dirpath, name))
    for rel in pristine_files():
        target = os.path.join(dst, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(PRISTINE, rel), target)
    return dst


def make(tree, *args):
    env = {k: v for k, v in os.environ.items() if k not in SCRUB_ENV}
    return agent_run.run(["make", *args], cwd=tree, env=env, capture_output=True,
                          text=True, timeout=MAKE_TIMEOUT)


def must_make(tree, *args):
    res = make(tree, *args)
    assert res.returncode == 0, f"make {' '.join(args)} failed:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
    return res


def run(cmd, **kw):
    return agent_run.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT, **kw)


def backdate(tree, seconds=200):
    """Shift every mtime in the tree into the past, keeping their order, so that
    files edited afterwards are unambiguously newer than all build outputs."""
    for dirpath, _dirs, files in os.walk(tree):
        for name in files:
            p = os.path.join(dirpath, name)
            st = os.stat(p, follow_symlinks=False)
            os.utime(p, ns=(st.st_atime_ns - seconds * 10**9, st.st_mtime_ns - seconds * 10**9),
                     follow_symlinks=False)


def mtimes(tree):
    out = {}
    for rel in ARTIFACTS:
        p = os.path.join(tree, rel)
        assert os.path.isfile(p), f"{rel} was not built"
        out[rel] = os.stat(p).st_mtime_ns
    return out


def changed(before, after):
    return {k for k in before if before[k] != after[k]}


def edit(tree, rel, old, new):
    p = os.path.join(tree, rel)
    text = open(p, encoding="utf-8").read()
    assert old in text
    with open(p, "w", encoding="utf-8") as fh:
        fh.write(text.replace(old, new))


@pytest.fixture(scope="module")
def built():
    tree = fresh_tree()
    must_make(tree)
    return tree


HIDDEN_INI = """# inventory of test settings
[Database]
Host = db.internal
PORT = 5432
pool_size = 8

[metrics]
a = 3
b = 4.5
c = -1.5
label = cpu
d = 1e1
e =
[empty]
[Database]
user = svc
"""


def write_tmp(text):
    fd, path = tempfile.mkstemp(suffix=".ini")
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    return path


def test_clean_checkout_builds_library_and_tool(built):
    for rel in ARTIFACTS:
        assert os.path.isfile(os.path.join(built, rel)), f"{rel} missing after make"
    members = run(["ar", "t", os.path.join(built, "build/libini.a")])
    assert members.returncode == 0, members.stderr
    assert set(members.stdout.split()) == LIB_MEMBERS
    res = run([os.path.join(built, "build/iniq"), "--version"])
    assert res.returncode == 0, res.stderr
    assert res.stdout == "iniq 1.4.2 (libini 1.4.2)\n"


def test_built_iniq_answers_queries_including_math_stats(built):
    iniq = os.path.join(built, "build/iniq")
    path = write_tmp(HIDDEN_INI)
    assert run([iniq, path, "get", "database", "port"]).stdout == "5432\n"
    assert run([iniq, path, "get", "METRICS", "Label"]).stdout == "cpu\n"
    assert run([iniq, path, "sections"]).stdout == "Database\nmetrics\nempty\n"
    assert run([iniq, path, "keys", "Database"]).stdout == "Host\nPORT\npool_size\nuser\n"
    missing = run([iniq, path, "get", "Database", "password"])
    assert missing.returncode == 1
    values = [3, 4.5, -1.5, 10.0]
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
    expected = (f"count=4 sum={sum(values):.3f} mean={mean:.3f} stddev={sd:.3f} "
                f"min={min(values):.3f} max={max(values):.3f}\n")
    res = run([iniq, path, "stats", "metrics"])
    assert res.returncode == 0, res.stderr
    assert res.stdout == expected
    bad = write_tmp("[ok]\nx = 1\nnot a pair\n")
    res = run([iniq, bad, "sections"])
    assert res.returncode == 2
    assert ":3: syntax error" in res.stderr


def test_second_make_rewrites_nothing():
    tree = fresh_tree()
    must_make(tree)
    backdate(tree)
    before = mtimes(tree)
    must_make(tree)
    assert changed(before, mtimes(tree)) == set(), "a no-op make rebuilt files"


def test_public_version_header_change_rebuilds_exact_dependents():
    tree = fresh_tree()
    must_make(tree)
    backdate(tree)
    before = mtimes(tree)
    edit(tree, "include/ini_version.h", '"1.4.2"', '"7.0.1-rc3"')
    must_make(tree)
    diff = changed(before, mtimes(tree))
    assert diff == {"build/ini.o", "build/stats.o", "build/iniq.o", "build/libini.a", "build/iniq"}, (
        f"rebuilt: {sorted(diff)}")
    res = run([os.path.join(tree, "build/iniq"), "--version"])
    assert res.stdout == "iniq 7.0.1-rc3 (libini 7.0.1-rc3)\n"


def test_private_header_change_rebuilds_exact_dependents():
    tree = fresh_tree()
    must_make(tree)
    path = write_tmp(HIDDEN_INI)
    iniq = os.path.join(tree, "build/iniq")
    assert run([iniq, path, "get", "database", "PORT"]).stdout == "5432\n"
    backdate(tree)
    before = mtimes(tree)
    edit(tree, "src/config.h", "#define INI_FOLD_NAMES 1", "#define INI_FOLD_NAMES 0")
    must_make(tree)
    diff = changed(before, mtimes(tree))
    assert diff == {"build/ini.o", "build/table.o", "build/libini.a", "build/iniq"}, (
        f"rebuilt: {sorted(diff)}")
    # names are now case-sensitive
    assert run([iniq, path, "get", "database", "PORT"]).returncode == 1
    assert run([iniq, path, "get", "Database", "PORT"]).stdout == "5432\n"


def test_editing_one_source_rebuilds_only_its_object():
    tree = fresh_tree()
    must_make(tree)
    backdate(tree)
    before = mtimes(tree)
    with open(os.path.join(tree, "src/strutil.c"), "a") as fh:
        fh.write("\n/* touched */\n")
    must_make(tree)
    after = mtimes(tree)
    assert changed(before, after) == {"build/strutil.o", "build/libini.a", "build/iniq"}, (
        f"rebuilt: {sorted(changed(before, after))}")
    backdate(tree)
    before = mtimes(tree)
    with open(os.path.join(tree, "tools/iniq.c"), "a") as fh:
        fh.write("\n/* touched */\n")
    must_make(tree)
    assert changed(before, mtimes(tree)) == {"build/iniq.o", "build/iniq"}


def test_cflags_override_keeps_include_path_and_math_library():
    tree = fresh_tree()
    res = make(tree, "CFLAGS=-O0 -g")
    assert res.returncode == 0, f"make CFLAGS='-O0 -g' failed:\n{res.stdout[-2000:]}\n{res.stderr[-2000:]}"
    iniq = os.path.join(tree, "build/iniq")
    info = run(["file", "-L", iniq])
    assert "with debug_info" in info.stdout, f"CFLAGS not honoured: {info.stdout}"
    path = write_tmp(HIDDEN_INI)
    res = run([iniq, path, "stats", "metrics"])
    assert res.returncode == 0 and res.stdout.startswith("count=4 sum=16.000 mean=4.000 stddev=4.108")


def installed_files(stage):
    out = {}
    for dirpath, _dirs, files in os.walk(stage):
        for name in files:
            p = os.path.join(dirpath, name)
            out[os.path.relpath(p, stage)] = stat.S_IMODE(os.lstat(p).st_mode)
    return out


CONSUMER = r"""
#include <stdio.h>
#include "ini.h"
int main(int argc, char **argv) {
    int line = 0;
    ini_stats st;
    ini_doc *d = ini_load(argv[1], &line);
    if (!d) return 3;
    if (ini_section_stats(d, "metrics", &st) != 0) return 4;
    printf("%s %zu %.2f %s\n", ini_version(), st.count, st.stddev, ini_get(d, "database", "host"));
    ini_free(d);
    return argc == 2 ? 0 : 5;
}
"""


def test_install_honours_prefix_and_destdir_from_clean_tree():
    tree = fresh_tree()
    stage = tempfile.mkdtemp(prefix="stage-")
    must_make(tree, "install", f"DESTDIR={stage}", "PREFIX=/opt/ini")
    files = installed_files(stage)
    assert files == {
        "opt/ini/bin/iniq": 0o755,
        "opt/ini/lib/libini.a": 0o644,
        "opt/ini/include/ini.h": 0o644,
        "opt/ini/include/ini_version.h": 0o644,
    }, files
    res = run([os.path.join(stage, "opt/ini/bin/iniq"), "--version"])
    assert res.stdout == "iniq 1.4.2 (libini 1.4.2)\n"
    src = os.path.join(stage, "consumer.c")
    with open(src, "w") as fh:
        fh.write(CONSUMER)
    exe = os.path.join(stage, "consumer")
    cc = run(["cc", "-I", os.path.join(stage, "opt/ini/include"), "-o", exe, src,
              os.path.join(stage, "opt/ini/lib/libini.a"), "-lm"])
    assert cc.returncode == 0, cc.stderr
    res = run([exe, write_tmp(HIDDEN_INI)])
    assert res.returncode == 0 and res.stdout == "1.4.2 4 4.11 db.internal\n"


def test_install_default_prefix_is_usr_local():
    tree = fresh_tree()
    must_make(tree)
    stage = tempfile.mkdtemp(prefix="stage-")
    must_make(tree, "install", f"DESTDIR={stage}")
    assert installed_files(stage) == {
        "usr/local/bin/iniq": 0o755,
        "usr/local/lib/libini.a": 0o644,
        "usr/local/include/ini.h": 0o644,
        "usr/local/include/ini_version.h": 0o644,
    }


def test_clean_removes_outputs_and_keeps_every_source():
    tree = fresh_tree()
    must_make(tree)
    must_make(tree, "clean")
    leftovers = []
    for dirpath, _dirs, files in os.walk(tree):
        for name in files:
            rel = os.path.relpath(os.path.join(dirpath, name), tree)
            if rel.startswith("build" + os.sep) or name.endswith((".o", ".a", ".d")):
                leftovers.append(rel)
    assert leftovers == [], f"left behind by make clean: {leftovers}"
    for rel in pristine_files() + ["examples/sample.ini", "README.md"]:
        p = os.path.join(tree, rel)
        assert os.path.isfile(p), f"make clean deleted {rel}"
    for rel in pristine_files():
        with open(os.path.join(tree, rel), "rb") as a, open(os.path.join(PRISTINE, rel), "rb") as b:
            assert a.read() == b.read(), f"{rel} was modified"
    assert os.path.isfile(os.path.join(tree, "Makefile"))
    must_make(tree, "clean")
    must_make(tree)
    assert os.path.isfile(os.path.join(tree, "build/iniq"))
