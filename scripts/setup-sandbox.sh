#!/usr/bin/env bash
# The system packages the tests need on Linux; installs only what is missing; no-op elsewhere. `npm test` runs it
# first (its pretest script), so the README's test command sets up a fresh machine by itself.
# - The sandboxed Bash tool: bubblewrap (the sandbox), socat (its network bridge), ripgrep (the runtime's check).
# - The sandbox's protection tests: rsync, cpio, zip and unzip (archives and tree copies into the project).
# - The sqlite3 shell (its module: grammar checked against `sqlite3 -help`, a WAL database in the canary world).
# - 7z (p7zip-full): its module's grammar is checked against `7z --help`; the write-set code lists 7z archives.
# - The effect oracle (test/bash/effects-oracle): strace and the real programs it checks the analysis against;
#   kubectl (kubernetes-client), the docker CLI (docker.io), podman, fd (fd-find, installed as fdfind) and fzf
#   where the distribution ships them; ansible-core (its programs' help and version in the canary world) and packer
#   (help, version and a checking fmt).
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
need sqlite3 sqlite3
need 7z p7zip-full
optional=()
command -v kubectl >/dev/null || optional+=(kubernetes-client)
command -v docker >/dev/null || optional+=(docker.io)
command -v podman >/dev/null || optional+=(podman)
command -v fdfind >/dev/null || command -v fd >/dev/null || optional+=(fd-find)
command -v fzf >/dev/null || optional+=(fzf)
command -v ansible >/dev/null || optional+=(ansible-core)
command -v packer >/dev/null || optional+=(packer)
[ ${#missing[@]} -eq 0 ] && [ ${#optional[@]} -eq 0 ] && exit 0
command -v apt-get >/dev/null || {
  echo "setup-sandbox: no apt-get; install by hand: ${missing[*]} ${optional[*]}" >&2
  exit 0
}
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || {
    echo "setup-sandbox: not root and no sudo; install by hand: ${missing[*]} ${optional[*]}" >&2
    exit 0
  }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
shipped() { apt-cache show "$1" >/dev/null 2>&1; }
install() {
  local wanted=("${missing[@]}")
  for p in "${optional[@]}"; do shipped "$p" && wanted+=("$p"); done
  [ ${#wanted[@]} -eq 0 ] || $sudo apt-get install -y --no-install-recommends "${wanted[@]}" >/dev/null
}
# A failed install is said, not fatal: the tests that need a missing program fail naming it.
install || { $sudo apt-get update >/dev/null && install; } ||
  echo "setup-sandbox: could not install ${missing[*]} ${optional[*]}; the tests that need them will say so" >&2
