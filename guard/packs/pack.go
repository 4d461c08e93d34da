package packs

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/internal/httpreq"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// Pack is the knowledge about one family of tools: the programs it covers
// and the rules that judge their invocations.
type Pack struct {
	Name string // "terraform", "kubernetes", ...
	// Vendor marks an opt-in pack of hosted services: judged only when
	// the policy's [packs] enable names it (policy.VendorPacks), at no
	// cost otherwise.
	Vendor   bool
	Programs []string // command names this pack judges
	// ValueFlags are global options that take a separate value
	// (kubectl -n NS, aws --region R), so their value is not taken for a
	// subcommand.
	ValueFlags []string
	Rules      []Rule
}

// Rule is one destructive operation of a pack, with the examples that pin
// it down: every Deny example must be denied by ID, every Allow example
// must pass the whole guard. TestPackExamples runs them through the engine.
type Rule struct {
	ID      string // the policy rule id; [rules] turns it deny/ask/off
	Name    string // short pattern name shown in the reason
	Reason  string // why it is denied, completing "<command> ..."
	Instead string // what to do instead; a path that works without a human
	// Match judges an invocation of one of the pack's programs; HTTP
	// judges a request sent with curl, wget, httpie or xh (guard/internal/httpreq).
	// A rule has one or both.
	Match func(c Call) bool
	HTTP  func(r httpreq.Request) bool
	// Mounts, when set, returns the host paths a call binds into a
	// container, as the words that spell them. Where a path lies is a
	// fact the engine has (guard resolves each like any path operand) and
	// the rule's judge decides it (effect.HostMount), not the pack.
	Mounts func(c Call) []shell.Word
	Deny   []string
	Allow  []string
}

// Call is one invocation as a pack sees it: the program name and its
// arguments as the shell core (guard/internal/shell) expanded them.
type Call struct {
	Program string
	// Words are the arguments as the shell core expanded them: quoting
	// removed, wrappers and variables seen through, and every word only
	// known at run time (a substitution, an unknown variable, an
	// unexpanded glob) marked Dynamic or Glob.
	Words []shell.Word
	// Args are the Words' texts, "" for a word not fully known, so a
	// matcher never takes part of one for a literal.
	Args []string
	// Dynamic: some argument is only known at run time.
	Dynamic bool
	// Stdin is the text on the invocation's standard input when the
	// shell core knows it (echo 'disable server be/web1' | socat …), else "".
	Stdin string
	// Positional are the arguments that are not options (and not values
	// of the pack's ValueFlags), in order: the subcommand path first.
	Positional []string
	// firstPos holds the index in Words of the first Positional words
	// (the subcommand path), without an allocation per call.
	firstPos [maxSubPath]int
}

// NewCall splits the arguments into options and positional words using
// the pack's ValueFlags.
func (p *Pack) NewCall(program string, words []shell.Word) Call {
	args, dynamic := Texts(words)
	return p.newCall(program, words, args, dynamic)
}

// Texts returns the words' texts as a Call holds them ("" for a word not
// fully known) and whether any word is not, so a program judged by
// several packs builds them once.
func Texts(words []shell.Word) (args []string, dynamic bool) {
	args = make([]string, len(words))
	for i, w := range words {
		if !w.Static() {
			dynamic = true
			continue
		}
		args[i] = w.Text
	}
	return args, dynamic
}

// NewCallTexts is NewCall with the words' Texts already built.
func (p *Pack) NewCallTexts(program string, words []shell.Word, args []string, dynamic bool) Call {
	return p.newCall(program, words, args, dynamic)
}

func (p *Pack) newCall(program string, words []shell.Word, args []string, dynamic bool) Call {
	c := Call{Program: program, Words: words, Args: args, Dynamic: dynamic,
		Positional: make([]string, 0, len(words))}
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if a == "--" && c.Words[i].Static() {
			for j := i + 1; j < len(c.Args); j++ {
				c.addPos(c.Args[j], j)
			}
			break
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			if !strings.Contains(a, "=") && p.takesValue(a) {
				i++
			}
			continue
		}
		c.addPos(a, i)
	}
	return c
}

// maxSubPath is the longest subcommand path DynamicAfter and the packs
// look behind (docker container rm).
const maxSubPath = 3

func (c *Call) addPos(a string, i int) {
	if n := len(c.Positional); n < maxSubPath {
		c.firstPos[n] = i
	}
	c.Positional = append(c.Positional, a)
}

// afterPos returns the index in Words just after positional word k-1
// (0 for k = 0), and whether there is one.
func (c Call) afterPos(k int) (int, bool) {
	if k == 0 {
		return 0, true
	}
	if k > len(c.Positional) || k > maxSubPath {
		return 0, false
	}
	return c.firstPos[k-1] + 1, true
}

// PosDynamic reports whether positional word i (i < 3: within the
// subcommand path) is only known at run time.
func (c Call) PosDynamic(i int) bool {
	return i < len(c.Positional) && i < maxSubPath && !c.Words[c.firstPos[i]].Static()
}

// DynamicAfter reports whether a word after the first skip positional
// words (the subcommand path) is only known at run time: docker rm -f
// $(docker ps -aq) removes containers nobody named, while docker
// --context "$CTX" rm web names its one container.
func (c Call) DynamicAfter(skip int) bool {
	from, ok := c.afterPos(skip)
	if !ok {
		return false
	}
	for _, w := range c.Words[from:] {
		if !w.Static() {
			return true
		}
	}
	return false
}

func (p *Pack) takesValue(flag string) bool {
	for _, f := range p.ValueFlags {
		if f == flag {
			return true
		}
	}
	return false
}

// Sub reports whether the positional words start with path, compared
// case-insensitively (SQL-like CLIs such as redis-cli take any case).
func (c Call) Sub(path ...string) bool {
	if len(c.Positional) < len(path) {
		return false
	}
	for i, w := range path {
		if !strings.EqualFold(c.Positional[i], w) {
			return false
		}
	}
	return true
}

// Pos returns positional word i, or "".
func (c Call) Pos(i int) string {
	if i < len(c.Positional) {
		return c.Positional[i]
	}
	return ""
}

// Has reports whether any of the flags is present, as "-f", "--force" or
// "--force=value". A single-letter flag also matches inside a group of
// short flags ("-rf" has -f), as getopt reads it.
func (c Call) Has(flags ...string) bool {
	for _, a := range c.Args {
		if a == "--" {
			return false
		}
		for _, f := range flags {
			switch {
			case a == f, len(f) > 2 && strings.HasPrefix(a, f+"="):
				return true
			case len(f) == 2 && f[0] == '-' && f[1] != '-' && len(a) > 2 && a[0] == '-' && a[1] != '-' &&
				strings.IndexByte(a[1:], f[1]) >= 0 && isShortGroup(a):
				return true
			}
		}
	}
	return false
}

// isShortGroup reports whether a looks like bundled short flags (-rf),
// not a short flag with an attached value such as -n=prod or -oyaml.
func isShortGroup(a string) bool {
	for _, r := range a[1:] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return len(a) <= 5
}

// Value returns the value of a flag given as "--flag v", "--flag=v" or
// "-f v", and whether it was there.
func (c Call) Value(flags ...string) (string, bool) {
	for i, a := range c.Args {
		for _, f := range flags {
			if a == f && i+1 < len(c.Args) {
				return c.Args[i+1], true
			}
			if v, ok := strings.CutPrefix(a, f+"="); ok {
				return v, true
			}
		}
	}
	return "", false
}

// AnyPos reports whether any positional word after the first skip words
// satisfies f.
func (c Call) AnyPos(skip int, f func(string) bool) bool {
	for i := skip; i < len(c.Positional); i++ {
		if f(c.Positional[i]) {
			return true
		}
	}
	return false
}

// All returns every pack, in documentation order: the tool packs, which
// are always on, then the vendor packs.
func All() []*Pack {
	return append(Tools(), Vendors()...)
}

// Tools returns the tool packs, always on.
func Tools() []*Pack {
	return []*Pack{terraform, kubernetes, cloud, storage, containers, datastores, brokers, system}
}

// Vendors returns the vendor packs, in policy.VendorPacks' order.
func Vendors() []*Pack {
	return []*Pack{payment, email, featureflags, search, cdn, apigateway, dns, loadbalancer, messaging, secrets, monitoring, backup, cicd}
}

// ByProgram maps each program name to the packs that judge it.
func ByProgram() map[string][]*Pack {
	m := map[string][]*Pack{}
	for _, p := range All() {
		for _, prog := range p.Programs {
			m[prog] = append(m[prog], p)
		}
	}
	return m
}

// Judge returns the rules of p that match c, in order.
func (p *Pack) Judge(c Call) []*Rule {
	var out []*Rule
	for i := range p.Rules {
		if m := p.Rules[i].Match; m != nil && m(c) {
			out = append(out, &p.Rules[i])
		}
	}
	return out
}

// JudgeHTTP returns the rules of p that match a request, in order.
func (p *Pack) JudgeHTTP(r httpreq.Request) []*Rule {
	var out []*Rule
	for i := range p.Rules {
		if m := p.Rules[i].HTTP; m != nil && m(r) {
			out = append(out, &p.Rules[i])
		}
	}
	return out
}

// JudgesHTTP reports whether any rule of p judges HTTP requests.
func (p *Pack) JudgesHTTP() bool {
	for i := range p.Rules {
		if p.Rules[i].HTTP != nil {
			return true
		}
	}
	return false
}
