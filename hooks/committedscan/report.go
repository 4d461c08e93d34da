package committedscan

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/committed"
	"github.com/swarm-guard/swarm-guard/hooks/internal/sarif"
	"github.com/swarm-guard/swarm-guard/policy"
)

// Blocking reports whether a finding fails a scan or refuses an agent's
// commit: deny and ask do; warn and log (the shadow modes) only report.
func Blocking(f committed.Finding) bool { return f.Action == policy.Deny || f.Action == policy.Ask }

// Line is a finding as one text line: where, the rule, why, the trigger
// and what to do instead.
func Line(f committed.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d: %s", f.File, f.Line, f.Rule)
	if f.Action.Shadow() {
		fmt.Fprintf(&b, " (%s mode)", f.Action)
	}
	fmt.Fprintf(&b, ": %s", strings.TrimSuffix(f.Reason, "."))
	if f.Where != "" {
		fmt.Fprintf(&b, " (%s, run in %s)", f.Where, contextName(f.Context))
	}
	if f.Trigger != "" {
		fmt.Fprintf(&b, " [in: %s]", oneLine(f.Trigger))
	}
	if f.Instead != "" {
		fmt.Fprintf(&b, ". Instead: %s", strings.TrimSuffix(f.Instead, "."))
	}
	b.WriteString(".")
	return b.String()
}

func contextName(c string) string {
	switch c {
	case "ci":
		return "a CI job"
	case "build":
		return "an image build"
	case "dev":
		return "a teammate's checkout"
	}
	return c
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}

// Message is a finding without its file and line (an annotation carries
// them): the rule, why, where in the file, the trigger and the Instead.
func Message(f committed.Finding) string {
	l := Line(f)
	prefix := fmt.Sprintf("%s:%d: ", f.File, f.Line)
	return strings.TrimSuffix(strings.TrimPrefix(l, prefix), ".")
}

// WriteText writes one line per finding and its fingerprint.
func WriteText(w io.Writer, fs []committed.Finding) {
	for _, f := range fs {
		fmt.Fprintf(w, "%s\n  fingerprint: %s\n", Line(f), f.Fingerprint)
	}
}

// WriteJSON writes the findings as a JSON array.
func WriteJSON(w io.Writer, fs []committed.Finding) error {
	if fs == nil {
		fs = []committed.Finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(fs)
}

// WriteSARIF writes the findings as SARIF 2.1.0, one rule per engine
// rule, the fingerprint as a partial fingerprint (code scanning then
// tracks a finding across line moves).
func WriteSARIF(w io.Writer, version string, fs []committed.Finding) error {
	var rules []sarif.Rule
	index := map[string]int{}
	var results []sarif.Result
	for _, f := range fs {
		i, ok := index[f.Rule]
		if !ok {
			i = len(rules)
			index[f.Rule] = i
			info := policy.Info(f.Rule)
			sum := info.Summary
			if sum == "" {
				sum = f.Rule
			}
			rules = append(rules, sarif.Rule{ID: f.Rule, Name: f.Rule, ShortDescription: sarif.Message{Text: sum},
				Help: sarif.Message{Text: "A command committed for others to run, judged by swarm-guard's rule " + f.Rule + " in the context where it runs."}})
		}
		level := "error"
		if !Blocking(f) {
			level = "warning"
		}
		msg := strings.TrimSuffix(f.Reason, ".") + " (" + f.Where + ", run in " + contextName(f.Context) + ")."
		if f.Instead != "" {
			msg += " Instead: " + f.Instead
		}
		results = append(results, sarif.Result{RuleID: f.Rule, RuleIndex: i, Level: level, Message: sarif.Message{Text: msg},
			Locations:           []sarif.Location{sarif.FileLocation(f.File, f.Line, f.Line, 0)},
			PartialFingerprints: map[string]string{"swarmGuardCommand/v1": f.Fingerprint}})
	}
	return sarif.Write(w, version, rules, results)
}
