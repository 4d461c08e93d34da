package policy

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

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
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &Error{File: name, Line: pe.Position.Line, Key: pe.LastKey, Msg: oneLine(pe.Message) + "; fix the TOML syntax"}
		}
		// Type errors come as "toml: line N (last key "k"): message".
		if m := typeErrRE().FindStringSubmatch(err.Error()); m != nil {
			line, _ := strconv.Atoi(m[1])
			return nil, &Error{File: name, Line: line, Key: m[2], Msg: oneLine(m[3])}
		}
		return nil, &Error{File: name, Msg: oneLine(err.Error())}
	}
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0].String()
		return nil, &Error{File: name, Line: keyLines(data)[k], Key: k, Msg: unknownKeyHint(k)}
	}
	if err := p.validate(); err != nil {
		var pe *Error
		if errors.As(err, &pe) {
			pe.File = name
			lines := keyLines(data)
			if pe.Line == 0 {
				pe.Line = lines[pe.Key]
				if pe.Line == 0 {
					pe.Line = lines[strings.SplitN(pe.Key, "[", 2)[0]]
				}
			}
		}
		return nil, err
	}
	return p, nil
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

func unknownKeyHint(key string) string {
	if strings.HasPrefix(key, "rules.") {
		return "unknown rule; known rules are " + strings.Join(ruleIDs(), ", ") + " (dynamic commands are set by the top-level dynamic_commands key)"
	}
	return "unknown key; check the spelling against the policy reference in the README, or delete it"
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

var typeErrRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^toml: line (\d+) \(last key "([^"]*)"\): (.*)$`)
})

var trailerKeyRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9-]*$`) })

func (p *Policy) validate() error {
	bad := func(key, format string, args ...any) error {
		return &Error{Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	if p.Version != 0 && p.Version != 1 {
		return bad("version", "unsupported policy version %d; this swarm-guard understands version 1", p.Version)
	}
	for i, b := range p.ProtectedBranches {
		if b == "" {
			return bad(fmt.Sprintf("protected_branches[%d]", i), "empty branch name")
		}
		if _, err := filepath.Match(b, ""); err != nil {
			return bad(fmt.Sprintf("protected_branches[%d]", i), "bad branch glob %q: %v", b, err)
		}
	}
	if err := validateGlobs("writable", p.Writable); err != nil {
		return err
	}
	if err := validateGlobs("protected_paths", p.ProtectedPaths); err != nil {
		return err
	}
	if err := validateGlobs("secret_files.patterns", p.SecretFiles.Patterns); err != nil {
		return err
	}
	if err := validateGlobs("secret_files.exceptions", p.SecretFiles.Exceptions); err != nil {
		return err
	}
	if err := validateGlobs("secrets.allow_paths", p.Secrets.AllowPaths); err != nil {
		return err
	}
	switch p.DynamicCommands {
	case Deny, Ask, Allow:
	default:
		return bad("dynamic_commands", "must be \"deny\", \"ask\" or \"allow\", not %q", p.DynamicCommands)
	}
	switch p.FailMode {
	case FailClosed, FailOpen:
	default:
		return bad("fail_mode", "must be \"closed\" or \"open\", not %q", p.FailMode)
	}
	for id, a := range p.Rules {
		if !IsRule(id) {
			return bad("rules."+id, "%s", unknownKeyHint("rules."+id))
		}
		switch a {
		case Deny, Ask, Off:
		default:
			return bad("rules."+id, "must be \"deny\", \"ask\" or \"off\", not %q", a)
		}
	}
	for _, eco := range []string{"npm", "pip", "go", "cargo", "gem", "system", "other"} {
		if err := validateGlobs("packages."+eco, p.Packages.Ecosystem(eco)); err != nil {
			return err
		}
	}
	for i, a := range p.Allow {
		key := fmt.Sprintf("allow[%d]", i)
		if strings.TrimSpace(a.Command) == "" {
			return bad(key+".command", "an [[allow]] entry needs a command glob")
		}
		for _, r := range a.Rules {
			if !IsRule(r) && r != RuleDynamicCommand {
				return bad(key+".rules", "unknown rule %q; known rules are %s, %s", r, strings.Join(ruleIDs(), ", "), RuleDynamicCommand)
			}
		}
	}
	switch p.Identity.Source {
	case "auto", "branch":
	default:
		return bad("identity.source", "must be \"auto\" or \"branch\", not %q", p.Identity.Source)
	}
	if !trailerKeyRE().MatchString(p.Trailers.AgentKey) {
		return bad("trailers.agent_key", "%q is not a valid trailer key (letters, digits and '-')", p.Trailers.AgentKey)
	}
	if !trailerKeyRE().MatchString(p.Trailers.SessionKey) {
		return bad("trailers.session_key", "%q is not a valid trailer key (letters, digits and '-')", p.Trailers.SessionKey)
	}
	for key, a := range map[string]Action{"git.commit_on_protected": p.Git.CommitOnProtected, "git.push_to_protected": p.Git.PushToProtected} {
		if a != Deny && a != Allow {
			return bad(key, "must be \"deny\" or \"allow\", not %q", a)
		}
	}
	if err := validateGlobs("verify.exempt_authors", p.Verify.ExemptAuthors); err != nil {
		return err
	}
	if p.Verify.MinAgents < 0 {
		return bad("verify.min_agents", "must not be negative")
	}
	for key, v := range map[string]int64{
		"budget.max_tool_calls": p.Budget.MaxToolCalls, "budget.max_tokens": p.Budget.MaxTokens,
		"budget.worker_tokens": p.Budget.WorkerTokens, "budget.task_tokens": p.Budget.TaskTokens,
		"budget.session_tokens": p.Budget.SessionTokens,
	} {
		if v < 0 {
			return bad(key, "must not be negative (0 means no limit)")
		}
	}
	return nil
}

func validateGlobs(key string, globs []string) error {
	for i, g := range globs {
		if g == "" || !doublestar.ValidatePattern(g) {
			return &Error{Key: fmt.Sprintf("%s[%d]", key, i), Msg: fmt.Sprintf("bad glob %q; use doublestar syntax such as \"**/*.pem\"", g)}
		}
	}
	return nil
}

var (
	tableRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[\[?\s*([^\]]+?)\s*\]\]?`) })
	keyRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_.\-]+)\s*=`) })
)

// keyLines maps dotted key paths ("rules.force-push", "allow") to the first
// line that defines them. BurntSushi/toml reports positions only for syntax
// errors, and an unknown or invalid key must name its line too.
func keyLines(data []byte) map[string]int {
	lines := map[string]int{}
	table := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		trimmed := strings.TrimSpace(text)
		if strings.HasPrefix(trimmed, "#") || trimmed == "" {
			continue
		}
		if m := tableRE().FindStringSubmatch(text); m != nil && strings.HasPrefix(trimmed, "[") {
			table = unquoteKey(m[1])
			if _, ok := lines[table]; !ok {
				lines[table] = n
			}
			continue
		}
		if m := keyRE().FindStringSubmatch(text); m != nil {
			k := unquoteKey(m[1])
			if table != "" {
				k = table + "." + k
			}
			if _, ok := lines[k]; !ok {
				lines[k] = n
			}
		}
	}
	return lines
}

func unquoteKey(k string) string {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}
