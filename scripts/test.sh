#!/usr/bin/env bash
# The full test suite from a fresh machine: host set-up, the fixed environment (built once,
# cached outside the checkout), then every test against real kernels in real sandboxes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-host.sh
node bin/nbmodernize.js env build debian13
# One file at a time: sandbox tests share 2 cores and would only slow each other down.
# The fault suite (dist/test/faults) is not part of it: it loads the machine on purpose (a fork bomb
# up to the process cap, a memory bomb, kill -9 mid-audit); CI runs it as its own step
# (npm run test:faults), and its figures go to docs/reliability.md.
node --test --test-concurrency=1 --test-reporter=spec $(find dist/test -name '*.test.js' -not -path 'dist/test/faults/*' | sort)
