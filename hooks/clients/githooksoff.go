package clients

import (
	"encoding/json"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Gemini CLI 0.61 runs every shell command with git's hooks switched off:
// its getSafeGitEnv sets GIT_CONFIG_COUNT=8 with core.hooksPath empty (and
// credential.helper, core.fsmonitor, core.sshCommand, the editors, the
// global and system config files off). A Gemini agent's git commit then
// runs none of swarm-guard's git hooks: no secret scan of what is staged,
// no Agent-Id trailer, no pre-push check. The PreToolUse guard is what
// stands, so it denies such a commit, merge or push and hands back the
// same command with the hooks on: `unset GIT_CONFIG_COUNT; ...` in the
// shell Gemini starts for the command drops every GIT_CONFIG_KEY_n, and
// git reads the repository's own hooks again. The engine allows that
// (unsetting restores the hooks, it switches nothing off), and the
// commit then meets the git hooks like anyone else's.

// hooksOffSubcommands are the git subcommands whose git hooks carry a
// check: pre-commit and commit-msg (commit, merge's commit), pre-push.
var hooksOffSubcommands = map[string]bool{"commit": true, "merge": true, "push": true}

// gitHooksOffReason is the denial for a command that would commit or push
// with git's hooks off, "" when it does not or turns them back on first.
func gitHooksOffReason(client, command string) string {
	sub := gitWithHooksOff(command)
	if sub == "" {
		return ""
	}
	return "swarm-guard blocked this call (rule git-hooks-off): " + client + " runs every shell command with git's hooks switched off (GIT_CONFIG_COUNT sets core.hooksPath empty), so this git " + sub +
		" would skip swarm-guard's git hooks (the secret scan of what is staged, the Agent-Id trailer, the push checks). Instead: run the same command with the hooks on: unset GIT_CONFIG_COUNT; " + oneLine(command)
}

// gitWithHooksOff is the first git subcommand of hooksOffSubcommands the
// command runs while git's hooks are off, "" when none: the hooks are
// back on once the command unsets GIT_CONFIG_COUNT, sets it (to 0), or
// runs git under env -u GIT_CONFIG_COUNT. A command that does not parse
// is left to the engine, which judges it first.
func gitWithHooksOff(command string) string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return ""
	}
	restored, found := false, ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if found != "" {
			return false
		}
		if d, ok := n.(*syntax.DeclClause); ok { // export/declare GIT_CONFIG_COUNT=...
			for _, a := range d.Args {
				if a.Name != nil && a.Name.Value == "GIT_CONFIG_COUNT" {
					restored = true
				}
			}
			return true
		}
		call, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		for _, a := range call.Assigns {
			if a.Name != nil && a.Name.Value == "GIT_CONFIG_COUNT" {
				if len(call.Args) == 0 {
					restored = true // for the rest of the script
				} else {
					return true // for this command
				}
			}
		}
		words := make([]string, len(call.Args))
		for i, w := range call.Args {
			words[i] = literal(w)
		}
		for len(words) > 0 {
			switch path.Base(words[0]) {
			case "unset", "export":
				for _, w := range words[1:] {
					if w == "GIT_CONFIG_COUNT" || strings.HasPrefix(w, "GIT_CONFIG_COUNT=") {
						restored = true
					}
				}
				return true
			case "env":
				rest, unsets := envArgs(words[1:])
				if unsets {
					return true
				}
				words = rest
				continue
			case "command", "exec", "nice", "nohup", "time", "timeout", "sudo":
				words = words[1:]
				continue
			case "git":
				if !restored {
					if sub := gitSubcommand(words[1:]); hooksOffSubcommands[sub] {
						found = sub
					}
				}
			}
			break
		}
		return true
	})
	return found
}

// envArgs skips env's options and assignments to the program it runs;
// unsets says env switches the hooks back on for it.
func envArgs(args []string) (rest []string, unsets bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-u" || a == "--unset":
			if i+1 < len(args) && args[i+1] == "GIT_CONFIG_COUNT" {
				unsets = true
			}
			i++
		case a == "-uGIT_CONFIG_COUNT" || a == "--unset=GIT_CONFIG_COUNT" || a == "-i" || a == "--ignore-environment" || a == "-":
			unsets = true
		case strings.HasPrefix(a, "GIT_CONFIG_COUNT="):
			unsets = true
		case strings.HasPrefix(a, "-") || strings.Contains(a, "="):
		default:
			return args[i:], unsets
		}
	}
	return nil, unsets
}

// gitSubcommand is git's subcommand after its global options.
func gitSubcommand(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--exec-path" || a == "--config-env":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// literal is a word's text with its quotes removed; parts only known at
// run time are left out.
func literal(w *syntax.Word) string {
	var b strings.Builder
	var walk func(parts []syntax.WordPart)
	walk = func(parts []syntax.WordPart) {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.Lit:
				b.WriteString(p.Value)
			case *syntax.SglQuoted:
				b.WriteString(p.Value)
			case *syntax.DblQuoted:
				walk(p.Parts)
			}
		}
	}
	walk(w.Parts)
	return b.String()
}

// checkGitHooksOff denies the first Bash call among calls that would
// commit or push with git's hooks off.
func checkGitHooksOff(client string, calls [][]byte) (verdict, bool) {
	for _, c := range calls {
		var ev struct {
			ToolName  string `json:"tool_name"`
			ToolInput struct {
				Command string `json:"command"`
			} `json:"tool_input"`
		}
		if json.Unmarshal(c, &ev) != nil || ev.ToolName != "Bash" {
			continue
		}
		if r := gitHooksOffReason(client, ev.ToolInput.Command); r != "" {
			return verdict{deny: true, reason: r}, true
		}
	}
	return verdict{}, false
}
