package mcp

import (
	"strings"
)

// Access is what a tool call does, in increasing order of risk.
type Access int

const (
	Read        Access = iota // reads only
	Write                     // changes something
	Destructive               // deletes, merges, administers
)

func (a Access) String() string {
	switch a {
	case Read:
		return "read"
	case Write:
		return "write"
	}
	return "destructive"
}

// Level names an access as the policy grants it ([mcp.servers.X]
// access): "read", "write", "admin", or "no" below read (access "deny").
func (a Access) Level() string {
	switch {
	case a < Read:
		return "no"
	case a == Destructive:
		return "admin"
	}
	return a.String()
}

// Name is a parsed MCP tool name.
type Name struct {
	Server string // the server as configured ("github"); for plugin servers, the server's own name
	Plugin string // the plugin bundling the server, or ""
	Tool   string // the tool ("merge_pull_request")
}

// IsTool reports whether a Claude Code tool name is an MCP tool.
func IsTool(name string) bool { return strings.HasPrefix(name, "mcp__") }

// Parse splits "mcp__github__merge_pull_request" and
// "mcp__plugin_acme_github__merge_pull_request". ok is false for names
// that are not MCP tool names.
func Parse(name string) (Name, bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return Name{}, false
	}
	server, tool, ok := strings.Cut(rest, "__")
	if !ok || server == "" || tool == "" {
		return Name{}, false
	}
	n := Name{Server: server, Tool: tool}
	if p, ok := strings.CutPrefix(server, "plugin_"); ok {
		// plugin_<plugin>_<server>: the plugin name may hold "_" too, so
		// the server is the part a built-in table knows, else the last.
		n.Plugin, n.Server = p, p
		if i := strings.LastIndexByte(p, '_'); i > 0 {
			n.Plugin, n.Server = p[:i], p[i+1:]
		}
		for known := range servers() {
			if strings.HasSuffix(p, "_"+known) {
				n.Plugin, n.Server = strings.TrimSuffix(p, "_"+known), known
				break
			}
		}
	}
	return n, true
}

// Kind says what a server's arguments mean.
type Kind int

const (
	Local  Kind = iota // paths are local files (filesystem, git, desktop-commander, unknown servers)
	Remote             // paths name files in a remote repository (GitHub, GitLab)
)

// Tool is what the guard knows of one tool.
type Tool struct {
	Access Access
	// Known is true when the access comes from the built-in table, false
	// when it was guessed from the verb in the name.
	Known bool
	Kind  Kind
	// Merge, Approve: the forge operations oversight governs.
	Merge, Approve bool
	// GitCommit, GitPush, GitCheckout: a git server doing what skips the
	// repository's hooks.
	GitCommit, GitPush, GitCheckout bool
	// WritesRef: the branch argument names a ref the call creates, moves
	// or deletes in the remote repository (push_files to "branch" is a
	// push to that branch), so the branch ownership rules apply to it.
	WritesRef bool
	// Forge: the server is a forge's (GitHub): its merges, approvals,
	// deletions and administration follow the oversight mode as gh's do.
	Forge bool
	// SetsPRState: a "state" argument closes or reopens the pull request,
	// which may be another agent's (update_pull_request).
	SetsPRState bool
	// SetsIssueState: a "state" argument closes or reopens an issue, which
	// may be another agent's or a human's (update_issue, issue_write).
	SetsIssueState bool
	// Own is a write the default policy allows: creating and updating the
	// agent's own pull requests, issues and comments.
	Own bool
}

// Classify returns what the tool does. server is the configured name; a
// server the table does not know under that name is matched by its tools.
func Classify(n Name) Tool {
	s, ok := servers()[strings.ToLower(n.Server)]
	if !ok {
		s, ok = serverByTool(n.Tool)
	}
	if ok {
		if t, ok := s.tools[n.Tool]; ok {
			t.Known = true
			t.Kind = s.kind
			t.Forge = s.forge
			return t
		}
		t := Tool{Access: verbAccess(n.Tool), Kind: s.kind, Forge: s.forge}
		return t
	}
	return Tool{Access: verbAccess(n.Tool), Kind: Local}
}

// ServerKnown reports whether the built-in table knows the server.
func ServerKnown(server string) bool {
	_, ok := servers()[strings.ToLower(server)]
	return ok
}

// serverByTool finds a built-in server by a distinctive tool name, for
// servers configured under another name ("gh" for github-mcp-server).
func serverByTool(tool string) (server, bool) {
	for _, s := range servers() {
		if tool != "" && s.distinctive == tool {
			return s, true
		}
		if _, ok := s.tools[tool]; ok && s.unique[tool] {
			return s, true
		}
	}
	return server{}, false
}

var readVerbs = map[string]bool{
	"get": true, "list": true, "search": true, "read": true, "describe": true, "show": true, "find": true,
	"fetch": true, "query": false, "view": true, "count": true, "check": true, "inspect": true, "lookup": true,
	"browse": true, "download": true, "diff": true, "log": true, "status": true, "explain": true, "preview": true,
	"whoami": true, "info": true, "stat": true, "stats": true, "tree": true, "resolve": true, "summarize": true,
	"analyze": true, "validate": true, "compare": true, "retrieve": true, "load": true, "select": true, "peek": true,
	"snapshot": true, "screenshot": true, "navigate": false, "export": false,
}

var destructiveVerbs = map[string]bool{
	"delete": true, "remove": true, "drop": true, "truncate": true, "destroy": true, "purge": true, "wipe": true,
	"erase": true, "merge": true, "reset": true, "force": true, "revoke": true, "terminate": true, "kill": true,
	"archive": true, "transfer": true, "rm": true, "unlink": true, "clear": true, "flush": true, "prune": true,
	"approve": true, "dismiss": false, "disable": true, "rollback": true, "restore": true, "pause": true,
}

// verbAccess guesses a tool's access from the verbs in its name:
// get/list/search/... read; delete/drop/merge/... are destructive;
// everything else, unknown verbs included, writes.
func verbAccess(tool string) Access {
	words := splitWords(tool)
	if len(words) == 0 {
		return Write
	}
	for _, w := range words {
		if destructiveVerbs[w] {
			return Destructive
		}
	}
	if readVerbs[words[0]] || len(words) > 1 && (words[0] == "git" || words[0] == "browser") && readVerbs[words[1]] {
		return Read
	}
	return Write
}

// splitWords splits snake_case, kebab-case and camelCase names into lower
// case words.
func splitWords(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, strings.ToLower(cur.String()))
			cur.Reset()
		}
	}
	for i, r := range s {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			flush()
		case r >= 'A' && r <= 'Z' && i > 0:
			flush()
			cur.WriteRune(r)
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return out
}
