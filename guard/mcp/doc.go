// Package mcp knows MCP tools: how a tool name (mcp__<server>__<tool>,
// mcp__plugin_<plugin>_<server>__<tool>) splits, and what a tool does —
// read, write or destructive — from a built-in table of the popular
// servers' real tool names, else from the verb in its name (unknown verbs
// are writes). The table lives in servers.go, one block per server with
// where its names come from.
//
// It is pure data and string work; guard.CheckMCP judges a call with it,
// and inspects the arguments (SQL, paths, branches, shell commands) with
// the rest of the engine.
package mcp
