// Package install writes swarm-guard into other tools' configuration, and
// takes it out again: Claude Code hooks in .claude/settings.json, the
// default policy file, git hooks where git runs them, the CI workflow.
//
// Every change is planned first (so --dry-run can print it), is
// idempotent, keeps whatever else the files contain, and can be undone:
//
//   - settings: only swarm-guard's hook entries are added or removed, key
//     order kept; the first original of a replaced file is backed up in the
//     state directory, and uninstall restores it byte for byte when nothing
//     but swarm-guard's entries changed since.
//   - git hooks go into the directory `git rev-parse --path-format=absolute
//     --git-path hooks` names, shared by all worktrees. A hook already there
//     is renamed to <hook>.swarm-guard-chained next to it and runs after
//     swarm-guard's, with the same arguments and stdin; uninstall renames it
//     back. Hook files are small /bin/sh scripts marked with a fingerprint
//     line; they run the binary by absolute path, else swarm-guard on PATH,
//     else fail with the way to reinstall.
//   - core.hooksPath set by husky: swarm-guard adds a marked block to the
//     user scripts .husky/<hook> (husky regenerates .husky/_). Set locally
//     by anything else: that directory, with chaining. Set globally: install
//     refuses and says exactly what to do instead.
//   - files install created are listed in the state directory
//     (install.json), so uninstall removes those and never a file the
//     repository had, even one identical to the default.
//
// What the files hold (the launcher, the Claude Code settings entries, the
// other clients' configs) is hooks/clientconfig's, which hooks/agentrun
// shares; install plans and writes it. Inspect* report what is installed,
// for swarm-guard doctor. Only hooks/gitx runs git.
package install
