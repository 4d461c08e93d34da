package e2eharness

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/internal/machine"
)

// CostFileEnv names the results file the timing tests write their figures
// into (make e2e-cost: docs/clients-cost.md; make e2e and make
// e2e-clients: bin/clients-cost.md). Unset, they only log them.
const CostFileEnv = "SWARM_GUARD_E2E_COST_FILE"

// costHeader opens a new results file.
const costHeader = `# Cost per call in each agent client

Written by the timing tests of ` + "`make e2e` and `make e2e-clients`" + ` (` + "`make e2e-cost`" + ` writes this
file with more rounds); do not edit by hand. How they measure:
[clients.md](clients.md#cost-per-call-in-each-client). Each section is the
latest run of one suite.
`

// CostRow is one client's figures.
type CostRow struct {
	Client, Version     string
	NoopCall, GuardCall time.Duration // a typical call with the no-op hook, with swarm-guard
	Added               Spread        // what swarm-guard adds over the no-op hook
}

// CostSection is one suite's part of the results file, between the lines
// "<!-- begin KEY -->" and "<!-- end KEY -->".
type CostSection struct {
	Key, Title string
	Started    time.Time
	LoadBefore string // machine.Load() when the timing began
	Rounds     int
	Variants   []string // the configurations each round runs (Timings.Variants)
	Calls      []string // the commands each run makes
	Rows       []CostRow
	Notes      []string // more lines of the suite's own, each a paragraph
}

// Markdown renders the section, markers included; the load average after
// the run and the time it took are read now.
func (c CostSection) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!-- begin %s -->\n## %s\n\n", c.Key, c.Title)
	fmt.Fprintf(&b, "- date: %s (the timing took %s)\n", c.Started.UTC().Format("2006-01-02 15:04 UTC"), time.Since(c.Started).Round(time.Second))
	fmt.Fprintf(&b, "- machine: %s, load average %s before, %s after\n", machine.Describe(), orUnknown(c.LoadBefore), orUnknown(machine.Load()))
	if commit := os.Getenv("SWARM_GUARD_E2E_COMMIT"); commit != "" {
		fmt.Fprintf(&b, "- commit: %s\n", commit)
	}
	var calls []string
	for _, cmd := range c.Calls {
		calls = append(calls, "`"+cmd+"`")
	}
	fmt.Fprintf(&b, "- rounds: %d; in each, one run of every configuration (%s) back to back, the first in turn; %d shell calls a run (%s)\n\n",
		c.Rounds, strings.Join(c.Variants, ", "), len(c.Calls), strings.Join(calls, ", "))
	b.WriteString("| client | version | call, no-op hook | call, swarm-guard | swarm-guard adds (median of paired differences) | spread (interquartile range) | median of each round | pairs |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, r := range c.Rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s ms | %s to %s ms | %s | %d |\n", r.Client, r.Version, Ms(r.NoopCall), Ms(r.GuardCall),
			SignedMs(r.Added.Median), SignedMs(r.Added.Q1), SignedMs(r.Added.Q3), r.Added.Rounds(), r.Added.N)
	}
	for _, n := range c.Notes {
		fmt.Fprintf(&b, "\n%s\n", n)
	}
	fmt.Fprintf(&b, "<!-- end %s -->\n", c.Key)
	return b.String()
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// WriteCostSection puts the section into the results file at path: in
// place of the same section's earlier run, else at the end; the other
// suites' sections stay as they are. A missing file is created.
func WriteCostSection(path string, c CostSection) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	text := string(old)
	if text == "" {
		text = costHeader
	}
	section := c.Markdown()
	begin, end := fmt.Sprintf("<!-- begin %s -->\n", c.Key), fmt.Sprintf("<!-- end %s -->\n", c.Key)
	i := strings.Index(text, begin)
	j := strings.Index(text, end)
	if i >= 0 && j > i {
		text = text[:i] + section + text[j+len(end):]
	} else {
		text = strings.TrimRight(text, "\n") + "\n\n" + section
	}
	return os.WriteFile(path, []byte(text), 0o644)
}
