package policy

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/bmatcuk/doublestar/v4"
)

// Error is a policy problem located in a file. Its message is one line that
// names the file, the line, the key and what to do.
type Error struct {
	File string
	Line int // 0 when unknown
	Key  string
	Msg  string
}

func (e *Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
	}
	if e.Key != "" {
		return fmt.Sprintf("%s: key %q: %s", loc, e.Key, e.Msg)
	}
	return fmt.Sprintf("%s: %s", loc, e.Msg)
}

// Load reads the policy of the repository rooted at root: root/.swarm-guard.toml
// when it exists, else the embedded default. A missing root means the default.
func Load(root string) (*Policy, error) {
	if root == "" {
		return Default(), nil
	}
	path := filepath.Join(root, FileName)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return nil, &Error{File: path, Msg: fmt.Sprintf("cannot read the policy file (%v); fix its permissions or remove it to use the default", err)}
	}
	return Parse(data, path)
}

// LoadFile reads and parses one policy file.
func LoadFile(path string) (*Policy, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{File: path, Msg: fmt.Sprintf("cannot read the policy file: %v", err)}
	}
	return Parse(data, path)
}

// Parse decodes a policy file strictly: unknown keys, bad globs and bad
// values are errors. Keys the file leaves out keep their default values.
func Parse(data []byte, name string) (*Policy, error) {
	if string(data) == DefaultText {
		// The file install wrote, unchanged: no need to parse it again.
		p := Default().Clone()
		p.Source = name
		return p, nil
	}
	if since, ok := DefaultSince(string(data)); ok {
		// The same, installed into a repository with history.
		p := Default().Clone()
		p.Source, p.Trailers.Since = name, since
		return p, nil
	}
	return decode(data, name, Default())
}

// decode parses data over a copy of base (nil: an empty policy).
func decode(data []byte, name string, base *Policy) (*Policy, error) {
	var p *Policy
	if base != nil {
		p = base.Clone()
	} else {
		p = &Policy{Rules: map[string]Action{}}
	}
	p.Source = name
	md, err := toml.NewDecoder(bytes.NewReader(stripComments(data))).Decode(p)
	if err == nil && len(md.Undecoded()) == 0 {
		if errs := p.problems(); len(errs) == 0 {
			return p, nil
		}
	}
	// Something is wrong. The fast path above stops at the first problem;
	// diagnose finds every one, so a user fixes the file in one round.
	return nil, diagnose(data, name, base)
}

// stripComments removes comments, keeping line numbers: the commented
// default policy is mostly comments, and the TOML lexer reads them byte by
// byte on every hook call. Quotes are tracked so a "#" inside a string
// stays. Files with multi-line strings are left alone.
func stripComments(data []byte) []byte {
	if bytes.Contains(data, []byte(`"""`)) || bytes.Contains(data, []byte("'''")) {
		return data
	}
	out := make([]byte, 0, len(data))
	for len(data) > 0 {
		line := data
		rest := []byte(nil)
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, rest = data[:i], data[i+1:]
		}
		out = append(out, bytes.TrimRight(line[:commentStart(line)], " \t")...)
		if rest != nil || bytes.HasSuffix(data, []byte("\n")) {
			out = append(out, '\n')
		}
		data = rest
	}
	return out
}

// commentStart returns where a TOML comment starts on a line, or its length.
func commentStart(line []byte) int {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '"' && c == '\\':
			i++ // an escape inside a basic string
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			return i
		}
	}
	return len(line)
}

// referenceHint is what an unknown key's message tells the user to do: the
// key table lives in docs/policy.md (shipped in the release archives and the
// npm package next to the README), so the pointer holds wherever the binary
// came from. TestReferenceHintNamesEveryKey follows it.
const referenceHint = "check the spelling against the policy reference, docs/policy.md, or delete it"

func unknownKeyHint(key string) string {
	if id, ok := strings.CutPrefix(key, "rules."); ok {
		return "unknown rule" + didYouMean(id, ruleIDs()...) + "; known rules are " + strings.Join(ruleIDs(), ", ") + " (dynamic commands are set by the top-level dynamic_commands key)"
	}
	return "unknown key; " + referenceHint
}

func ruleIDs() []string {
	ids := make([]string, len(Rules))
	for i, r := range Rules {
		ids[i] = r.ID
	}
	return ids
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

var commitIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{7,64}$`) })

var trailerKeyRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9-]*$`) })

func (p *Policy) problems() []*Error {
	var errs []*Error
	bad := func(key, format string, args ...any) {
		errs = append(errs, &Error{Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	globs := func(key string, list []string) {
		errs = append(errs, globErrors(key, list)...)
	}
	if p.Version != 0 && p.Version != 1 {
		bad("version", "unsupported policy version %d; this swarm-guard understands version 1", p.Version)
	}
	for i, b := range p.ProtectedBranches {
		if b == "" {
			bad(fmt.Sprintf("protected_branches[%d]", i), "empty branch name")
		}
		if _, err := filepath.Match(b, ""); err != nil {
			bad(fmt.Sprintf("protected_branches[%d]", i), "bad branch glob %q: %v", b, err)
		}
	}
	globs("writable", p.Writable)
	globs("protected_paths", p.ProtectedPaths)
	globs("secret_files.patterns", p.SecretFiles.Patterns)
	globs("secret_files.exceptions", p.SecretFiles.Exceptions)
	globs("secrets.allow_paths", p.Secrets.AllowPaths)
	switch p.DynamicCommands {
	case Deny, Ask, Allow, Warn, Log:
	default:
		bad("dynamic_commands", "must be \"deny\", \"ask\", \"warn\", \"log\" or \"allow\", not %q%s", p.DynamicCommands, didYouMean(string(p.DynamicCommands), "deny", "ask", "warn", "log", "allow"))
	}
	switch p.Mode {
	case "", ModeEnforce, ModeWarn, ModeLog:
	default:
		bad("mode", "must be \"enforce\", \"warn\" or \"log\", not %q%s", p.Mode, didYouMean(p.Mode, ModeEnforce, ModeWarn, ModeLog))
	}
	for i, r := range p.Approvals.Rules {
		if !IsRule(r) && r != RuleDynamicCommand {
			bad(fmt.Sprintf("approvals.rules[%d]", i), "unknown rule %q%s", r, didYouMean(r, append(ruleIDs(), RuleDynamicCommand)...))
		} else if Enforced(r) {
			bad(fmt.Sprintf("approvals.rules[%d]", i), "%s cannot be approvable: it protects the guard itself", r)
		}
	}
	if p.Approvals.Expiry != "" {
		if d, err := time.ParseDuration(p.Approvals.Expiry); err != nil || d <= 0 || d > 7*24*time.Hour {
			bad("approvals.expiry", "must be a duration between 1s and 168h, like \"1h\" or \"30m\", not %q", p.Approvals.Expiry)
		}
	}
	switch p.Committed.Humans {
	case "", CommittedReport, CommittedRefuse:
	default:
		bad("committed.humans", "must be \"report\" or \"refuse\", not %q%s", p.Committed.Humans, didYouMean(p.Committed.Humans, CommittedReport, CommittedRefuse))
	}
	switch p.FailMode {
	case FailClosed, FailOpen:
	default:
		bad("fail_mode", "must be \"closed\" or \"open\", not %q%s", p.FailMode, didYouMean(string(p.FailMode), "closed", "open"))
	}
	for id, a := range p.Rules {
		if !IsRule(id) {
			bad("rules."+id, "%s", unknownKeyHint("rules."+id))
		}
		switch a {
		case Deny, Ask, Off, Warn, Log:
		default:
			bad("rules."+id, "must be \"deny\", \"ask\", \"warn\", \"log\" or \"off\", not %q%s", a, didYouMean(string(a), "deny", "ask", "warn", "log", "off"))
		}
	}
	for _, eco := range []string{"npm", "pip", "go", "cargo", "gem", "system", "other"} {
		globs("packages."+eco, p.Packages.Ecosystem(eco))
	}
	for i, a := range p.Allow {
		key := fmt.Sprintf("allow[%d]", i)
		if strings.TrimSpace(a.Command) == "" {
			bad(key+".command", "an [[allow]] entry needs a command glob")
		}
		for _, r := range a.Rules {
			if !IsRule(r) && r != RuleDynamicCommand {
				bad(key+".rules", "unknown rule %q%s; known rules are %s, %s", r, didYouMean(r, append(ruleIDs(), RuleDynamicCommand)...), strings.Join(ruleIDs(), ", "), RuleDynamicCommand)
			}
		}
	}
	switch p.Identity.Source {
	case "auto", "branch":
	default:
		bad("identity.source", "must be \"auto\" or \"branch\", not %q%s", p.Identity.Source, didYouMean(p.Identity.Source, "auto", "branch"))
	}
	if !trailerKeyRE().MatchString(p.Trailers.AgentKey) {
		bad("trailers.agent_key", "%q is not a valid trailer key (letters, digits and '-')", p.Trailers.AgentKey)
	}
	switch p.Swarm.Oversight {
	case OversightPRGated, OversightAutonomous, OversightCheckpoint:
	default:
		bad("swarm.oversight", "must be \"pr-gated\", \"autonomous\" or \"checkpoint\", not %q%s", p.Swarm.Oversight,
			didYouMean(p.Swarm.Oversight, OversightPRGated, OversightAutonomous, OversightCheckpoint))
	}
	for i, g := range p.Swarm.OwnBranches {
		key := fmt.Sprintf("swarm.own_branches[%d]", i)
		expanded := strings.NewReplacer("{id}", "id", "{branch}", "branch").Replace(g)
		switch {
		case g == "" || !doublestar.ValidatePattern(expanded):
			bad(key, "bad branch glob %q; use doublestar syntax such as \"agent/{id}/**\"", g)
		case strings.Trim(expanded, "*/") == "":
			bad(key, "%q matches every branch, so agents could push over each other's work; name a prefix such as \"agent/{id}/**\"", g)
		}
	}
	for key, v := range map[string]string{"mcp.default": p.MCP.Default} {
		if !validMCPAccess(v, true) {
			bad(key, "must be \"read\", \"write\", \"admin\" or \"deny\", not %q%s", v, didYouMean(v, "read", "write", "admin", "deny"))
		}
	}
	for name, s := range p.MCP.Servers {
		if !validMCPAccess(s.Access, true) {
			bad("mcp.servers."+name+".access", "must be \"read\", \"write\", \"admin\" or \"deny\", not %q%s", s.Access, didYouMean(s.Access, "read", "write", "admin", "deny"))
		}
		for field, globs := range map[string][]string{"allow": s.Allow, "ask": s.Ask, "deny": s.Deny} {
			for i, g := range globs {
				if g == "" || !doublestar.ValidatePattern(g) {
					bad(fmt.Sprintf("mcp.servers.%s.%s[%d]", name, field, i), "bad tool-name glob %q; use * and ? (\"merge_*\")", g)
				}
			}
		}
	}
	for i, h := range p.Network.AllowHosts {
		if h == "" || strings.ContainsAny(h, "/:") {
			bad(fmt.Sprintf("network.allow_hosts[%d]", i), "%q is not a host name; write hosts like \"api.github.com\" or \"*.example.com\"", h)
		}
	}
	for i, name := range p.Packs.Enable {
		if name != PacksAll && !IsVendorPack(name) {
			bad(fmt.Sprintf("packs.enable[%d]", i), "unknown vendor pack %q%s; the vendor packs are %s", name,
				didYouMean(name, vendorPackNames()...), strings.Join(vendorPackNames(), ", "))
		}
	}
	if s := p.Trailers.Since; s != "" && !commitIDRE().MatchString(s) {
		bad("trailers.since", "%q is not a commit id (7 to 64 hex digits); it names the commit swarm-guard was installed on", s)
	}
	if !trailerKeyRE().MatchString(p.Trailers.SessionKey) {
		bad("trailers.session_key", "%q is not a valid trailer key (letters, digits and '-')", p.Trailers.SessionKey)
	}
	if !trailerKeyRE().MatchString(p.Trailers.HumanKey) {
		bad("trailers.human_key", "%q is not a valid trailer key (letters, digits and '-')", p.Trailers.HumanKey)
	} else if strings.EqualFold(p.Trailers.HumanKey, p.Trailers.AgentKey) || strings.EqualFold(p.Trailers.HumanKey, p.Trailers.SessionKey) {
		bad("trailers.human_key", "%q must differ from agent_key and session_key: it marks the commits that are no agent's", p.Trailers.HumanKey)
	}
	if h := p.Verify.HumanCommits; h != HumanCommitsAllow && h != HumanCommitsDeny {
		bad("verify.human_commits", "must be \"allow\" or \"deny\", not %q%s", h, didYouMean(h, HumanCommitsAllow, HumanCommitsDeny))
	}
	for key, a := range map[string]Action{"git.commit_on_protected": p.Git.CommitOnProtected, "git.push_to_protected": p.Git.PushToProtected} {
		if a != Deny && a != Allow {
			bad(key, "must be \"deny\" or \"allow\", not %q", a)
		}
	}
	globs("verify.exempt_authors", p.Verify.ExemptAuthors)
	globs("verify.scope", p.Verify.Scope)
	globs("verify.agent_branches", p.Verify.AgentBranches)
	if p.Verify.MinAgents < 0 {
		bad("verify.min_agents", "must not be negative")
	}
	for key, v := range map[string]int64{
		"budget.max_tool_calls": p.Budget.MaxToolCalls, "budget.max_tokens": p.Budget.MaxTokens, "budget.sync_seconds": p.Budget.SyncSeconds,
		"budget.sync_turns":    p.Budget.SyncTurns,
		"budget.worker_tokens": p.Budget.WorkerTokens, "budget.task_tokens": p.Budget.TaskTokens,
		"budget.session_tokens": p.Budget.SessionTokens,
	} {
		if v < 0 {
			bad(key, "must not be negative (0 means no limit)")
		}
	}
	return errs
}

func globErrors(key string, globs []string) []*Error {
	var errs []*Error
	for i, g := range globs {
		if g == "" || !doublestar.ValidatePattern(g) {
			errs = append(errs, &Error{Key: fmt.Sprintf("%s[%d]", key, i), Msg: fmt.Sprintf("bad glob %q; use doublestar syntax such as \"**/*.pem\"", g)})
		}
	}
	return errs
}

// validMCPAccess reports whether s is an MCP access level ("" allowed
// where the default applies).
func validMCPAccess(s string, emptyOK bool) bool {
	switch s {
	case "read", "write", "admin", "deny":
		return true
	case "":
		return emptyOK
	}
	return false
}
