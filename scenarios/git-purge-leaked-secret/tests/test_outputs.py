"""Hidden tests for the git-purge-leaked-secret scenario.

expected_history.json describes the history as it must look after the clean-up.
It was produced independently of any rewriting tool: the scenario's build script
was run in a mode that writes the same commits (same identities and dates) with
the secrets already replaced, without config/credentials.json, and without the
commits that only touched that file. It also lists the ids of the original
objects that contained a secret and of the original commits that had to change.

/app/clean.git is copied to a temporary directory before any git command runs.
"""
import json
import os
import shutil
import tempfile

import pytest
import trl_agent_run as agent_run

CLEAN = "/app/clean.git"
TIMEOUT = 60
SECRETS = [b"pay_live_9fK2mQ7xR4tB8nV1cZ6w", b"Wq8zR3vL5tN1pK7d"]
HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "expected_history.json"), encoding="utf-8") as fh:
    EXPECTED = json.load(fh)


@pytest.fixture(scope="module")
def repo():
    assert os.path.isdir(CLEAN), f"{CLEAN} was not produced"
    dst = os.path.join(tempfile.mkdtemp(prefix="purge-check-"), "clean.git")
    shutil.copytree(CLEAN, dst, symlinks=False)
    # Empty directories do not survive the copy of the agent's outputs; git needs these.
    for sub in ("refs/heads", "refs/tags", "objects/info", "objects/pack"):
        os.makedirs(os.path.join(dst, sub), exist_ok=True)
    return dst


def git(repo, *args, check=True, text=True):
    proc = agent_run.run(
        ["git", "-c", "safe.directory=*", "--git-dir", repo, *args],
        capture_output=True, text=text, timeout=TIMEOUT,
    )
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc.stdout


def refs_of(repo):
    out = {}
    for line in git(repo, "for-each-ref", "--format=%(refname) %(objecttype) %(objectname)").splitlines():
        name, typ, sha = line.split()
        out[name] = (typ, sha)
    return out


def parse_commit(repo, sha):
    raw = git(repo, "cat-file", "commit", sha)
    head, _, message = raw.partition("\n\n")
    info = {"parents": [], "message": message}
    for line in head.split("\n"):
        key, _, value = line.partition(" ")
        if key == "parent":
            info["parents"].append(value)
        elif key in ("tree", "author", "committer"):
            info[key] = value
    return info


def tree_map(repo, tree):
    result = {}
    for line in git(repo, "ls-tree", "-r", "--full-tree", tree).splitlines():
        meta, path = line.split("\t", 1)
        mode, _typ, sha = meta.split()
        result[path] = [mode, sha]
    return result


def subject(expected_sha):
    return EXPECTED["commits"][expected_sha]["message"].split("\n", 1)[0]


def assert_same_history(repo, actual_tip, expected_tip):
    """Walk both histories in parallel from the tips and compare every commit."""
    todo, seen = [(actual_tip, expected_tip, "tip")], set()
    while todo:
        actual, expected, where = todo.pop()
        if (actual, expected) in seen:
            continue
        seen.add((actual, expected))
        exp = EXPECTED["commits"][expected]
        got = parse_commit(repo, actual)
        label = f"{where} (expected commit {subject(expected)!r})"
        assert got["message"].rstrip() == exp["message"].rstrip(), f"{label}: message differs: {got['message']!r}"
        assert got["author"] == exp["author"], f"{label}: author differs"
        assert got["committer"] == exp["committer"], f"{label}: committer differs"
        assert tree_map(repo, got["tree"]) == exp["tree"], f"{label}: tree differs"
        assert len(got["parents"]) == len(exp["parents"]), (
            f"{label}: {len(got['parents'])} parents, expected {len(exp['parents'])}"
        )
        for i, (a, e) in enumerate(zip(got["parents"], exp["parents"])):
            todo.append((a, e, f"{where}^{i + 1}" if where != "tip" else f"^{i + 1}"))


# ---------------------------------------------------------------------------

def test_clean_repository_is_bare_with_head_on_main(repo):
    assert git(repo, "rev-parse", "--is-bare-repository").strip() == "true"
    assert git(repo, "symbolic-ref", "HEAD").strip() == "refs/heads/main"


def test_only_the_three_branches_and_three_tags_exist(repo):
    assert set(refs_of(repo)) == set(EXPECTED["refs"])


def test_no_object_contains_a_secret_reachable_or_not(repo):
    proc = agent_run.run(
        ["git", "-c", "safe.directory=*", "--git-dir", repo, "cat-file", "--batch-all-objects", "--batch"],
        capture_output=True, timeout=TIMEOUT,
    )
    assert proc.returncode == 0, proc.stderr
    count = git(repo, "cat-file", "--batch-all-objects", "--batch-check=%(objecttype)").split()
    assert count.count("commit") >= len(EXPECTED["commits"]), "repository holds too few commits"
    for secret in SECRETS:
        assert secret not in proc.stdout, f"{secret.decode()} is still stored in an object"


def test_no_file_of_the_repository_holds_a_secret_in_plain_text(repo):
    assert refs_of(repo), "repository has no refs"
    for dirpath, _dirs, files in os.walk(repo):
        for name in files:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as fh:
                data = fh.read()
            for secret in SECRETS:
                assert secret not in data, f"{os.path.relpath(path, repo)} contains {secret.decode()}"


def test_credentials_file_is_in_no_commit(repo):
    commits = git(repo, "rev-list", "--all").split()
    assert len(commits) >= 10
    for sha in commits:
        names = git(repo, "ls-tree", "-r", "--name-only", "--full-tree", sha).split("\n")
        assert "config/credentials.json" not in names, f"commit {sha} still has config/credentials.json"


def test_release_branch_history_is_preserved_apart_from_the_clean_up(repo):
    refs = refs_of(repo)
    assert "refs/heads/release/1.x" in refs, "release/1.x is missing"
    assert_same_history(repo, refs["refs/heads/release/1.x"][1], EXPECTED["refs"]["refs/heads/release/1.x"]["commit"])


def test_main_and_develop_histories_are_preserved_apart_from_the_clean_up(repo):
    refs = refs_of(repo)
    for branch in ("refs/heads/main", "refs/heads/develop"):
        assert branch in refs, f"{branch} is missing"
        typ, sha = refs[branch]
        assert typ == "commit"
        assert_same_history(repo, sha, EXPECTED["refs"][branch]["commit"])


def test_empty_ci_commit_kept_and_credential_only_commits_dropped(repo):
    subjects = git(repo, "log", "--format=%s", "refs/heads/main").splitlines()
    assert subjects.count("Trigger CI rebuild") == 1, "the originally empty commit must be kept"
    for gone in ("Add local credentials for testing", "Add staging credentials", "Remove staging credentials"):
        assert gone not in subjects, f"{gone!r} only touched the credentials file and must be dropped"
    all_subjects = git(repo, "log", "--all", "--format=%s").splitlines()
    assert len(all_subjects) == len(EXPECTED["commits"])


def test_annotated_tags_stay_annotated_with_tagger_and_redacted_message(repo):
    refs = refs_of(repo)
    for tag in ("refs/tags/v1.0", "refs/tags/v2.0-rc1"):
        assert tag in refs, f"{tag} is missing"
        typ, sha = refs[tag]
        assert typ == "tag", f"{tag} must still be an annotated tag"
        raw = git(repo, "cat-file", "tag", sha)
        head, _, message = raw.partition("\n\n")
        fields = dict(line.split(" ", 1) for line in head.split("\n"))
        exp = EXPECTED["tags"][tag]
        assert fields.get("tag") == tag.rsplit("/", 1)[1]
        assert fields.get("type") == "commit"
        assert fields.get("tagger") == exp["tagger"], f"{tag}: tagger changed"
        assert message.rstrip() == exp["message"].rstrip(), f"{tag}: message {message!r}"
        assert_same_history(repo, fields["object"], exp["object"])


def test_lightweight_tag_points_at_rewritten_release_commit(repo):
    refs = refs_of(repo)
    assert "refs/tags/v1.1" in refs
    typ, sha = refs["refs/tags/v1.1"]
    assert typ == "commit", "v1.1 must stay a lightweight tag"
    assert_same_history(repo, sha, EXPECTED["refs"]["refs/tags/v1.1"]["commit"])


def test_secrets_replaced_in_place_in_files_and_messages(repo):
    config = git(repo, "show", "refs/tags/v1.0:src/payments/config.py")
    assert config == 'import os\n\nAPI_KEY = os.environ.get("PAY_API_KEY", "***REMOVED***")\n'
    compose = git(repo, "show", "refs/tags/v1.1:docker-compose.yml")
    assert "      POSTGRES_PASSWORD: ***REMOVED***\n" in compose
    messages = git(repo, "log", "--format=%s", "refs/heads/develop").splitlines()
    assert "Hotfix: retry charges, live key ***REMOVED*** is hardcoded until vault is ready" in messages


def test_original_leaky_objects_are_gone(repo):
    assert refs_of(repo), "repository has no refs"
    leftovers = []
    for sha, typ in EXPECTED["leaked_objects"]:
        if agent_run.run(["git", "-c", "safe.directory=*", "--git-dir", repo, "cat-file", "-e", sha],
                          capture_output=True, timeout=TIMEOUT).returncode == 0:
            leftovers.append(f"{typ} {sha}")
    for sha in EXPECTED["rewritten_original_commits"]:
        if agent_run.run(["git", "-c", "safe.directory=*", "--git-dir", repo, "cat-file", "-e", sha],
                          capture_output=True, timeout=TIMEOUT).returncode == 0:
            leftovers.append(f"original commit {sha}")
    assert not leftovers, f"old objects still present: {leftovers}"
