package secretscan

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/guard/mcp"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/client"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/keywords"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
	"github.com/swarm-guard/swarm-guard/policy"
)

// MCPRequest is an MCP tool call about to run, which the engine allowed.
type MCPRequest struct {
	Tool      string // mcp__SERVER__TOOL
	ToolInput []byte // its arguments, JSON
	Root      string
	Policy    *policy.Policy
	Runner    Runner
	// Environ lists the environment (os.Environ when nil): the values of
	// its credential variables count as secrets (package envcreds).
	Environ func() []string
}

// CheckMCPArgs scans the arguments of an MCP call for secrets before it
// runs: whatever they hold goes to the server, and through it to where the
// server writes, often past every other door (the GitHub server's
// push_files commits straight to the remote, without the pre-commit hook;
// an issue body or a chat message is read by anyone with access). A
// secret there is content the agent writes (rule secret-content), found by
// gitleaks' rules or as the value of a credential variable of the
// environment. Arguments that keywords.Clean proves clean and that hold no
// such value never reach the scanner.
func CheckMCPArgs(r MCPRequest) guard.Decision {
	pol := r.Policy
	action := pol.RuleAction(policy.RuleSecretContent)
	if !pol.Secrets.PreToolUse || action == policy.Off || len(r.ToolInput) == 0 {
		return guard.Decision{}
	}
	var v any
	if json.Unmarshal(r.ToolInput, &v) != nil {
		return guard.Decision{} // the engine judged the call's shape
	}
	args := mcpArgText(v)
	if args.text == "" {
		return guard.Decision{}
	}
	found := credentialFindings("", args.text, environCredentials(r.Environ))
	// MayHoldSecret first: for a few short arguments it costs less than
	// the keyword index Clean builds on first use.
	if keywords.MayHoldSecret(args.text) && !keywords.Clean("", args.text) || customRules(r.Root) {
		ctx, cancel := r.Runner.beforeCall()
		defer cancel()
		scanned, err := r.Runner.run(ctx, r.Root, pol, func(emit client.Emit) error {
			return emit(wire.NewBlock(r.Tool, "", 1, []byte(args.text)))
		})
		if err != nil {
			return scanFailed(err, r.Runner)
		}
		found = append(scanned, found...)
	}
	if len(found) == 0 {
		return guard.Decision{}
	}
	var where []string
	seen := map[string]bool{}
	for _, f := range found {
		w := fmt.Sprintf("%s [%s]", args.name(f.Line), f.Rule)
		if !seen[w] {
			seen[w] = true
			where = append(where, w)
		}
	}
	n, _ := mcp.Parse(r.Tool)
	return decide(action, fmt.Sprintf("MCP server %s, tool %s would receive %s in its arguments: %s; what a server receives it writes or sends on (a commit, an issue, a message)",
		n.Server, n.Tool, plural(len(where), "secret"), strings.Join(where, "; ")),
		"leave the credential out of the call: the server reaches its own service with its own login, and a value that must be configured is a human's to set where the server reads it; rotate the credential if it is real")
}

// mcpArgs is the text the scanner reads of an MCP call's arguments: each
// string as "name: value" (so a keyword-and-value rule sees a password
// argument as in a file), with the argument each line belongs to.
type mcpArgs struct {
	text  string
	names []string // names[i] is the argument of line i+1
}

func (a mcpArgs) name(line int) string {
	if line < 1 || line > len(a.names) {
		return "an argument"
	}
	return "argument " + a.names[line-1]
}

// mcpArgText renders the strings of v as "name: value" lines, at most
// 2 MB.
func mcpArgText(v any) mcpArgs {
	var b strings.Builder
	var names []string
	eachString(v, func(path, s string) bool {
		label := path
		if label == "" {
			label = "(input)"
		}
		line := label + ": " + s + "\n"
		b.WriteString(line)
		for range strings.Count(line, "\n") {
			names = append(names, label)
		}
		return b.Len() <= 2<<20
	})
	return mcpArgs{text: b.String(), names: names}
}

// eachString calls f with every string in v, a decoded JSON value, and
// the path to it (files[0].content), object keys in order, until f
// returns false.
func eachString(v any, f func(path, s string) bool) {
	var walk func(path string, v any) bool
	walk = func(path string, v any) bool {
		switch x := v.(type) {
		case string:
			return f(path, x)
		case []any:
			for i, y := range x {
				if !walk(path+"["+strconv.Itoa(i)+"]", y) {
					return false
				}
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				p := k
				if path != "" {
					p = path + "." + k
				}
				if !walk(p, x[k]) {
					return false
				}
			}
		}
		return true
	}
	walk("", v)
}
