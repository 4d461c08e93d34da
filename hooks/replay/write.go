package replay

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/history"
)

// Write prints the report: as JSON, or as text for people.
func Write(w io.Writer, rep Report, asJSON bool) error {
	if asJSON {
		if rep.Changes == nil && rep.Against != "" {
			rep.Changes = []Change{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "replayed %d tool call%s (%d session%s, %d agent%s) from %d file%s under %s\n",
		rep.Calls, plural(rep.Calls), rep.Sessions, plural(rep.Sessions), rep.Agents, plural(rep.Agents), rep.Read.Files, plural(rep.Read.Files), rep.Policy)
	writeProblems(&b, rep.Read)
	if rep.Against != "" {
		fmt.Fprintf(&b, "%d call%s decided differently under %s:\n", len(rep.Changes), plural(len(rep.Changes)), rep.Against)
		for _, c := range rep.Changes {
			fmt.Fprintf(&b, "  %s  %s -> %s  %s: %s", c.Source, shownOutcome(c.Before), shownOutcome(c.After), c.Tool, c.Call)
			if c.Agent != "" {
				fmt.Fprintf(&b, "  (agent %s)", c.Agent)
			}
			b.WriteString("\n")
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "allowed: %d of %d\n", rep.Allowed, rep.Calls)
	if len(rep.Rules) == 0 {
		b.WriteString("no rule decided any call\n")
	} else {
		fmt.Fprintf(&b, "%-26s %6s %5s %5s %5s  %-6s %s\n", "rule", "deny", "ask", "warn", "log", "agents", "first trigger")
		for _, r := range rep.Rules {
			fmt.Fprintf(&b, "%-26s %6d %5d %5d %5d  %-6d %s %s: %s\n", r.Rule, r.Deny, r.Ask, r.Warn, r.Log, len(r.Agents), r.First.Source, r.First.Tool, r.First.Call)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func shownOutcome(o Outcome) string {
	if o.Rule == "" {
		return o.Action
	}
	return o.Action + " " + o.Rule
}

// writeProblems names the lines that could not be read: counts per kind
// and the first few places of each.
func writeProblems(b *strings.Builder, st history.Stats) {
	if len(st.Problems) == 0 {
		return
	}
	fmt.Fprintf(b, "skipped %d unreadable line%s:", len(st.Problems), plural(len(st.Problems)))
	for _, kind := range []string{history.Corrupt, history.Truncated, history.Foreign} {
		n := st.Count(kind)
		if n == 0 {
			continue
		}
		var where []string
		for _, p := range st.Problems {
			if p.Kind == kind && len(where) < 3 {
				where = append(where, p.Source)
			}
		}
		more := ""
		if n > len(where) {
			more = ", …"
		}
		fmt.Fprintf(b, " %s %d (%s%s)", kind, n, strings.Join(where, ", "), more)
	}
	b.WriteString("\n")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
