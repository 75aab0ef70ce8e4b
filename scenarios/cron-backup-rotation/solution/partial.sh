#!/bin/bash
# Plausible partial attempt: archives, validates and logs correctly, but rotates
# with `ls -t "$name"-*.tar.gz` (file times instead of the timestamp in the name,
# and a glob that also matches other names such as projects-weekly-...), and does
# not strip Windows line endings from .backupignore.
set -euo pipefail
mkdir -p /app/backup
cat > /app/backup/backup.sh <<'SH'
#!/bin/bash
set -u
err() { echo "error: $*" >&2; exit 2; }
[ -n "${BACKUP_SRC:-}" ] && [ -n "${BACKUP_DEST:-}" ] || err "BACKUP_SRC and BACKUP_DEST are required"
[ -d "$BACKUP_SRC" ] || err "no such directory"
src=${BACKUP_SRC%/}
name=${BACKUP_NAME:-$(basename "$src")}
[[ $name =~ ^[A-Za-z0-9._-]+$ ]] || err "bad name"
keep=${BACKUP_KEEP:-7}
[[ $keep =~ ^[1-9][0-9]*$ ]] || err "bad keep"
date=${BACKUP_DATE:-$(date -u +%Y%m%d-%H%M%S)}
[[ $date =~ ^[0-9]{8}-[0-9]{6}$ ]] || err "bad date"
ts="${date:0:4}-${date:4:2}-${date:6:2}T${date:9:2}:${date:11:2}:${date:13:2}Z"
dest=$BACKUP_DEST
logf=${BACKUP_LOG:-$dest/backup.log}
mkdir -p "$dest"
out="$dest/$name-$date.tar.gz"
if [ -e "$out" ]; then echo "$ts ERROR $(basename "$out") already exists" >> "$logf"; exit 3; fi
excl=(--exclude='*.tmp' --exclude='*.swp' --exclude='*~' --exclude=.cache --exclude=node_modules --exclude=__pycache__)
if [ -f "$src/.backupignore" ]; then
  while read -r p; do
    [ -z "$p" ] || [[ $p == \#* ]] && continue
    excl+=(--exclude="$p")
  done < "$src/.backupignore"
fi
umask 077
if ! tar -C "$(dirname "$src")" -czf "$out" "${excl[@]}" "$(basename "$src")" 2>/dev/null; then
  rm -f "$out"; echo "$ts ERROR tar failed" >> "$logf"; exit 4
fi
n=$(tar -tvzf "$out" | grep -c '^-')
echo "$ts INFO created $(basename "$out") files=$n" >> "$logf"
ls -t "$dest"/"$name"-*.tar.gz | tail -n +$((keep + 1)) | tac | while read -r old; do
  rm -f "$old"; echo "$ts INFO removed $(basename "$old")" >> "$logf"
done
exit 0
SH
chmod +x /app/backup/backup.sh
cat > /app/backup/crontab <<'CRON'
SHELL=/bin/bash
PATH=/usr/local/bin:/usr/bin:/bin
MAILTO=backup-alerts@example.test
30 1,13 * * 1-6 BACKUP_SRC=/srv/projects BACKUP_DEST=/var/backups/projects BACKUP_KEEP=14 /app/backup/backup.sh >> /var/log/backup/cron.log 2>&1
15 3 * * 0 BACKUP_SRC=/srv/projects BACKUP_DEST=/var/backups/projects BACKUP_NAME=projects-weekly BACKUP_KEEP=8 /app/backup/backup.sh >> /var/log/backup/cron.log 2>&1
CRON
