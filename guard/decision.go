package guard

import (
	"fmt"
	"strings"

	"github.com/swarm-guard/swarm-guard/policy"
)

// Decision is the engine's verdict on one tool call. The zero Decision means
// "no decision": the guard never allows anything, it only restricts.
type Decision struct {
	// Action is "" (no decision), policy.Deny or policy.Ask, or, for a
	// rule in a shadow mode, policy.Warn or policy.Log: the call runs.
	Action      policy.Action
	Rule        string    // rule id of the deciding finding
	Reason      string    // what was blocked and why
	Trigger     string    // the part of the command or the path that triggered the rule
	Alternative string    // what to do instead
	Findings    []Finding // every finding, deciding one first; includes ones allowed by policy
	// Would is what a Warn or Log decision stands in for: policy.Deny, or
	// policy.Ask for a call a human would have been asked about.
	Would policy.Action

	// writesNothing: CheckCommand walked the whole command and it writes
	// no file, listed or not (WritesNothing).
	writesNothing bool
	// sentURLs: the literal URLs the command's network clients send to,
	// as the walk that decided saw them (SentURLs).
	sentURLs []SentURL
}

// WritesNothing reports whether CheckCommand proved, in the same walk that
// decided, that the command writes no file: what Writes reports as no
// files and not opaque. PreToolUse leaves the record for swarm-guard-post
// on it without walking the command a second time.
func (d Decision) WritesNothing() bool { return d.writesNothing }

// SentURLs returns what Engine.SentURLs returns for the command
// CheckCommand decided, from the same walk: the hook's secret scan of
// what curl and the like send reads them without walking the command
// again.
func (d Decision) SentURLs() []SentURL { return d.sentURLs }

// Finding is one rule that matched.
type Finding struct {
	Action      policy.Action `json:"action"` // deny, ask, or allow when an [[allow]] entry exempted it
	Rule        string        `json:"rule"`
	Reason      string        `json:"reason"`
	Trigger     string        `json:"trigger,omitempty"`
	Alternative string        `json:"alternative,omitempty"`
	AllowedBy   string        `json:"allowed_by,omitempty"` // the [[allow]] command glob that exempted it
	Would       policy.Action `json:"would,omitempty"`      // warn and log: deny or ask
	// RunTime: the finding rests on a word only known at run time
	// (rules.Verdict.RunTime). A committed file's variables are set where
	// it runs, so its judge (guard/committed) leaves these out. Not part
	// of the JSON the CLI prints.
	RunTime bool `json:"-"`
}

// Denied reports whether the decision blocks the call.
func (d Decision) Denied() bool { return d.Action == policy.Deny }

// Stops reports whether the call does not simply run: denied, or left to
// a human. A warn or log decision lets it run.
func (d Decision) Stops() bool { return d.Action == policy.Deny || d.Action == policy.Ask }

// WouldAction is the decision a warn or log decision stands in for (deny
// when not known), else the decision's own action.
func (d Decision) WouldAction() policy.Action {
	if !d.Action.Shadow() {
		return d.Action
	}
	if d.Would != "" {
		return d.Would
	}
	return policy.Deny
}

// Stronger returns whichever of two decisions weighs more for the call:
// one that stops it over a warning, a warning over a log line, any over
// none; a tie keeps a. The hook combines the engine's decision with the
// content and budget checks by it, so a shadowed rule never hides one
// that stops the call.
func Stronger(a, b Decision) Decision {
	if weight(b.Action) > weight(a.Action) {
		return b
	}
	return a
}

func weight(a policy.Action) int {
	switch a {
	case policy.Deny:
		return 4
	case policy.Ask:
		return 3
	case policy.Warn:
		return 2
	case policy.Log:
		return 1
	}
	return 0
}

// Message is the one-line text shown to the agent: what was blocked, which
// rule, and what to do instead.
func (d Decision) Message() string {
	if d.Action == "" {
		return ""
	}
	var b strings.Builder
	switch {
	case d.Action == policy.Ask:
		fmt.Fprintf(&b, "swarm-guard needs approval for this call (rule %s", d.Rule)
	case d.Action.Shadow() && d.WouldAction() == policy.Ask:
		fmt.Fprintf(&b, "swarm-guard warning: this call runs (%s mode), but would need a human's approval (rule %s", d.Action, d.Rule)
	case d.Action.Shadow():
		fmt.Fprintf(&b, "swarm-guard warning: this call runs (%s mode), but would be blocked (rule %s", d.Action, d.Rule)
	default:
		fmt.Fprintf(&b, "swarm-guard blocked this call (rule %s", d.Rule)
	}
	if l := policy.Info(d.Rule).Label; l != "" {
		b.WriteString(" " + l)
	}
	b.WriteString("): ")
	b.WriteString(strings.TrimSuffix(d.Reason, "."))
	if d.Trigger != "" {
		fmt.Fprintf(&b, " [in: %s]", d.Trigger)
	}
	b.WriteString(".")
	if d.Alternative != "" {
		b.WriteString(" Instead: ")
		b.WriteString(strings.TrimSuffix(d.Alternative, "."))
		b.WriteString(".")
	}
	if n := d.moreDenials(); n > 0 {
		fmt.Fprintf(&b, " (%d more rule match(es); run `swarm-guard check` for all.)", n)
	}
	return oneLine(b.String())
}

func (d Decision) moreDenials() int {
	n := 0
	for _, f := range d.Findings {
		if f.Action == policy.Deny || f.Action == policy.Ask {
			n++
		}
	}
	if n > 0 {
		n--
	}
	return n
}

// oneLine folds whitespace so a message is always a single line: hook
// output is read by an agent and by log tooling line by line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// clip shortens a command excerpt for messages.
func clip(s string) string {
	s = oneLine(s)
	const max = 160
	if len(s) > max {
		cut := max
		for cut > 0 && !isRuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// SentURL is a literal URL a network client in a shell command sends to.
type SentURL struct {
	By  string // the client: curl, wget, http
	URL string
}

func badInput(reason, alt string) Decision {
	f := Finding{Action: policy.Deny, Rule: policy.RuleBadInput, Reason: reason, Alternative: alt}
	return Decision{Action: policy.Deny, Rule: f.Rule, Reason: f.Reason, Alternative: f.Alternative, Findings: []Finding{f}}
}
