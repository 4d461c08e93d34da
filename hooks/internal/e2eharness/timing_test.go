package e2eharness

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

const ms = time.Millisecond

// TestMeasureInterleaves: each round runs every variant once, the first
// in turn, and Added pairs a call with the same call of the same round,
// so that a round that is slow for both (the machine got busy) cancels
// out instead of widening the spread.
func TestMeasureInterleaves(t *testing.T) {
	var order []string
	round := 0
	// The machine's extra load per round: the same for both runs of a round.
	busy := []time.Duration{0, 300 * ms, 40 * ms}
	variant := func(name string, cost time.Duration) Variant {
		return Variant{Name: name, Run: func(testing.TB) []time.Duration {
			order = append(order, name)
			r := round
			if len(order)%2 == 0 {
				round++
			}
			return []time.Duration{100*ms + cost + busy[r], 200*ms + cost + busy[r], 150*ms + cost + busy[r]}
		}}
	}
	m := Measure(t, 3, []Variant{variant("noop", 0), variant("guard", 10*ms)})
	if want := []string{"noop", "guard", "guard", "noop", "noop", "guard"}; !slices.Equal(order, want) {
		t.Fatalf("order %v, want %v", order, want)
	}
	added := m.Added(1, 0)
	if added.Median != 10*ms || added.Q1 != 10*ms || added.Q3 != 10*ms || added.N != 9 {
		t.Fatalf("added = %+v", added)
	}
	if !slices.Equal(added.PerRound, []time.Duration{10 * ms, 10 * ms, 10 * ms}) {
		t.Fatalf("per round = %v", added.PerRound)
	}
	if got := added.String(); got != "+10.0 ms (IQR +10.0 to +10.0 ms, 9 pairs)" {
		t.Fatalf("String() = %q", got)
	}
	if got := m.Call(0); got != 200*ms { // the middle of all nine calls
		t.Fatalf("Call(0) = %v", got)
	}
}

func TestQuantiles(t *testing.T) {
	d := []time.Duration{4 * ms, 1 * ms, 3 * ms, 2 * ms, 100 * ms}
	if Median(d) != 3*ms || Quantile(d, 0.25) != 2*ms || Quantile(d, 0.75) != 4*ms || Quantile(d, 1) != 100*ms {
		t.Fatalf("median %v q1 %v q3 %v max %v", Median(d), Quantile(d, 0.25), Quantile(d, 0.75), Quantile(d, 1))
	}
	if Median([]time.Duration{1 * ms, 2 * ms}) != 1500*time.Microsecond || Quantile([]time.Duration{0, 10 * ms}, 0.25) != 2500*time.Microsecond {
		t.Fatal("even count or interpolation off")
	}
	if Median(nil) != 0 || Quantile(nil, 0.5) != 0 {
		t.Fatal("no values must give 0")
	}
}

func TestRounds(t *testing.T) {
	t.Setenv(RoundsEnv, "")
	if Rounds(3) != 3 {
		t.Fatal("unset: want the default")
	}
	t.Setenv(RoundsEnv, "0")
	if Rounds(3) != 0 {
		t.Fatal("0 must skip")
	}
	t.Setenv(RoundsEnv, "seven")
	if Rounds(3) != 3 {
		t.Fatal("not a number: want the default")
	}
}

// TestWriteCostSection: a section replaces its own earlier run and leaves
// the other suite's alone; a new one goes at the end.
func TestWriteCostSection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "clients-cost.md")
	row := CostRow{Client: "Codex", Version: "0.169.0", NoopCall: 108 * ms, GuardCall: 117 * ms,
		Added: Spread{Median: 9 * ms, Q1: 4 * ms, Q3: 15 * ms, N: 18, PerRound: []time.Duration{8 * ms, 9 * ms, 11 * ms}}}
	sec := CostSection{Key: "clients", Title: "Other clients", Started: time.Now(), LoadBefore: "1.00 1.00 1.00", Rounds: 3, Calls: []string{"ls"}, Rows: []CostRow{row}}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(WriteCostSection(path, sec))
	must(WriteCostSection(path, CostSection{Key: "claude-code", Title: "Claude Code", Started: time.Now(), Rounds: 6, Notes: []string{"a note"}}))
	sec.Rows[0].Version = "0.170.0"
	must(WriteCostSection(path, sec))
	b, err := os.ReadFile(path)
	must(err)
	text := string(b)
	if !strings.HasPrefix(text, "# Cost per call in each agent client") || strings.Count(text, "<!-- begin clients -->") != 1 {
		t.Fatalf("file:\n%s", text)
	}
	if strings.Contains(text, "0.169.0") || !strings.Contains(text, "| Codex | 0.170.0 | 108.0 ms | 117.0 ms | +9.0 ms | +4.0 to +15.0 ms | +8.0, +9.0, +11.0 | 18 |") {
		t.Fatalf("the clients section was not replaced:\n%s", text)
	}
	if strings.Index(text, "<!-- begin clients -->") > strings.Index(text, "<!-- begin claude-code -->") || !strings.Contains(text, "\na note\n") {
		t.Fatalf("the Claude Code section moved or changed:\n%s", text)
	}
}
