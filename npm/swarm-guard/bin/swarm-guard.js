#!/usr/bin/env node
// swarm-guard's npm launcher: runs the binary of the platform package npm
// installed through optionalDependencies (@swarm-guard/<os>-<arch>), with
// the same arguments, stdin, stdout, stderr and exit code. The package
// installs it as bin/swarm-guard and bin/swarm-guard-post and runs the
// platform binary of the same name. When no platform package is installed
// it exits 2 with one line saying what to do: a guard that silently does
// not run is no guard (Claude Code blocks only on 2).
//
// The package's postinstall step (install.js) puts the platform binaries in
// place of these launchers, as esbuild does, so a hook call does not start
// Node first; this file only runs when install scripts were skipped
// (npm install --ignore-scripts).
"use strict";
const { spawnSync } = require("child_process");
const path = require("path");

const platform = require("../platform.js");
const key = platform.key;
const pkg = platform.name;
let binary;
if (pkg) {
  try {
    binary = path.join(path.dirname(require.resolve(pkg + "/package.json")), "bin", path.basename(__filename));
  } catch (e) {
    binary = undefined;
  }
}
if (!binary) {
  const why = pkg
    ? "the package " + pkg + " is not installed (npm skipped the optional dependency; run npm install again without --no-optional / --omit=optional)"
    : "there is no swarm-guard build for " + key + " (linux and darwin on x64 and arm64 only; Windows is not supported)";
  process.stderr.write("swarm-guard: " + why + "\n");
  process.exit(2);
}
const r = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
if (r.error) {
  process.stderr.write("swarm-guard: cannot run " + binary + ": " + r.error.message + "\n");
  process.exit(2);
}
if (r.signal) {
  process.kill(process.pid, r.signal);
}
process.exit(r.status === null ? 2 : r.status);
