"""Hidden tests for the git-merge-conflict scenario.

The repository is copied to a temporary directory first (so nothing here can
change /app/repo), inspected with git, and the committed tree is exported with
`git archive` to run the program and its test suite in subprocesses.
Expected totals come from an independent reference calculation below.
"""
import json
import os
import re
import shutil
import sys
import tempfile
from decimal import ROUND_HALF_UP, Decimal

import pytest
import trl_agent_run as agent_run

REPO = "/app/repo"
TIMEOUT = 60
MAIN_TIP = "86b0ed44ad67c75eb688cc1d483794bab7636734"
FEATURE_TIP = "b7706f832a23cbd138707c0de77e589d6f0873fa"
ORIGINAL_COMMITS = [
    "5ae8ace4292eb49291d8c4edda359e9c458bb4d8",
    "2c22c49ad6bb24c9f805a9d0d65e4eb78798a212",
    "d0385b62e5e883f2280afa39fe07de7b2fd6def6",
    "31288e34c9a8f4e11550b7e84ce0c5a716a74eb3",
    "f7c2b81c33f68aba81405e2d82b91520777965ed",
    "e53d443f2ac51087c037bec83006714a9ebffe4d",
    MAIN_TIP,
    FEATURE_TIP,
]

SETTINGS = {
    "bulk_discount_percent": 5,
    "bulk_min_qty": 10,
    "currency": "EUR",
    "discount_codes": {"SAVE10": 10, "SPRING15": 15, "WELCOME5": 5},
    "max_items": 100,
    "tax_rate_percent": 20,
    "version": "1.3.0",
}

CHANGELOG_HEAD = """# Changelog

All notable changes to this project are documented here.
The format follows Keep a Changelog; new entries go under Unreleased.

"""
CHANGELOG_RELEASED = """## [1.2.0] - 2024-02-10
### Added
- `quote` command prints the total of a cart file.

### Fixed
- Tax is applied after the discount, not before.

## [1.1.0] - 2024-01-15
### Added
- Discount codes.
"""
UNRELEASED = [
    ("Added", [
        "- `report` command that prints the total of every order in an orders file.",
        "- Bulk discount: 5% off a line of 10 or more units.",
        "- Discount code WELCOME5 (5% off).",
    ]),
    ("Changed", [
        "- Money is computed in integer cents; discounts and tax are rounded half up to the cent.",
        "- Default currency is EUR; new discount code SPRING15 (15% off).",
    ]),
    ("Fixed", ["- Cart lines with a quantity below 1 are rejected."]),
]

EXPECTED_TESTS = {
    "test_adds_tax", "test_discount_code", "test_unknown_code", "test_too_many_lines",
    "test_rounds_half_up_in_cents", "test_decimal_string_prices",
    "test_bulk_discount_from_min_qty", "test_no_bulk_discount_below_min_qty", "test_rejects_zero_quantity",
    "test_one_line_per_order_and_grand_total",
}


# --- reference pricing (independent of the repository's code) ---------------

def _half_up(d):
    return int(d.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def ref_total(lines, code=None):
    subtotal = 0
    for line in lines:
        cents = _half_up(Decimal(str(line["price"])) * 100) * line["qty"]
        if line["qty"] >= SETTINGS["bulk_min_qty"]:
            cents -= _half_up(Decimal(cents) * SETTINGS["bulk_discount_percent"] / 100)
        subtotal += cents
    pct = SETTINGS["discount_codes"][code] if code else 0
    discounted = subtotal - _half_up(Decimal(subtotal) * pct / 100)
    return discounted + _half_up(Decimal(discounted) * SETTINGS["tax_rate_percent"] / 100)


def fmt(cents):
    return f"{cents // 100}.{cents % 100:02d}"


# --- helpers -----------------------------------------------------------------

@pytest.fixture(scope="module")
def repo():
    assert os.path.isdir(os.path.join(REPO, ".git")), "/app/repo is not a git repository"
    dst = os.path.join(tempfile.mkdtemp(prefix="merge-check-"), "repo")
    shutil.copytree(REPO, dst, symlinks=True)
    return dst


def git(repo, *args, check=True):
    proc = agent_run.run(
        ["git", "-c", "safe.directory=*", *args], cwd=repo, capture_output=True, text=True, timeout=TIMEOUT
    )
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc.stdout


@pytest.fixture(scope="module")
def tree(repo):
    """The committed tree of main, exported to a fresh directory."""
    dst = tempfile.mkdtemp(prefix="merge-tree-")
    archive = agent_run.run(
        ["git", "-c", "safe.directory=*", "archive", "--format=tar", "main"],
        cwd=repo, capture_output=True, timeout=TIMEOUT,
    )
    assert archive.returncode == 0, archive.stderr
    agent_run.run(["tar", "-x", "-C", dst], input=archive.stdout, check=True, timeout=TIMEOUT)
    return dst


def run_py(tree, *args):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)
    return agent_run.run([sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True, timeout=TIMEOUT)


def quote(tree, lines, code=None):
    path = os.path.join(tempfile.mkdtemp(prefix="cart-"), "cart.json")
    with open(path, "w") as fh:
        json.dump({"lines": lines}, fh)
    args = ["-m", "shop", "quote", path] + (["--code", code] if code else [])
    return run_py(tree, *args)


# --- history -------------------------------------------------------------------

def test_main_is_checked_out_with_a_two_parent_merge_commit(repo):
    assert git(repo, "symbolic-ref", "HEAD").strip() == "refs/heads/main"
    parents = git(repo, "rev-list", "--parents", "-n", "1", "main").split()[1:]
    assert parents == [MAIN_TIP, FEATURE_TIP]
    subject = git(repo, "log", "-1", "--format=%s", "main").strip()
    assert subject == "Merge branch 'feature'"


def test_feature_branch_and_original_commits_are_untouched(repo):
    assert git(repo, "rev-parse", "refs/heads/feature").strip() == FEATURE_TIP
    history = set(git(repo, "rev-list", "main").split())
    assert set(ORIGINAL_COMMITS) <= history
    # exactly one new commit on top of the two original tips
    assert len(history) == len(ORIGINAL_COMMITS) + 1


def test_working_tree_is_clean_and_no_merge_in_progress(repo):
    assert git(repo, "rev-parse", "--verify", "-q", "main^2", check=False).strip(), "main has no merge commit"
    status = git(repo, "status", "--porcelain", "--untracked-files=all")
    assert status == "", f"working tree not clean:\n{status}"
    for name in ("MERGE_HEAD", "MERGE_MSG", "CHERRY_PICK_HEAD", "REBASE_HEAD"):
        assert not os.path.exists(os.path.join(repo, ".git", name)), name
    assert not os.path.isdir(os.path.join(repo, ".git", "rebase-merge"))


def test_no_conflict_markers_or_stray_files_committed(repo):
    assert git(repo, "rev-parse", "--verify", "-q", "main^2", check=False).strip(), "main has no merge commit"
    files = git(repo, "ls-tree", "-r", "--name-only", "main").split("\n")
    assert not [f for f in files if re.search(r"\.(orig|rej)$|_(BASE|LOCAL|REMOTE|BACKUP)_", f)]
    for name in filter(None, files):
        text = git(repo, "show", f"main:{name}")
        for marker in ("<<<<<<<", ">>>>>>>", "|||||||"):
            assert not re.search(rf"^{re.escape(marker)}", text, re.M), f"{marker} in {name}"
        assert not re.search(r"^=======$", text, re.M), f"======= in {name}"


# --- files ---------------------------------------------------------------------

def test_settings_json_merged_by_the_rules_and_formatted(repo):
    text = git(repo, "show", "main:config/settings.json")
    assert json.loads(text) == SETTINGS
    assert text == json.dumps(SETTINGS, indent=2, sort_keys=True) + "\n"


def test_changelog_unreleased_combines_both_sides_in_order(repo):
    text = git(repo, "show", "main:CHANGELOG.md")
    assert text.startswith(CHANGELOG_HEAD + "## [Unreleased]\n")
    assert text.endswith(CHANGELOG_RELEASED)
    section = text[len(CHANGELOG_HEAD) + len("## [Unreleased]\n"): len(text) - len(CHANGELOG_RELEASED)]
    groups, current = [], None
    for line in section.split("\n"):
        if line.startswith("### "):
            current = (line[4:].strip(), [])
            groups.append(current)
        elif line.strip():
            assert current is not None, f"entry outside a heading: {line!r}"
            current[1].append(line.rstrip())
    assert groups == UNRELEASED
    assert "\n\n\n" not in section and re.search(r"\S\n### ", section) is None, "one blank line between groups"


def test_calc_total_name_is_gone_everywhere(repo, tree):
    for name in filter(None, git(repo, "ls-tree", "-r", "--name-only", "main").split("\n")):
        assert "calc_total" not in git(repo, "show", f"main:{name}"), name
    probe = run_py(tree, "-c", "import shop.pricing as p, shop.report; print(callable(p.compute_total))")
    assert probe.returncode == 0 and probe.stdout.strip() == "True", probe.stderr


def test_repository_test_suite_passes_with_all_tests_kept(tree):
    proc = run_py(tree, "-m", "unittest", "discover", "-s", "tests", "-v")
    assert proc.returncode == 0, proc.stderr[-3000:]
    ran = set(re.findall(r"^(test_\w+) \(", proc.stderr, re.M))
    missing = EXPECTED_TESTS - ran
    assert not missing, f"tests missing after the merge: {sorted(missing)}"


# --- behaviour of the merged program ---------------------------------------

HIDDEN_CARTS = [
    ([{"sku": "P-1", "price": "0.35", "qty": 10}], "WELCOME5"),
    ([{"sku": "K-9", "price": "19.99", "qty": 12}, {"sku": "Z-1", "price": 2.5, "qty": 3}], "SPRING15"),
    ([{"sku": "N-1", "price": "0.05", "qty": 9}, {"sku": "N-2", "price": "0.05", "qty": 10}], None),
    ([{"sku": "D-4", "price": 7, "qty": 1}, {"sku": "D-5", "price": "3.30", "qty": 10}], "SAVE10"),
    ([{"sku": "Q-1", "price": "0.15", "qty": 11}, {"sku": "Q-2", "price": "1.01", "qty": 1}], "SAVE10"),
]


def test_quote_uses_cents_bulk_tier_and_merged_codes(tree):
    for lines, code in HIDDEN_CARTS:
        proc = quote(tree, lines, code)
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert proc.stdout.strip() == f"Total: EUR {fmt(ref_total(lines, code))}", (lines, code)


def test_report_command_works_with_merged_pricing(tree):
    orders = [
        {"id": "A-100", "lines": HIDDEN_CARTS[0][0], "code": "WELCOME5"},
        {"id": "A-101", "lines": HIDDEN_CARTS[1][0]},
        {"id": "A-102", "lines": HIDDEN_CARTS[4][0], "code": "SPRING15"},
    ]
    path = os.path.join(tempfile.mkdtemp(prefix="orders-"), "orders.json")
    with open(path, "w") as fh:
        json.dump({"orders": orders}, fh)
    proc = run_py(tree, "-m", "shop", "report", path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    totals = [ref_total(o["lines"], o.get("code")) for o in orders]
    expected = [f"{o['id']}\t{fmt(t)}" for o, t in zip(orders, totals)] + [f"TOTAL\tEUR {fmt(sum(totals))}"]
    assert proc.stdout.strip("\n").split("\n") == expected


def test_quote_rejects_bad_carts_and_uses_mains_cart_limit(tree):
    zero = quote(tree, [{"sku": "X", "price": "1.00", "qty": 0}])
    assert zero.returncode == 1 and "error:" in zero.stderr
    unknown = quote(tree, [{"sku": "X", "price": "1.00", "qty": 1}], "NOPE")
    assert unknown.returncode == 1 and "error:" in unknown.stderr
    hundred = [{"sku": f"S-{i}", "price": "0.10", "qty": 1} for i in range(100)]
    ok = quote(tree, hundred)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip() == f"Total: EUR {fmt(ref_total(hundred))}"
    too_many = quote(tree, hundred + [{"sku": "S-x", "price": "0.10", "qty": 1}])
    assert too_many.returncode == 1
