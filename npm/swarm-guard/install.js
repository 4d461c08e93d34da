// swarm-guard's npm postinstall step: puts this platform's binaries
// (swarm-guard, swarm-guard-post, swarm-guard-secrets from the
// @swarm-guard/<os>-<arch> package npm installed as an optional
// dependency) in place of the JS launchers in bin/, the way esbuild does.
// A hook runs on every Claude Code tool call: through the JS launcher each
// call would start Node (tens of milliseconds) before the binary. The
// binaries sit side by side, as swarm-guard expects its siblings.
//
// It never fails the install: when anything goes wrong the launchers stay
// and run the platform binary themselves.
"use strict";
const fs = require("fs");
const path = require("path");

const platform = require("./platform.js");

function main() {
  const pkg = platform.name;
  if (!pkg) {
    return;
  }
  const from = path.join(path.dirname(require.resolve(pkg + "/package.json")), "bin");
  const to = path.join(__dirname, "bin");
  for (const name of ["swarm-guard-secrets", "swarm-guard-post", "swarm-guard"]) {
    const tmp = path.join(to, "." + name + ".tmp");
    fs.copyFileSync(path.join(from, name), tmp);
    fs.chmodSync(tmp, 0o755);
    fs.renameSync(tmp, path.join(to, name)); // replaces the launcher in one step
  }
}

try {
  main();
} catch (e) {
  process.stderr.write("swarm-guard: kept the JS launchers (" + e.message + "); hooks still run, each through Node\n");
}
