#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (npm run build).
import('../dist/src/cli/main.js').then((m) => m.main(process.argv.slice(2)));
