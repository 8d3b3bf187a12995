#!/usr/bin/env bash
# The full test suite from a fresh machine: host set-up, the fixed environment (built once,
# cached outside the checkout), then every test against real kernels in real sandboxes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-host.sh
node bin/nbmodernize.js env build debian13
# One file at a time: sandbox tests share 2 cores and would only slow each other down.
node --test --test-concurrency=1 --test-reporter=spec $(find dist/test -name '*.test.js' | sort)
