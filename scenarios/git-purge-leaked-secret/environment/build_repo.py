#!/usr/bin/env python3
"""Builds the leaky repository /app/repo used by the git-purge-leaked-secret scenario.

    python3 build_repo.py DEST            # the repository as it was leaked
    python3 build_repo.py DEST --clean    # the same history as it should look once cleaned

Every commit and tag has fixed identities and dates, so object ids are stable.
In --clean mode the leaked strings are replaced by ***REMOVED*** everywhere,
config/credentials.json never exists, and the commits that only touched that
file are left out (the intentionally empty commit stays).
"""
import os
import shutil
import subprocess
import sys

PAY_KEY = "pay_live_9fK2mQ7xR4tB8nV1cZ6w"
DB_PASS = "Wq8zR3vL5tN1pK7d"
REMOVED = "***REMOVED***"
CREDS = "config/credentials.json"

DEST = sys.argv[1]
CLEAN = "--clean" in sys.argv[2:]

ANA = ("Ana Costa", "ana@shopco.example")
BEN = ("Ben Okafor", "ben@shopco.example")
CI = ("Release Bot", "release-bot@shopco.example")


def redact(text):
    if CLEAN:
        return text.replace(PAY_KEY, REMOVED).replace(DB_PASS, REMOVED)
    return text


def git(*args, env=None, inp=None):
    res = subprocess.run(["git", *args], cwd=DEST, env=env, input=inp, capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(f"git {args} failed: {res.stderr}")
    return res.stdout.strip()


def ident_env(who, date):
    env = dict(os.environ)
    env.update({
        "GIT_AUTHOR_NAME": who[0], "GIT_AUTHOR_EMAIL": who[1], "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_NAME": who[0], "GIT_COMMITTER_EMAIL": who[1], "GIT_COMMITTER_DATE": date,
    })
    return env


def visible(state):
    return {p: redact(c) for p, c in state.items() if not (CLEAN and p == CREDS)}


def write_tree(state):
    for entry in os.listdir(DEST):
        if entry == ".git":
            continue
        full = os.path.join(DEST, entry)
        shutil.rmtree(full) if os.path.isdir(full) else os.remove(full)
    for path, content in visible(state).items():
        full = os.path.join(DEST, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as fh:
            fh.write(content)
        if path.endswith(".sh"):
            os.chmod(full, 0o755)
    git("add", "-A")


def commit(state, message, who, date, allow_empty=False, parent_state=None):
    """Commit `state` on the current branch. In clean mode a commit whose only
    change was the credentials file is skipped; returns False when skipped."""
    write_tree(state)
    if CLEAN and parent_state is not None and not allow_empty:
        if visible(state) == visible(parent_state):
            return False
    args = ["commit", "-q", "-m", redact(message)]
    if allow_empty:
        args.append("--allow-empty")
    git(*args, env=ident_env(who, date))
    return True


def tag(name, who, date, message=None):
    if message is None:
        git("tag", name)
    else:
        git("tag", "-a", name, "-m", redact(message), env=ident_env(who, date))


def main():
    if os.path.exists(DEST):
        shutil.rmtree(DEST)
    os.makedirs(DEST)
    git("init", "-q", "-b", "main")
    git("config", "user.name", "Shop Developer")
    git("config", "user.email", "dev@shopco.example")

    s = {
        ".gitignore": "__pycache__/\n*.pyc\n.env\n",
        "README.md": "# shopco\n\nBackend of the shopco web shop.\n",
        "src/shop/__init__.py": "",
        "src/payments/__init__.py": "",
    }
    commit(s, "Initial project layout", ANA, "2023-09-01T09:00:00+02:00")

    prev = dict(s)
    s["src/payments/client.py"] = (
        "from payments.config import API_KEY\n\n\n"
        "def charge(amount_cents, token):\n"
        "    return {\"amount\": amount_cents, \"token\": token, \"key\": API_KEY[:8]}\n"
    )
    s["src/payments/config.py"] = "import os\n\nAPI_KEY = os.environ.get(\"PAY_API_KEY\", \"\")\n"
    commit(s, "Add payment client", ANA, "2023-09-04T14:20:00+02:00", parent_state=prev)

    prev = dict(s)
    s[CREDS] = (
        "{\n"
        "  \"db_user\": \"shop\",\n"
        f"  \"db_password\": \"{DB_PASS}\",\n"
        f"  \"payment_key\": \"{PAY_KEY}\"\n"
        "}\n"
    )
    commit(s, "Add local credentials for testing", BEN, "2023-09-05T10:02:00+02:00", parent_state=prev)

    prev = dict(s)
    s["src/payments/config.py"] = f"import os\n\nAPI_KEY = os.environ.get(\"PAY_API_KEY\", \"{PAY_KEY}\")\n"
    s["docs/setup.md"] = (
        "# Setup\n\n"
        "1. Create a virtualenv.\n"
        "2. Local credentials are in config/credentials.json.\n"
        f"3. The payment key defaults to {PAY_KEY} when PAY_API_KEY is unset.\n"
    )
    commit(s, "Wire payment key into config", BEN, "2023-09-06T16:45:00+02:00", parent_state=prev)
    tag("v1.0", CI, "2023-09-08T12:00:00+02:00", "Version 1.0\n\nFirst public release.")

    prev = dict(s)
    s["docker-compose.yml"] = (
        "services:\n"
        "  db:\n"
        "    image: postgres:15\n"
        "    environment:\n"
        "      POSTGRES_USER: shop\n"
        f"      POSTGRES_PASSWORD: {DB_PASS}\n"
    )
    s["scripts/deploy.sh"] = (
        "#!/bin/sh\nset -e\n"
        f"export PAY_API_KEY={PAY_KEY}\n"
        "python -m shop.server\n"
    )
    commit(s, "Add docker-compose and deploy script", ANA, "2023-09-12T11:30:00+02:00", parent_state=prev)
    c5 = dict(s)

    # release/1.x branches off here
    git("branch", "release/1.x")

    prev = dict(s)
    commit(s, "Trigger CI rebuild", CI, "2023-09-13T08:00:00+02:00", allow_empty=True, parent_state=prev)
    c6 = dict(s)

    git("checkout", "-q", "release/1.x")
    r = dict(c5)
    prev = dict(r)
    r["src/payments/client.py"] = r["src/payments/client.py"].replace(
        "    return {\"amount\": amount_cents,", "    amount_cents = int(round(amount_cents))\n    return {\"amount\": amount_cents,"
    )
    commit(r, "Backport: round amounts before charging", ANA, "2023-09-14T09:15:00+02:00", parent_state=prev)
    prev = dict(r)
    r["CHANGELOG.md"] = "# Changelog\n\n## 1.1\n- Amounts are rounded before charging.\n"
    commit(r, "Release notes for 1.1", ANA, "2023-09-15T17:00:00+02:00", parent_state=prev)
    tag("v1.1", None, None)

    git("checkout", "-q", "main")
    git("checkout", "-q", "-b", "develop")
    d = dict(c6)
    prev = dict(d)
    d["src/payments/client.py"] = d["src/payments/client.py"] + (
        "\n\ndef charge_with_retry(amount_cents, token, attempts=3):\n"
        "    for _ in range(attempts - 1):\n"
        "        try:\n"
        "            return charge(amount_cents, token)\n"
        "        except OSError:\n"
        "            pass\n"
        "    return charge(amount_cents, token)\n"
    )
    commit(d, f"Hotfix: retry charges, live key {PAY_KEY} is hardcoded until vault is ready",
           BEN, "2023-09-18T22:41:00+02:00", parent_state=prev)

    prev = dict(d)
    del d[CREDS]
    d["src/payments/config.py"] = "import os\n\nAPI_KEY = os.environ[\"PAY_API_KEY\"]\n"
    d["docker-compose.yml"] = d["docker-compose.yml"].replace(DB_PASS, "${DB_PASSWORD}")
    d["scripts/deploy.sh"] = "#!/bin/sh\nset -e\nexport PAY_API_KEY=\"$(vault read -field=key secret/pay)\"\npython -m shop.server\n"
    d["docs/setup.md"] = (
        "# Setup\n\n"
        "1. Create a virtualenv.\n"
        "2. Export PAY_API_KEY and DB_PASSWORD (ask in #platform for access to vault).\n"
    )
    commit(d, "Read secrets from the environment, drop credentials file", ANA, "2023-09-20T10:10:00+02:00",
           parent_state=prev)

    prev = dict(d)
    d[CREDS] = (
        "{\n"
        "  \"db_user\": \"shop_staging\",\n"
        f"  \"db_password\": \"{DB_PASS}\"\n"
        "}\n"
    )
    commit(d, "Add staging credentials", BEN, "2023-09-21T15:00:00+02:00", parent_state=prev)

    prev = dict(d)
    d["src/payments/client.py"] = d["src/payments/client.py"] + (
        "\n\ndef refund(charge_id, amount_cents):\n"
        "    return {\"refund\": charge_id, \"amount\": amount_cents}\n"
    )
    commit(d, "Add refunds", BEN, "2023-09-22T11:05:00+02:00", parent_state=prev)
    develop_tip_state = dict(d)

    # merge develop into main
    git("checkout", "-q", "main")
    git("merge", "-q", "--no-ff", "--no-commit", "-s", "ours", "develop", env=ident_env(ANA, "2023-09-25T09:30:00+02:00"))
    m = dict(develop_tip_state)
    commit(m, "Merge branch 'develop'", ANA, "2023-09-25T09:30:00+02:00")

    prev = dict(m)
    del m[CREDS]
    commit(m, "Remove staging credentials", ANA, "2023-09-25T09:42:00+02:00", parent_state=prev)
    tag("v2.0-rc1", CI, "2023-09-26T18:00:00+02:00",
        f"Release candidate 2.0\n\nSmoke-tested against production with key {PAY_KEY}.")

    prev = dict(m)
    m["docs/security.md"] = (
        "# Key rotation\n\n"
        f"The payment key {PAY_KEY} and the database password leaked in September 2023\n"
        "and were revoked. Never commit secrets; use vault.\n"
    )
    commit(m, "Document the key rotation", BEN, "2023-09-28T13:37:00+02:00", parent_state=prev)

    if not CLEAN:
        # Leftovers of day-to-day work in the leaked clone: remote-tracking refs and a stash.
        git("update-ref", "refs/remotes/origin/main", git("rev-parse", "main"))
        git("update-ref", "refs/remotes/origin/develop", git("rev-parse", "develop"))
        git("update-ref", "refs/remotes/origin/release/1.x", git("rev-parse", "release/1.x"))
        git("config", "remote.origin.url", "/srv/git/shopco.git")
        git("config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*")
        with open(os.path.join(DEST, "scripts/deploy.sh"), "a", encoding="utf-8") as fh:
            fh.write(f"# TODO remove: PAY_API_KEY={PAY_KEY}\n")
        git("stash", "push", "-q", "-m", "WIP deploy tweaks", env=ident_env(BEN, "2023-09-29T19:00:00+02:00"))
    git("gc", "-q")


if __name__ == "__main__":
    main()
