#!/bin/bash
# Reference clean-up: bare clone of the branches and tags only, filter-branch with
# an index filter (drop the credentials file, redact blobs), a message filter, a
# commit filter that drops only the commits that *became* empty, then re-create
# the annotated tags with redacted messages and prune every old object.
set -euo pipefail
SRC=${SRC:-/app/repo}
DEST=${DEST:-/app/clean.git}
export FILTER_BRANCH_SQUELCH_WARNING=1
export PAY_KEY='pay_live_9fK2mQ7xR4tB8nV1cZ6w'
export DB_PASS='Wq8zR3vL5tN1pK7d'

rm -rf "$DEST"
# --no-local: copy objects through the pack protocol, so only objects reachable from
# branches and tags come along (no stash, no remote-tracking refs, no loose garbage).
git clone -q --bare --no-local "$SRC" "$DEST"
cd "$DEST"
git remote remove origin
git for-each-ref --format='%(refname)' | { grep -Ev '^refs/(heads|tags)/' || true; } | xargs -r -n1 git update-ref -d

redact_filter='
git ls-files -s | while read -r mode sha stage path; do
  if git cat-file blob "$sha" | grep -qF -e "$PAY_KEY" -e "$DB_PASS"; then
    new=$(git cat-file blob "$sha" | sed -e "s/$PAY_KEY/***REMOVED***/g" -e "s/$DB_PASS/***REMOVED***/g" | git hash-object -w --stdin)
    git update-index --cacheinfo "$mode,$new,$path"
  fi
done
git rm -q --cached --ignore-unmatch config/credentials.json
'

commit_filter='
orig_tree=$(git rev-parse "$GIT_COMMIT^{tree}")
orig_parent_tree=$(git rev-parse -q --verify "$GIT_COMMIT^1^{tree}" 2>/dev/null || true)
if [ $# -eq 3 ] && [ -n "$orig_parent_tree" ] && [ "$orig_tree" != "$orig_parent_tree" ] \
   && [ "$1" = "$(git rev-parse "$3^{tree}")" ]; then
  skip_commit "$@"
else
  git commit-tree "$@"
fi
'

git filter-branch -f \
  --index-filter "$redact_filter" \
  --msg-filter 'sed -e "s/$PAY_KEY/***REMOVED***/g" -e "s/$DB_PASS/***REMOVED***/g"' \
  --commit-filter "$commit_filter" \
  --tag-name-filter cat \
  -- --branches --tags >/dev/null

# filter-branch copies tag messages verbatim: re-create annotated tags with redacted messages.
for tag in $(git for-each-ref --format='%(refname:short)' refs/tags); do
  if [ "$(git cat-file -t "refs/tags/$tag")" = tag ]; then
    new=$(git cat-file tag "refs/tags/$tag" | sed -e "s/$PAY_KEY/***REMOVED***/g" -e "s/$DB_PASS/***REMOVED***/g" | git mktag)
    git update-ref "refs/tags/$tag" "$new"
  fi
done

git for-each-ref --format='%(refname)' refs/original | xargs -r -n1 git update-ref -d
rm -rf refs/original
git reflog expire --expire=now --all
git gc -q --prune=now --aggressive
git symbolic-ref HEAD refs/heads/main

# self-check
if git cat-file --batch-all-objects --batch | grep -qF -e "$PAY_KEY" -e "$DB_PASS"; then
  echo "secret still present" >&2; exit 1
fi
