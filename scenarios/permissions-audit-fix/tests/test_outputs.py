"""Hidden tests for the permissions-audit-fix scenario.

/app/permaudit.py is run in a subprocess (with a timeout) on copies of the
shipped tree and on trees built here. Every expected mode below was assigned by
hand from /app/policy.md.
"""
import json
import os
import shutil
import stat
import sys
import tempfile

import pytest
import trl_agent_run as agent_run

TOOL = "/app/permaudit.py"
SHIPPED = "/app/project"
TIMEOUT = 60

# (path, type, found, expected) for the shipped tree
SHIPPED_VIOLATIONS = [
    (".cache", "dir", "0755", "2775"),
    (".cache/pip", "dir", "0700", "2775"),
    (".cache/pip/selfcheck.json", "file", "0600", "0664"),
    (".env", "file", "0644", "0600"),
    (".env.example.txt", "file", "0640", "0600"),
    (".git/hooks/pre-commit", "file", "0644", "0775"),
    (".git/objects/ab/cdef", "file", "0444", "0664"),
    ("README.md", "file", "0666", "0664"),
    ("bin", "dir", "0755", "2775"),
    ("bin/deploy", "file", "0755", "0775"),
    ("bin/rotate-logs", "file", "0644", "0775"),
    ("build", "dir", "0755", "2775"),
    ("build/app.tar", "file", "4755", "0664"),
    ("config", "dir", "2755", "2775"),
    ("config/secrets", "dir", "0750", "2770"),
    ("config/signing.key", "file", "0664", "0600"),
    ("docs", "dir", "0755", "2775"),
    ("docs/guide.md", "file", "0644", "0664"),
    ("docs/images", "dir", "0755", "2775"),
    ("scripts/helpers.txt", "file", "0664", "0775"),
    ("secrets", "dir", "0775", "2770"),
    ("secrets/db.txt", "file", "0644", "0660"),
    ("secrets/rotate.sh", "file", "0755", "0660"),
    ("secrets/tls/server.key", "file", "0640", "0600"),
    ("shared notes", "dir", "0777", "2775"),
    ("shared notes/résumé.md", "file", "0646", "0664"),
    ("src/app/bin/runner", "file", "0644", "0775"),
    ("src/app/cli.py", "file", "0644", "0775"),
    ("src/app/notes.sh", "file", "0775", "0664"),
    ("tools", "dir", "0755", "2775"),
]
SHIPPED_CHECKED = 50


def run(*args):
    return agent_run.run(
        [sys.executable, TOOL, *args], capture_output=True, text=True, timeout=TIMEOUT, cwd="/tmp"
    )


def run_json(*args):
    proc = run(*args)
    try:
        data = json.loads(proc.stdout)
    except ValueError:
        pytest.fail(f"stdout is not one JSON object (exit {proc.returncode}):\n{proc.stdout[:500]}\n{proc.stderr[-1500:]}")
    return proc, data


def copy_shipped():
    dst = os.path.join(tempfile.mkdtemp(prefix="perm-shipped-"), "project")
    shutil.copytree(SHIPPED, dst, symlinks=True)
    agent_run.share(dst)  # the tool runs as the agent user and must own what it fixes
    # copytree keeps modes; make sure the special bits survived too
    for dirpath, dirnames, filenames in os.walk(SHIPPED):
        for name in dirnames + filenames:
            src = os.path.join(dirpath, name)
            if os.path.islink(src):
                continue
            rel = os.path.relpath(src, SHIPPED)
            os.chmod(os.path.join(dst, rel), stat.S_IMODE(os.lstat(src).st_mode))
    return dst


def snapshot(root):
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            content = None
            if stat.S_ISREG(st.st_mode):
                with open(p, "rb") as fh:
                    content = fh.read()
            elif stat.S_ISLNK(st.st_mode):
                content = os.readlink(p)
            out[os.path.relpath(p, root)] = (stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode), content)
    return out


def build(spec, root=None):
    """spec: list of (relpath, kind, mode, content_or_target). kind: dir|file|link."""
    root = root or os.path.join(tempfile.mkdtemp(prefix="perm-tree-"), "tree")
    os.makedirs(root, exist_ok=True)
    os.chmod(root, 0o2775)
    for rel, kind, _mode, extra in spec:
        p = os.path.join(root, rel)
        if kind == "dir":
            os.makedirs(p, exist_ok=True)
        elif kind == "file":
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "wb") as fh:
                fh.write(extra if isinstance(extra, bytes) else extra.encode())
        elif kind == "link":
            os.makedirs(os.path.dirname(p), exist_ok=True)
            os.symlink(extra, p)
    agent_run.share(root)  # the tool runs as the agent user and must own what it fixes
    # modes last, deepest first, so parents stay traversable while building
    for rel, kind, mode, _ in sorted(spec, key=lambda s: -s[0].count("/")):
        if kind != "link":
            os.chmod(os.path.join(root, rel), mode)
    return root


def violations_of(data):
    return [(v.get("path"), v.get("type"), v.get("mode"), v.get("expected")) for v in data.get("violations", [])]


# ---------------------------------------------------------------------------

def test_shipped_tree_report_lists_exact_violations():
    root = copy_shipped()
    proc, data = run_json(root)
    assert proc.returncode == 1, proc.stderr
    assert data.get("root") == root
    assert violations_of(data) == SHIPPED_VIOLATIONS
    assert data.get("checked") == SHIPPED_CHECKED
    assert data.get("fixed") == 0


def test_report_only_mode_changes_nothing():
    root = copy_shipped()
    before = snapshot(root)
    proc, _ = run_json(root)
    assert proc.returncode == 1
    assert snapshot(root) == before


def test_fix_repairs_shipped_tree_and_second_run_is_clean():
    root = copy_shipped()
    before = snapshot(root)
    proc, data = run_json("--fix", root)
    assert proc.returncode == 1, proc.stderr
    assert violations_of(data) == SHIPPED_VIOLATIONS
    assert data.get("fixed") == len(SHIPPED_VIOLATIONS)
    after = snapshot(root)
    expected_modes = {p: int(e, 8) for p, _, _, e in SHIPPED_VIOLATIONS}
    for rel, (kind, mode, content) in before.items():
        want = expected_modes.get(rel, mode)
        assert after[rel] == (kind, want, content), rel
    proc2, data2 = run_json("--fix", root)
    assert proc2.returncode == 0, proc2.stdout
    assert data2.get("violations") == [] and data2.get("fixed") == 0
    assert data2.get("checked") == SHIPPED_CHECKED


def test_symlinks_are_never_followed_or_changed():
    outside = tempfile.mkdtemp(prefix="perm-outside-")
    target_file = os.path.join(outside, "victim.txt")
    with open(target_file, "w") as fh:
        fh.write("do not touch\n")
    os.chmod(target_file, 0o640)
    target_dir = os.path.join(outside, "vdir")
    os.mkdir(target_dir)
    os.chmod(target_dir, 0o700)
    inner = os.path.join(target_dir, "inner.sh")
    with open(inner, "w") as fh:
        fh.write("#!/bin/sh\n")
    os.chmod(inner, 0o600)
    root = build([
        ("docs", "dir", 0o2775, None),
        ("docs/a.txt", "file", 0o664, "a"),
        ("docs/victim-link.txt", "link", None, target_file),
        ("docs/dir-link", "link", None, target_dir),
        ("bin", "dir", 0o2775, None),
        ("bin/key.pem", "link", None, target_file),
        ("dangling", "link", None, "/nonexistent/path"),
    ])
    proc, data = run_json("--fix", root)
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    assert data.get("violations") == []
    assert data.get("checked") == 3
    assert stat.S_IMODE(os.stat(target_file).st_mode) == 0o640
    assert stat.S_IMODE(os.stat(target_dir).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(inner).st_mode) == 0o600


def test_hidden_files_and_directories_are_checked():
    root = build([
        (".config", "dir", 0o755, None),
        (".config/tool.toml", "file", 0o644, "x=1"),
        (".hidden-dir", "dir", 0o2775, None),
        (".hidden-dir/.deeper", "dir", 0o700, None),
        (".hidden-dir/.deeper/.run", "file", 0o600, "#!/bin/sh\n"),
        (".gitignore", "file", 0o664, "*.pyc\n"),
        (".env.local", "file", 0o664, "A=1\n"),
        (".envrc", "file", 0o644, "use nix\n"),
    ])
    proc, data = run_json(root)
    assert proc.returncode == 1
    assert violations_of(data) == [
        (".config", "dir", "0755", "2775"),
        (".config/tool.toml", "file", "0644", "0664"),
        (".env.local", "file", "0664", "0600"),
        (".envrc", "file", "0644", "0664"),
        (".hidden-dir/.deeper", "dir", "0700", "2775"),
        (".hidden-dir/.deeper/.run", "file", "0600", "0775"),
    ]
    assert data.get("checked") == 8


def test_secrets_rules_and_key_material_precedence():
    root = build([
        ("secrets", "dir", 0o2770, None),
        ("secrets/.env", "file", 0o660, "X=1"),
        ("secrets/tls", "dir", 0o2775, None),
        ("secrets/tls/ca.pem", "file", 0o600, "c"),
        ("secrets/tls/readme.txt", "file", 0o664, "r"),
        ("secrets/bin", "dir", 0o2770, None),
        ("secrets/bin/unlock", "file", 0o775, "#!/bin/sh\n"),
        ("app", "dir", 0o2775, None),
        ("app/config", "dir", 0o2775, None),
        ("app/config/secrets", "dir", 0o2775, None),
        ("app/config/secrets/token", "file", 0o660, "t"),
        ("app/my-secrets", "dir", 0o2770, None),
        ("app/my-secrets/x.txt", "file", 0o660, "x"),
        ("app/secrets.txt", "file", 0o600, "not a dir"),
    ])
    proc, data = run_json("--fix", root)
    assert proc.returncode == 1
    assert violations_of(data) == [
        ("app/config/secrets", "dir", "2775", "2770"),
        ("app/my-secrets", "dir", "2770", "2775"),
        ("app/my-secrets/x.txt", "file", "0660", "0664"),
        ("app/secrets.txt", "file", "0600", "0664"),
        ("secrets/.env", "file", "0660", "0600"),
        ("secrets/bin/unlock", "file", "0775", "0660"),
        ("secrets/tls", "dir", "2775", "2770"),
        ("secrets/tls/readme.txt", "file", "0664", "0660"),
    ]
    assert data.get("fixed") == 8
    assert stat.S_IMODE(os.stat(os.path.join(root, "secrets/tls")).st_mode) == 0o2770
    assert stat.S_IMODE(os.stat(os.path.join(root, "app/secrets.txt")).st_mode) == 0o664


def test_executables_by_location_and_shebang():
    root = build([
        ("bin", "dir", 0o2775, None),
        ("bin/empty", "file", 0o664, b""),
        ("bin/tool", "file", 0o775, "plain"),
        ("bin/nested", "dir", 0o2775, None),
        ("bin/nested/deep", "file", 0o664, "not directly in bin"),
        ("scripts", "dir", 0o2775, None),
        ("scripts/x.sql", "file", 0o644, "select 1;"),
        ("lib", "dir", 0o2775, None),
        ("lib/run.py", "file", 0o664, "#!/usr/bin/env python3\n"),
        ("lib/shebang-ish", "file", 0o775, " #!/bin/sh\n"),
        ("lib/hash", "file", 0o664, "#\n!"),
        ("lib/binary", "file", 0o664, b"#!\x00\xff\xfe"),
        ("lib/bin", "file", 0o664, "a file called bin"),
        ("lib/sbin", "dir", 0o2775, None),
        ("lib/sbin/tool", "file", 0o664, "sbin is not bin"),
    ])
    proc, data = run_json(root)
    assert proc.returncode == 1
    assert violations_of(data) == [
        ("bin/empty", "file", "0664", "0775"),
        ("lib/binary", "file", "0664", "0775"),
        ("lib/run.py", "file", "0664", "0775"),
        ("lib/shebang-ish", "file", "0775", "0664"),
        ("scripts/x.sql", "file", "0644", "0775"),
    ]


def test_special_bits_count_as_violations_and_are_cleared():
    root = build([
        ("shared", "dir", 0o3777, None),
        ("shared/tmpdir", "dir", 0o0775, None),
        ("shared/ok", "dir", 0o2775, None),
        ("shared/suid.sh", "file", 0o4775, "#!/bin/sh\n"),
        ("shared/sticky.txt", "file", 0o1664, "s"),
        ("shared/sgid.txt", "file", 0o2664, "g"),
    ])
    proc, data = run_json("--fix", root)
    assert proc.returncode == 1
    assert violations_of(data) == [
        ("shared", "dir", "3777", "2775"),
        ("shared/sgid.txt", "file", "2664", "0664"),
        ("shared/sticky.txt", "file", "1664", "0664"),
        ("shared/suid.sh", "file", "4775", "0775"),
        ("shared/tmpdir", "dir", "0775", "2775"),
    ]
    modes = {rel: stat.S_IMODE(os.lstat(os.path.join(root, rel)).st_mode)
             for rel in ("shared", "shared/tmpdir", "shared/suid.sh", "shared/sticky.txt", "shared/sgid.txt")}
    assert modes == {"shared": 0o2775, "shared/tmpdir": 0o2775, "shared/suid.sh": 0o775,
                     "shared/sticky.txt": 0o664, "shared/sgid.txt": 0o664}


def test_unusual_names_are_reported_relative_and_sorted():
    root = build([
        ("Zeta", "dir", 0o2775, None),
        ("Zeta/a b.txt", "file", 0o644, "x"),
        ("alpha", "dir", 0o755, None),
        ("alpha/naïve café.md", "file", 0o600, "x"),
        ("alpha-beta", "file", 0o666, "x"),
        ("alpha/[x]*.txt", "file", 0o664, "glob chars"),
    ])
    proc, data = run_json(root + "/")
    assert proc.returncode == 1
    assert data.get("root") == root + "/"
    assert violations_of(data) == [
        ("Zeta/a b.txt", "file", "0644", "0664"),
        ("alpha", "dir", "0755", "2775"),
        ("alpha-beta", "file", "0666", "0664"),
        ("alpha/naïve café.md", "file", "0600", "0664"),
    ]


def test_clean_tree_exits_zero_and_bad_root_exits_two():
    root = build([
        ("src", "dir", 0o2775, None),
        ("src/main.c", "file", 0o664, "int main(){}"),
        ("bin", "dir", 0o2775, None),
        ("bin/run", "file", 0o775, "#!/bin/sh\n"),
    ])
    proc, data = run_json(root)
    assert proc.returncode == 0
    assert data == {"root": root, "checked": 4, "violations": [], "fixed": 0}
    missing = run(os.path.join(root, "does-not-exist"))
    assert missing.returncode == 2
    not_dir = run(os.path.join(root, "src/main.c"))
    assert not_dir.returncode == 2
