#!/usr/bin/env bash
# The main job on the embedded default: set up everything (first run builds the environment),
# then run the bundled example notebook in the fixed environment. Extra args go to the command.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-host.sh
exec node bin/nbmodernize.js run examples/legacy-titanic.ipynb --data examples/data/mini-titanic --competition titanic --out-dir nbmodernize-out/example "$@"
