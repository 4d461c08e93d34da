package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/swarm-guard/swarm-guard/guard/budget"
	"github.com/swarm-guard/swarm-guard/hooks/audit"
	"github.com/swarm-guard/swarm-guard/hooks/gitrepo"
	"github.com/swarm-guard/swarm-guard/hooks/gitx"
)

// Options choose what Write reports.
type Options struct {
	Task    string    // only this task ("": every task)
	Session string    // only the runs of this swarm session
	Since   time.Time // only what happened since then (zero: everything)
	JSON    bool      // JSON instead of text
	Getenv  func(string) string
}

// Write reports the hook's decisions and the runs of swarm-guard run
// recorded in the audit log of repo (nil outside a repository: the
// machine's), with the shared ledger's view of o.Task and o.Session.
func Write(w io.Writer, repo *gitrepo.Repo, o Options) error {
	inRepo := repo != nil
	commonDir := ""
	if inRepo {
		commonDir = repo.CommonDir
	}
	logPath := filepath.Join(audit.Dir(commonDir, o.Getenv), audit.FileName)
	attempts, err := readAttempts(logPath, o.Task, o.Since)
	if err != nil {
		return err
	}
	if o.Session != "" {
		kept := attempts[:0]
		for _, a := range attempts {
			if a.BudgetSession == o.Session {
				kept = append(kept, a)
			}
		}
		attempts = kept
	}
	var lines func(budget.Attempt) (int64, bool)
	if inRepo {
		lines = newDiffCounter(repo.Root).changedLines
	}
	var taskAgents map[string]bool
	if o.Task != "" || o.Session != "" {
		taskAgents = map[string]bool{}
		for _, a := range attempts {
			taskAgents[a.Agent] = true
		}
	}
	decisions, err := readDecisions(logPath, o.Since, taskAgents)
	if err != nil {
		return err
	}
	var shared, sharedSession *sharedReport
	if o.Task != "" && inRepo {
		shared = readSharedLedger(repo.Root, o.Task, "")
	}
	if o.Session != "" && inRepo {
		sharedSession = readSharedLedger(repo.Root, "", o.Session)
	}
	groups := budget.Aggregate(attempts, lines)
	var total []budget.Group
	if len(groups) > 1 {
		all := make([]budget.Attempt, len(attempts))
		for i, a := range attempts {
			a.Task, a.Agent = "", ""
			all[i] = a
		}
		total = budget.Aggregate(all, lines)
	}
	if o.JSON {
		out := struct {
			Log       string           `json:"log"`
			Decisions *decisionSummary `json:"decisions"`
			Shared    *sharedReport    `json:"shared_task,omitempty"`
			Session   *sharedReport    `json:"shared_session,omitempty"`
			Groups    []budget.Group   `json:"groups"`
			Total     *budget.Group    `json:"total,omitempty"`
		}{Log: logPath, Decisions: decisions, Shared: shared, Session: sharedSession, Groups: groups}
		if len(total) == 1 {
			out.Total = &total[0]
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	if err := writeDecisions(w, decisions); err != nil {
		return err
	}
	if shared != nil {
		writeShared(w, shared)
	}
	if sharedSession != nil {
		writeShared(w, sharedSession)
	}
	fmt.Fprintln(w)
	if len(groups) == 0 {
		fmt.Fprintf(w, "no runs of swarm-guard run recorded in %s\n", logPath)
		return nil
	}
	fmt.Fprintln(w, "Runs of swarm-guard run:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TASK\tAGENT\tRUNS\tATTEMPTS\tOUTCOMES\tTURNS\tTOKENS\tCOST\tLINES\tTOKENS/LINE")
	for _, g := range groups {
		task := g.Task
		if task == "" {
			task = "-"
		}
		writeGroup(tw, task, g.Agent, g)
	}
	for _, g := range total {
		writeGroup(tw, "total", "", g)
	}
	return tw.Flush()
}

func writeGroup(w io.Writer, task, agent string, g budget.Group) {
	cost, lines, perLine := "-", "-", "-"
	if g.CostUSD != nil {
		cost = fmt.Sprintf("$%.2f", *g.CostUSD)
	}
	if g.ChangedLines != nil {
		lines = strconv.FormatInt(*g.ChangedLines, 10)
	}
	if g.TokensPerLine != nil {
		perLine = budget.Count(int64(*g.TokensPerLine + 0.5))
	}
	fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%s\t%d\t%s\t%s\t%s\t%s\n", task, agent, g.Runs, g.Attempts, outcomeList(g.Outcomes),
		g.Turns, budget.Count(g.Budgeted), cost, lines, perLine)
}

// outcomeList is "2 success, 1 timeout", most frequent first.
func outcomeList(m map[budget.Outcome]int) string {
	byName := make(map[string]int, len(m))
	for o, n := range m {
		byName[string(o)] = n
	}
	rows := sortedCounts(byName, 0)
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = fmt.Sprintf("%d %s", r.Count, r.Key)
	}
	return strings.Join(parts, ", ")
}

// ParseSince reads --since: a duration (with d for days) or a date.
func ParseSince(s string, now time.Time) (time.Time, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.ParseFloat(days, 64); err == nil && n >= 0 {
			return now.Add(-time.Duration(n * 24 * float64(time.Hour))), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", time.DateOnly} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is neither a duration (90m, 24h, 7d) nor a date (2026-01-02)", s)
}

// runMark finds run records among the hook's decision records cheaply.
var runMark = []byte(`"event":"` + budget.RecordEvent + `"`)

// readAttempts reads the run records of the audit log.
func readAttempts(path, task string, from time.Time) ([]budget.Attempt, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the audit log: %w", err)
	}
	defer f.Close()
	var out []budget.Attempt
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if !bytes.Contains(line, runMark) {
			continue
		}
		var a budget.Attempt
		if err := json.Unmarshal(line, &a); err != nil || a.Event != budget.RecordEvent {
			// One damaged line must not hide every other run.
			continue
		}
		if (task != "" && a.Task != task) || (!from.IsZero() && a.Time.Before(from)) {
			continue
		}
		out = append(out, a)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the audit log %s: %w", path, err)
	}
	return out, nil
}

// diffCounter asks git how many lines changed between two commits.
// Commits are shared by every worktree, so one repository answers for
// attempts made in any of them.
type diffCounter struct {
	git   gitx.Runner
	cache map[[2]string]diffCount
}

type diffCount struct {
	lines int64
	ok    bool
}

func newDiffCounter(dir string) *diffCounter {
	return &diffCounter{git: gitx.Runner{Dir: dir, Isolate: true}, cache: map[[2]string]diffCount{}}
}

var shortstatRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d+) (insertion|deletion)`) })

// changedLines is the lines added plus deleted by an attempt; false when git
// cannot tell (no repository then, or a commit that is gone).
func (d *diffCounter) changedLines(a budget.Attempt) (int64, bool) {
	if a.HeadBefore == "" || a.HeadAfter == "" {
		return 0, false
	}
	if a.HeadBefore == a.HeadAfter {
		return 0, true
	}
	key := [2]string{a.HeadBefore, a.HeadAfter}
	if c, ok := d.cache[key]; ok {
		return c.lines, c.ok
	}
	out, err := d.git.Output("diff", "--shortstat", a.HeadBefore, a.HeadAfter)
	c := diffCount{ok: err == nil}
	if err == nil {
		for _, m := range shortstatRE().FindAllStringSubmatch(string(out), -1) {
			n, _ := strconv.ParseInt(m[1], 10, 64)
			c.lines += n
		}
	}
	d.cache[key] = c
	return c.lines, c.ok
}
