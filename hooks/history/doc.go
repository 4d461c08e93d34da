// Package history reads a team's recorded tool calls for swarm-guard
// replay: Claude Code transcripts (~/.claude/projects/**/*.jsonl, the
// subagents' sidechain files included) and swarm-guard's own audit log.
//
// Each call comes out with the working directory it ran in and the
// session's launch directory as they were recorded, on whatever machine:
// replay judges the paths as written, it never maps them onto this one.
//
// The transcript format is Claude Code's internal one and changes between
// versions, files are read while the client still writes them, and a
// directory may hold other JSON lines. So a line that is not JSON
// (corrupt), a last line cut off mid-write (truncated) or JSON of another
// shape (foreign) is counted and named as file:line, never fatal: replay
// reports what it could not read next to what it decided.
package history
