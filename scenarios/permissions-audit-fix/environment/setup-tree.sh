#!/bin/bash
# Builds the shipped /app/project tree with a realistic mix of right and wrong modes.
set -euo pipefail
R=/app/project
mkdir -p $R
cd $R
mkdir -p bin scripts src/app src/app/bin docs/images secrets/tls config/secrets .git/hooks .git/objects/ab .cache/pip build "shared notes" tools
printf '#!/bin/sh\necho deploy\n' > bin/deploy
printf 'echo no shebang, still a tool\n' > bin/rotate-logs
printf '#!/usr/bin/env python3\nprint("migrate")\n' > scripts/migrate.py
printf 'import os\n' > scripts/helpers.txt
printf 'def main():\n    pass\n' > src/app/main.py
printf '#!/usr/bin/env python3\nimport sys\n' > src/app/cli.py
printf 'not direct child of a top-level bin, but still inside a bin dir\n' > src/app/bin/runner
printf '\n#!/bin/sh   (not on the first line)\n' > src/app/notes.sh
printf '# Project\n' > README.md
printf 'png-bytes' > docs/images/logo.png
printf 'guide\n' > docs/guide.md
printf 'DB_PASSWORD=hunter2\n' > .env
printf 'DB_PASSWORD=prod\n' > .env.production
printf 'example\n' > .env.example.txt
printf 'password=x\n' > secrets/db.txt
printf '#!/bin/sh\necho rotate\n' > secrets/rotate.sh
printf 'CERT\n' > secrets/tls/server.pem
printf 'KEY\n' > secrets/tls/server.key
printf 'token\n' > config/secrets/api-token
printf 'k=v\n' > config/app.ini
printf 'KEY\n' > config/signing.key
printf '#!/bin/sh\nexit 0\n' > .git/hooks/pre-commit
printf 'sample\n' > .git/hooks/pre-push.sample
printf 'blob\n' > .git/objects/ab/cdef
printf '[core]\n' > .git/config
printf 'cache\n' > .cache/pip/selfcheck.json
printf 'artifact\n' > build/app.tar
printf 'meeting\n' > "shared notes/2024 plan.txt"
printf 'résumé\n' > "shared notes/résumé.md"
printf '#!/bin/bash\necho hi\n' > tools/fmt
ln -s ../README.md docs/readme-link.md
ln -s /etc/hostname config/hostname-link
ln -s ../src tools/src-link

# directories
chmod 0755 bin docs docs/images build tools .cache
chmod 2775 scripts src src/app src/app/bin .git .git/hooks .git/objects .git/objects/ab
chmod 0777 "shared notes"
chmod 0700 .cache/pip
chmod 0775 secrets
chmod 2770 secrets/tls
chmod 2755 config
chmod 0750 config/secrets
# files
chmod 0755 bin/deploy
chmod 0644 bin/rotate-logs
chmod 0775 scripts/migrate.py
chmod 0664 scripts/helpers.txt
chmod 0664 src/app/main.py
chmod 0644 src/app/cli.py
chmod 0644 src/app/bin/runner
chmod 0775 src/app/notes.sh
chmod 0666 README.md
chmod 0664 docs/images/logo.png
chmod 0644 docs/guide.md
chmod 0644 .env
chmod 0600 .env.production
chmod 0640 .env.example.txt
chmod 0644 secrets/db.txt
chmod 0755 secrets/rotate.sh
chmod 0600 secrets/tls/server.pem
chmod 0640 secrets/tls/server.key
chmod 0660 config/secrets/api-token
chmod 0664 config/app.ini
chmod 0664 config/signing.key
chmod 0644 .git/hooks/pre-commit
chmod 0664 .git/hooks/pre-push.sample
chmod 0444 .git/objects/ab/cdef
chmod 0664 .git/config
chmod 0600 .cache/pip/selfcheck.json
chmod 4755 build/app.tar
chmod 0664 "shared notes/2024 plan.txt"
chmod 0646 "shared notes/résumé.md"
chmod 0775 tools/fmt
