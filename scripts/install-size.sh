#!/usr/bin/env bash
# What a hook user installs: packs automode (from the built dist/: run `npm run build` first), installs the tarball
# into an empty project with an empty HOME, times `automode explain`, and prints the size of node_modules and
# what each dependency costs (scripts/install-size.js). The optional peers (MCP SDK, sandbox runtime) are not
# installed, as npm does not install optional peers. Usage: scripts/install-size.sh [folder to install into]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-$(mktemp -d "${TMPDIR:-/tmp}/automode-install-XXXXXX")}"
mkdir -p "$work/pack" "$work/app" "$work/home"
(cd "$root" && npm pack --ignore-scripts --silent --pack-destination "$work/pack" >/dev/null)
cd "$work/app"
export HOME="$work/home"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent "$work"/pack/automode-*.tgz
echo "installed into $work/app"
start=$(date +%s%N)
./node_modules/.bin/automode explain "git status" >/dev/null
echo "automode explain \"git status\": $(( ($(date +%s%N) - start) / 1000000 )) ms"
echo "du -sh node_modules: $(du -sh node_modules | cut -f1)"
node "$root/scripts/install-size.js" "$work/app"
