// Package guard is swarm-guard's decision engine: given a Claude Code tool
// call (a shell command or a file path), the world around it (an Env) and
// a policy, it decides whether the call must be blocked, and says why,
// what triggered it and what to do instead.
//
// Shell commands are parsed with mvdan.cc/sh, never matched as text. The
// analysis sees through quoting and escaping, wrappers (sudo, env, xargs,
// find -exec, bash -c, eval, ssh, interpreters' one-liners), control flow,
// functions, substitutions and here-documents. Each simple command becomes
// effects: paths it deletes, writes or reads, git operations, SQL it sends,
// packages it installs, text it runs as code. Rules judge the effects.
//
// The engine is pure: no process execution, no environment or clock
// reads. What it needs from the file system (symlinks, which branch is
// checked out) comes through Env, so it is fast, deterministic and
// fuzzable. Inputs it cannot analyse (too long, too deep, unparseable,
// names only known at run time) are denied, never guessed at.
package guard
