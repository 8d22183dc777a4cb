#!/usr/bin/env bash
# The system packages the sandboxed Bash tool needs on Linux: bubblewrap (the sandbox), socat (its network
# bridge) and ripgrep (the runtime's dependency check). Installs only what is missing; no-op elsewhere.
set -euo pipefail
[ "$(uname -s)" = Linux ] || exit 0
missing=()
command -v bwrap >/dev/null || missing+=(bubblewrap)
command -v socat >/dev/null || missing+=(socat)
command -v rg >/dev/null || missing+=(ripgrep)
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null || {
  $sudo apt-get update >/dev/null && $sudo apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
}
