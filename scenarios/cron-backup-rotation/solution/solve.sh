#!/bin/bash
set -euo pipefail
mkdir -p /app/backup
cat > /app/backup/backup.sh <<'SH'
#!/bin/bash
# Back up BACKUP_SRC into BACKUP_DEST/<NAME>-<DATE>.tar.gz and rotate old archives.
# Configuration comes from the environment only; see the variables below.
set -uo pipefail

config_error() { echo "backup.sh: $*" >&2; exit 2; }

[ -n "${BACKUP_SRC:-}" ] || config_error "BACKUP_SRC is not set"
[ -n "${BACKUP_DEST:-}" ] || config_error "BACKUP_DEST is not set"
[ -d "$BACKUP_SRC" ] || config_error "BACKUP_SRC is not a directory: $BACKUP_SRC"

src=$BACKUP_SRC
while [[ $src == */ && $src != / ]]; do src=${src%/}; done
base=$(basename -- "$src")
parent=$(dirname -- "$src")

name=${BACKUP_NAME:-$base}
[[ $name =~ ^[A-Za-z0-9._-]+$ ]] || config_error "invalid BACKUP_NAME: $name"
keep=${BACKUP_KEEP:-7}
[[ $keep =~ ^[0-9]+$ ]] && (( 10#$keep > 0 )) || config_error "BACKUP_KEEP must be a positive integer: $keep"
keep=$((10#$keep))
date=${BACKUP_DATE:-$(date -u +%Y%m%d-%H%M%S)}
[[ $date =~ ^[0-9]{8}-[0-9]{6}$ ]] || config_error "BACKUP_DATE must look like YYYYMMDD-HHMMSS: $date"

dest=$BACKUP_DEST
log_file=${BACKUP_LOG:-$dest/backup.log}
stamp="${date:0:4}-${date:4:2}-${date:6:2}T${date:9:2}:${date:11:2}:${date:13:2}Z"

log() {
  mkdir -p -- "$(dirname -- "$log_file")" 2>/dev/null
  printf '%s %s\n' "$stamp" "$*" >> "$log_file"
}
fail() { log "ERROR $*"; echo "backup.sh: $*" >&2; exit 4; }

mkdir -p -- "$dest" || fail "cannot create $dest"

archive="$name-$date.tar.gz"
target="$dest/$archive"
if [ -e "$target" ] || [ -L "$target" ]; then
  log "ERROR $archive already exists"
  echo "backup.sh: $target already exists" >&2
  exit 3
fi

# exclusion patterns, matched against names at any depth
patterns=('*.tmp' '*.swp' '*~' '.cache' 'node_modules' '__pycache__')
if [ -f "$src/.backupignore" ]; then
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line//$'\r'/}
    line="${line#"${line%%[![:space:]]*}"}"
    line="${line%"${line##*[![:space:]]}"}"
    [ -z "$line" ] && continue
    [[ $line == \#* ]] && continue
    patterns+=("$line")
  done < "$src/.backupignore"
fi
tar_opts=(--wildcards --no-wildcards-match-slash --no-anchored)
for p in "${patterns[@]}"; do tar_opts+=("--exclude=$p"); done

umask 077
tmp=$(mktemp -- "$dest/.$archive.XXXXXX" 2>/dev/null) || fail "cannot write to $dest"
if ! tar -C "$parent" -czf "$tmp" "${tar_opts[@]}" -- "$base" 2>/dev/null; then
  rm -f -- "$tmp"
  fail "tar failed for $src"
fi
chmod 600 -- "$tmp"
mv -f -- "$tmp" "$target" || { rm -f -- "$tmp"; fail "cannot move archive into place"; }

files=$(tar -tvzf "$target" | awk 'substr($1, 1, 1) == "-"' | wc -l)
log "INFO created $archive files=$files"

# rotation: archives of exactly this name, ordered by the timestamp in the name
name_re=${name//./\\.}
mapfile -t mine < <(find "$dest" -mindepth 1 -maxdepth 1 -type f -printf '%f\n' \
  | grep -E "^${name_re}-[0-9]{8}-[0-9]{6}\.tar\.gz$" | LC_ALL=C sort)
excess=$(( ${#mine[@]} - keep ))
for (( i = 0; i < excess; i++ )); do
  rm -f -- "$dest/${mine[$i]}" && log "INFO removed ${mine[$i]}"
done
exit 0
SH
chmod 755 /app/backup/backup.sh

cat > /app/backup/crontab <<'CRON'
# Backups of /srv/projects (install with: crontab /app/backup/crontab)
SHELL=/bin/bash
PATH=/usr/local/bin:/usr/bin:/bin
MAILTO=backup-alerts@example.test

# m  h    dom mon dow  command
# daily: 01:30 and 13:30, Monday to Saturday, keep 14
30   1,13 *   *   1-6  BACKUP_SRC=/srv/projects BACKUP_DEST=/var/backups/projects BACKUP_KEEP=14 /app/backup/backup.sh >> /var/log/backup/cron.log 2>&1
# weekly: Sunday 03:15, keep 8
15   3    *   *   0    BACKUP_SRC=/srv/projects BACKUP_DEST=/var/backups/projects BACKUP_NAME=projects-weekly BACKUP_KEEP=8 /app/backup/backup.sh >> /var/log/backup/cron.log 2>&1
CRON
