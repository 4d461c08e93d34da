// Package install writes swarm-guard into other tools' configuration:
// Claude Code hooks in .claude/settings.json and the default policy file.
// Every change is planned first (so --dry-run can print it), is idempotent,
// keeps whatever else the files contain, and can be undone.
package install
