#!/usr/bin/env bash
# The system packages the sandbox tests need on Linux; installs only what is missing; no-op elsewhere.
# - The sandboxed Bash tool: bubblewrap (the sandbox), socat (its network bridge), ripgrep (the runtime's check).
# - The sandbox's protection tests: rsync, cpio, zip and unzip (archives and tree copies into the project).
# - The effect oracle (test/bash/effects-oracle): strace and the real programs it checks the analysis against;
#   kubectl (kubernetes-client) and the docker CLI (docker.io) where the distribution ships them.
set -euo pipefail
[ "$(uname -s)" = Linux ] || exit 0
missing=()
need() { command -v "$1" >/dev/null || missing+=("$2"); }
need bwrap bubblewrap
need socat socat
need rg ripgrep
need strace strace
need git git
need jq jq
need tree tree
need gawk gawk
need mawk mawk
need rsync rsync
need cpio cpio
need unzip unzip
need zip zip
optional=()
command -v kubectl >/dev/null || optional+=(kubernetes-client)
command -v docker >/dev/null || optional+=(docker.io)
[ ${#missing[@]} -eq 0 ] && [ ${#optional[@]} -eq 0 ] && exit 0
command -v apt-get >/dev/null || {
  echo "setup-sandbox: no apt-get; install by hand: ${missing[*]} ${optional[*]}" >&2
  exit 0
}
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
shipped() { apt-cache show "$1" >/dev/null 2>&1; }
install() {
  local wanted=("${missing[@]}")
  for p in "${optional[@]}"; do shipped "$p" && wanted+=("$p"); done
  [ ${#wanted[@]} -eq 0 ] || $sudo apt-get install -y --no-install-recommends "${wanted[@]}" >/dev/null
}
install || { $sudo apt-get update >/dev/null && install; }
