#!/usr/bin/env bash
# Idempotent host set-up for a fresh Debian machine: the Debian packages nbmodernize drives
# (debootstrap, bubblewrap, docker.io, redis-server), the npm dependencies, the compiled CLI, and a running
# Docker engine when possible. Safe to run again: it only does what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then
  if sudo -n true 2>/dev/null; then SUDO="sudo -n"; fi
fi

need=()
command -v debootstrap >/dev/null 2>&1 || [ -x /usr/sbin/debootstrap ] || need+=(debootstrap)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
command -v prlimit >/dev/null 2>&1 || need+=(util-linux)
# mkfs.ext4: the working-dir quota's loop-mounted filesystem (disk-quota.ts; without it, a tmpfs).
command -v mkfs.ext4 >/dev/null 2>&1 || [ -x /usr/sbin/mkfs.ext4 ] || [ -x /sbin/mkfs.ext4 ] || need+=(e2fsprogs)
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
# The audit queue's tests start their own Redis on loopback (audit --queue, nbmodernize worker).
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
if [ "${NBM_SKIP_DOCKER:-}" != 1 ]; then
  { command -v dockerd >/dev/null 2>&1 || [ -x /usr/sbin/dockerd ]; } || need+=(docker.io)
fi
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ] && [ -z "$SUDO" ]; then
    echo "nbmodernize setup: missing Debian packages: ${need[*]}; run as root or with passwordless sudo, or: apt-get install ${need[*]}" >&2
  else
    echo "nbmodernize setup: installing ${need[*]}" >&2
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  fi
fi

# Docker engine: no bridge, no iptables (the network rule: containers run with network none and
# we only ever talk to the engine and to containers over Unix sockets).
if [ "${NBM_SKIP_DOCKER:-}" != 1 ] && [ -x /usr/sbin/dockerd ] && ! docker info >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] || [ -n "$SUDO" ]; then
    echo "nbmodernize setup: starting dockerd" >&2
    $SUDO sh -c 'nohup dockerd --bridge=none --iptables=false --ip-masq=false >/var/log/nbmodernize-dockerd.log 2>&1 &'
    for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
    docker info >/dev/null 2>&1 || echo "nbmodernize setup: dockerd did not come up (see /var/log/nbmodernize-dockerd.log); the docker sandbox will be unavailable" >&2
  fi
fi

# npm dependencies (only when missing or the lockfile changed), then the compiled CLI.
stamp=node_modules/.nbm-lock-hash
want=$(sha1sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
npm run --silent build
