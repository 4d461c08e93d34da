// The platform packages of swarm-guard: one per os and cpu, listed by the
// main package as optionalDependencies and limited by "os" and "cpu", so
// npm installs only the one for this machine. Shared by the launcher
// (bin/swarm-guard.js) and the postinstall step (install.js).
"use strict";

const platforms = {
  "linux-x64": "@swarm-guard/linux-x64",
  "linux-arm64": "@swarm-guard/linux-arm64",
  "darwin-x64": "@swarm-guard/darwin-x64",
  "darwin-arm64": "@swarm-guard/darwin-arm64",
};

// key is this machine's os-cpu; name its platform package, or undefined
// where there is no build (Windows, other CPUs).
exports.key = process.platform + "-" + process.arch;
exports.name = platforms[exports.key];
