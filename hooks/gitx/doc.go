// Package gitx runs git. It is the only package in swarm-guard that
// starts git processes; everything on the hot path of a hook reads .git
// files directly (hooks/gitrepo) instead.
//
// A Runner works on the repository of its Dir, with its Env (this
// process's when nil) and Stdin. Output and ExitCode wait for git;
// OutputContext bounds it by a context; Stream hands git's output to a
// reader while git runs (git log -p of a long history). With Isolate set
// it drops the repository-local variables git exports to hooks (GIT_DIR,
// GIT_INDEX_FILE, ... — `git rev-parse --local-env-vars`), which would
// otherwise point the command at the repository the hook runs in.
//
// Errors are *Error: they name the command line and carry git's own
// message and exit code, so each caller words them for its own output.
// TestOnlyGitxStartsGit keeps gitx the only package that starts git.
package gitx
