#!/usr/bin/env bash
# The main job on the embedded default: set up everything (the first run builds the environment),
# then modernize the bundled 2016-style example notebook in the fixed environment.
# Extra arguments go to `nbmodernize modernize` (e.g. --llm openai --model NAME).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-host.sh
node bin/nbmodernize.js env build debian13
exec node bin/nbmodernize.js modernize examples/legacy-titanic.ipynb --data examples/data/mini-titanic --competition titanic \
  --out-dir nbmodernize-out/example "$@"
