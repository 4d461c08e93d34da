package main

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

func init() {
	commands = append(commands, &command{
		name:    "report",
		summary: "summarise hook decisions and the runs of swarm-guard run",
		usage: `Usage: swarm-guard report [--task ID] [--session S] [--since D] [--format text|json | --json]
       swarm-guard report --range BASE..HEAD [--format text|json | --json]

Summarises the hook's decisions recorded in this repository's audit log:
tool calls by decision, denials by rule, calls per agent, and the commands
and paths denied most often — the numbers to tune a policy with.

Sums the attempts recorded by swarm-guard run in this repository's audit log
per task and agent: runs, attempts, outcomes, turns, tokens (budgeted: input
+ cache writes + output), cost when the agent reported it, and the lines
changed between HEAD before and after each attempt with the tokens per
changed line, when git still has both commits.

  --task ID       only this task; with a git remote ([budget] sync_remote),
                  also the task's spend per agent in every clone, from the
                  remote's ledger, and the task budget left
  --session S     only the runs of the swarm session S (run --session);
                  from the remote's ledger, the session's spend per agent
                  and per task in every clone, and the session budget left
  --since D       only attempts started in the last D (90m, 24h, 7d) or
                  since a date (2026-01-02)
  --range R       only the shared budgets of a pull request's commits, for
                  CI (install --ci github runs it): the tasks their agents
                  (Agent-Id trailers) recorded spend on in the sessions
                  the commits name (Agent-Session), and those sessions
                  when they are swarm sessions, from the remote's ledger;
                  the audit log is not read
  --format F      text (default) or json
  --json          the same as --format json`,
		run: runReport,
	})
}

func runReport(c *cli, args []string) error {
	fs := newFlags("report")
	task := fs.String("task", "", "")
	session := fs.String("session", "", "")
	rng := fs.String("range", "", "")
	since := fs.String("since", "", "")
	format := fs.String("format", "text", "")
	asJSON := fs.Bool("json", false, "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *asJSON {
		*format = "json"
	}
	if fs.NArg() > 0 {
		return usageErrorf("usage: report takes no arguments")
	}
	if *format != "text" && *format != "json" {
		return usageErrorf("usage: --format must be text or json, not %q", *format)
	}
	if *rng != "" && (*task != "" || *session != "" || *since != "") {
		return usageErrorf("usage: --range reads the pull request's own tasks and sessions; it takes no --task, --session or --since")
	}
	var from time.Time
	if *since != "" {
		t, err := parseSince(*since, c.now())
		if err != nil {
			return usageErrorf("usage: --since: %v", err)
		}
		from = t
	}
	wd, err := c.workdir()
	if err != nil {
		return fmt.Errorf("cannot find the working directory: %w", err)
	}
	repo, inRepo := gitrepo.Find(wd)
	commonDir := ""
	if inRepo {
		commonDir = repo.CommonDir
	}
	if *rng != "" {
		if !inRepo {
			return usageErrorf("usage: --range needs a git repository (run it in the checkout of the pull request)")
		}
		return reportRange(c, repo.Root, *rng, *format == "json")
	}
	logPath := filepath.Join(audit.Dir(commonDir, c.getenv), audit.FileName)
	attempts, err := readAttempts(logPath, *task, from)
	if err != nil {
		return err
	}
	if *session != "" {
		kept := attempts[:0]
		for _, a := range attempts {
			if a.BudgetSession == *session {
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
	if *task != "" || *session != "" {
		taskAgents = map[string]bool{}
		for _, a := range attempts {
			taskAgents[a.Agent] = true
		}
	}
	decisions, err := readDecisions(logPath, from, taskAgents)
	if err != nil {
		return err
	}
	var shared, sharedSession *sharedReport
	if *task != "" && inRepo {
		shared = readSharedLedger(c, repo.Root, *task, "")
	}
	if *session != "" && inRepo {
		sharedSession = readSharedLedger(c, repo.Root, "", *session)
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
	if *format == "json" {
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
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	if err := writeDecisions(c.stdout, decisions); err != nil {
		return err
	}
	if shared != nil {
		writeShared(c.stdout, shared)
	}
	if sharedSession != nil {
		writeShared(c.stdout, sharedSession)
	}
	fmt.Fprintln(c.stdout)
	if len(groups) == 0 {
		fmt.Fprintf(c.stdout, "no runs of swarm-guard run recorded in %s\n", logPath)
		return nil
	}
	fmt.Fprintln(c.stdout, "Runs of swarm-guard run:")
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
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

// parseSince reads --since: a duration (with d for days) or a date.
func parseSince(s string, now time.Time) (time.Time, error) {
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
