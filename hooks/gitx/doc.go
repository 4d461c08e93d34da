// Package gitx runs git. It is the only package in swarm-guard that
// starts git processes; everything on the hot path of a hook reads .git
// files directly (hooks/gitrepo) instead.
//
// A Runner works on the repository of its Dir. With Isolate set it drops
// the repository-local variables git exports to hooks (GIT_DIR,
// GIT_INDEX_FILE, ... — `git rev-parse --local-env-vars`), which would
// otherwise point the command at the repository the hook runs in. Errors
// name the command line and carry git's own message.
package gitx
