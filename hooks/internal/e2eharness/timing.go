package e2eharness

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"
)

// RoundsEnv sets how many rounds a timing test runs (0 skips it).
const RoundsEnv = "SWARM_GUARD_E2E_ROUNDS"

// Rounds is $SWARM_GUARD_E2E_ROUNDS, or def when it is unset or not a
// number.
func Rounds(def int) int {
	if n, err := strconv.Atoi(os.Getenv(RoundsEnv)); err == nil && n >= 0 {
		return n
	}
	return def
}

// Variant is one hook configuration a timing test runs the same calls in
// (no hooks, a no-op hook, swarm-guard ...).
type Variant struct {
	Name string
	// Run plays the timing calls once in this configuration and returns
	// each call's time, in call order (a Standin's Gaps). It fails the
	// test when a call did not run; it never fails on slowness.
	Run func(t testing.TB) []time.Duration
}

// Timings are what Measure measured: By[variant][round][call].
type Timings struct {
	Variants []string
	Rounds   int
	By       [][][]time.Duration
}

// Measure runs rounds rounds; in each, every variant plays the calls
// once, back to back, the first variant in turn (AB, BA, AB ... for two),
// so that no variant always runs first or last. Comparing two variants
// call by call within a round (Added) then compares runs minutes apart at
// most: what other processes on a shared machine add drifts slowly, and
// each pair sees about the same of it.
func Measure(t testing.TB, rounds int, variants []Variant) Timings {
	t.Helper()
	m := Timings{Rounds: rounds, By: make([][][]time.Duration, len(variants))}
	for _, v := range variants {
		m.Variants = append(m.Variants, v.Name)
	}
	for round := range rounds {
		for i := range variants {
			v := (i + round) % len(variants)
			gaps := variants[v].Run(t)
			if m.By[v] != nil && len(gaps) != len(m.By[v][0]) {
				t.Fatalf("%s: %d call timings in round %d, %d in round 1", variants[v].Name, len(gaps), round+1, len(m.By[v][0]))
			}
			m.By[v] = append(m.By[v], gaps)
		}
	}
	return m
}

// Call is variant v's typical time of one call: the median over every
// call of every round.
func (m Timings) Call(v int) time.Duration {
	var all []time.Duration
	for _, r := range m.By[v] {
		all = append(all, r...)
	}
	return Median(all)
}

// Added is what variant v adds to a call over variant base: the
// differences of the same call in the same round (a pair of runs back to
// back), over every call and round.
func (m Timings) Added(v, base int) Spread {
	var diffs []time.Duration
	var s Spread
	for r := range m.By[v] {
		var round []time.Duration
		for k := range m.By[v][r] {
			round = append(round, m.By[v][r][k]-m.By[base][r][k])
		}
		s.PerRound = append(s.PerRound, Median(round))
		diffs = append(diffs, round...)
	}
	s.N = len(diffs)
	s.Median, s.Q1, s.Q3 = Median(diffs), Quantile(diffs, 0.25), Quantile(diffs, 0.75)
	return s
}

// Spread describes paired differences: their median, interquartile range
// (half of them lie between Q1 and Q3), how many there are, and the
// median of each round's.
type Spread struct {
	Median, Q1, Q3 time.Duration
	N              int
	PerRound       []time.Duration
}

// String is e.g. "+12.3 ms (IQR +5.0 to +20.1 ms, 18 pairs)".
func (s Spread) String() string {
	return fmt.Sprintf("%s ms (IQR %s to %s ms, %d pairs)", SignedMs(s.Median), SignedMs(s.Q1), SignedMs(s.Q3), s.N)
}

// Rounds lists the per-round medians, e.g. "+10.1, +14.0, +9.2".
func (s Spread) Rounds() string {
	var out string
	for i, d := range s.PerRound {
		if i > 0 {
			out += ", "
		}
		out += SignedMs(d)
	}
	return out
}

// Median is the middle of d (the mean of the two middle ones for an even
// count); 0 for none.
func Median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Quantile is the q-quantile of d (0 ≤ q ≤ 1), interpolated linearly
// between the two nearest values; 0 for none.
func Quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	pos := q * float64(len(s)-1)
	lo := int(pos)
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[lo] + time.Duration((pos-float64(lo))*float64(s[lo+1]-s[lo]))
}

// Ms is d in milliseconds with one decimal, e.g. "12.3 ms".
func Ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

// SignedMs is d in milliseconds with its sign and no unit, e.g. "+12.3".
func SignedMs(d time.Duration) string {
	return fmt.Sprintf("%+.1f", float64(d)/float64(time.Millisecond))
}

// TimingCommands are the shell calls every suite's timing test makes in
// each run: an agent's ordinary work inside its worktree (reads, git
// queries, small writes), none denied, the same in every client so that
// the clients' figures compare.
var TimingCommands = []string{
	"ls",
	"git status --short",
	"cat README.md",
	"echo x >> notes.txt",
	"grep -n demo README.md",
	"git diff --stat",
	"wc -l README.md notes.txt",
	"printf 'a\\n' > out.txt",
	"git log --oneline -1",
	"ls -la",
}
