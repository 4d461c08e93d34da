package ledger

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/gitx"
)

// Record is one agent's cumulative spend on a task, or in a session.
type Record struct {
	Agent string `json:"agent"`
	Task  string `json:"task"`
	// Session is the budget session of the latest update: the swarm
	// session (run --session) or the machine's; in a session's record,
	// the swarm session itself. Sessions lists every session a task's
	// record was updated in, oldest first: a pull request's commits name
	// theirs in the Agent-Session trailer (report --range).
	Session  string    `json:"session,omitempty"`
	Sessions []string  `json:"sessions,omitempty"`
	Tokens   int64     `json:"tokens"` // budgeted tokens: input + cache writes + output
	Turns    int64     `json:"turns"`
	Updated  time.Time `json:"updated"`
	// Tasks splits a session's record by task (NoTask for runs without
	// one); task records leave it out.
	Tasks map[string]int64 `json:"tasks,omitempty"`
}

// NoTask is the key of Record.Tasks for runs without a task.
const NoTask = "-"

// Ledger is one agent's view of a task's or a session's shared ledger in
// one clone.
type Ledger struct {
	Dir    string // a directory of the clone
	Remote string // the remote the swarm shares, "origin"
	Task   string // the task of the run ("" for none in a session ledger)
	// Session is the swarm session of the run ("" for none). With
	// BySession the ledger shares the session's spend
	// (refs/swarm-guard/sessions/<session>/<agent>) instead of the task's.
	Session   string
	BySession bool
	Agent     string
}

// ErrRejected means the remote refused the agent's own ref: someone else
// wrote it. The ledger never overwrites it.
var ErrRejected = errors.New("the remote refused this agent's usage ref, which someone else has written; it is never overwritten")

const (
	ownPrefix         = "refs/swarm-guard/usage/"
	seenPrefix        = "refs/swarm-guard/seen/"
	ownSessionPrefix  = "refs/swarm-guard/sessions/"
	seenSessionPrefix = "refs/swarm-guard/seen-sessions/"
)

// own and seen are the prefixes of this ledger's refs of every agent:
// the ones written in this clone and the ones fetched.
func (l *Ledger) own() string {
	if l.BySession {
		return ownSessionPrefix + safe(l.Session) + "/"
	}
	return ownPrefix + safe(l.Task) + "/"
}

func (l *Ledger) seen() string {
	if l.BySession {
		return seenSessionPrefix + safe(l.Session) + "/"
	}
	return seenPrefix + safe(l.Task) + "/"
}

// OwnRef is the ref this agent writes.
func (l *Ledger) OwnRef() string { return l.own() + safe(l.Agent) }

// FetchSpec is the refspec that brings every agent's record of this
// ledger from the remote.
func (l *Ledger) FetchSpec() string {
	return "+" + l.own() + "*:" + l.seen() + "*"
}

// safe keeps a task or agent id usable as one ref path component.
func safe(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	out := strings.Trim(b.String(), ".")
	if out == "" {
		out = "_"
	}
	return out
}

// git runs git in the clone as the ledger's own committer, through
// gitx.Runner; its error keeps git's whole stderr
// (gitx's message is the first line only, which for a push is "To
// <url>"): PushAll tells a rejected push by it.
func (l *Ledger) git(stdin []byte, args ...string) (string, error) {
	r := gitx.Runner{Dir: l.Dir, Env: append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C",
		"GIT_AUTHOR_NAME=swarm-guard", "GIT_AUTHOR_EMAIL=swarm-guard@localhost",
		"GIT_COMMITTER_NAME=swarm-guard", "GIT_COMMITTER_EMAIL=swarm-guard@localhost")}
	if stdin != nil {
		r.Stdin = bytes.NewReader(stdin)
	}
	out, err := r.Output(args...)
	var ge *gitx.Error
	if errors.As(err, &ge) && ge.Code >= 0 {
		return string(out), fmt.Errorf("git %s: exit status %d: %s", args[0], ge.Code, ge.Stderr)
	}
	if err != nil {
		return string(out), err
	}
	return strings.TrimSpace(string(out)), nil
}

// Own reads this agent's latest record in this clone (zero when none).
func (l *Ledger) Own() (Record, error) {
	return l.read(l.OwnRef())
}

func (l *Ledger) read(ref string) (Record, error) {
	out, err := l.git(nil, "cat-file", "-p", ref+":usage.json")
	if err != nil {
		if _, e := l.git(nil, "rev-parse", "--verify", "--quiet", ref); e != nil {
			return l.empty(), nil // no record yet
		}
		return Record{}, err
	}
	var r Record
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		return Record{}, fmt.Errorf("%s holds a broken usage record: %v", ref, err)
	}
	return r, nil
}

// Add appends a record of this agent's new cumulative spend: the previous
// total plus tokens and turns. Local only; Push publishes it.
func (l *Ledger) Add(tokens, turns int64, now time.Time) (Record, error) {
	prev, err := l.Own()
	if err != nil {
		return Record{}, err
	}
	rec := prev
	rec.Agent, rec.Task, rec.Session = l.Agent, l.Task, l.Session
	rec.Tokens += tokens
	rec.Turns += turns
	rec.Updated = now.UTC()
	if !l.BySession && l.Session != "" && !slices.Contains(prev.Sessions, l.Session) {
		rec.Sessions = append(slices.Clip(prev.Sessions), l.Session)
	}
	if l.BySession {
		task := l.Task
		if task == "" {
			task = NoTask
		}
		tasks := map[string]int64{task: tokens}
		for k, v := range prev.Tasks {
			tasks[k] += v
		}
		rec.Tasks = tasks
	}
	data, _ := json.MarshalIndent(rec, "", "  ")
	blob, err := l.git(append(data, '\n'), "hash-object", "-w", "--stdin")
	if err != nil {
		return Record{}, err
	}
	tree, err := l.git([]byte("100644 blob "+blob+"\tusage.json\n"), "mktree")
	if err != nil {
		return Record{}, err
	}
	what := "on task " + l.Task
	if l.BySession {
		what = "in session " + l.Session
	}
	args := []string{"commit-tree", tree, "-m", fmt.Sprintf("usage: %s spent %d tokens %s\n\nAgent-Id: %s", l.Agent, rec.Tokens, what, l.Agent)}
	old, _ := l.git(nil, "rev-parse", "--verify", "--quiet", l.OwnRef())
	if old != "" {
		args = append(args, "-p", old)
	}
	commit, err := l.git(nil, args...)
	if err != nil {
		return Record{}, err
	}
	upd := []string{"update-ref", l.OwnRef(), commit}
	if old != "" {
		upd = append(upd, old)
	}
	if _, err := l.git(nil, upd...); err != nil {
		return Record{}, err
	}
	return rec, nil
}

// Push publishes this agent's ref, fast-forward only. The pre-push hook is
// skipped: the records are data, and the hook's branch rules are for the
// agent's pushes, not for run's.
func (l *Ledger) Push() error { return PushAll(l) }

// Fetch brings every agent's record of the task (or session) from the
// remote.
func (l *Ledger) Fetch() error {
	_, err := l.git(nil, "fetch", "--quiet", "--no-tags", "--prune", l.Remote, l.FetchSpec())
	return err
}

// FetchAll fetches several ledgers of one clone and remote with one git
// process.
func FetchAll(ls ...*Ledger) error {
	if len(ls) == 0 {
		return nil
	}
	args := []string{"fetch", "--quiet", "--no-tags", "--prune", ls[0].Remote}
	for _, l := range ls {
		args = append(args, l.FetchSpec())
	}
	_, err := ls[0].git(nil, args...)
	return err
}

// PushAll publishes the own refs of several ledgers of one clone and
// remote with one git process, fast-forward only. A refused ref is
// ErrRejected.
func PushAll(ls ...*Ledger) error {
	var specs, refs []string
	for _, l := range ls {
		if _, err := l.git(nil, "rev-parse", "--verify", "--quiet", l.OwnRef()); err == nil {
			specs = append(specs, l.OwnRef()+":"+l.OwnRef())
			refs = append(refs, l.OwnRef())
		}
	}
	if len(specs) == 0 {
		return nil
	}
	_, err := ls[0].git(nil, append([]string{"push", "--quiet", "--no-verify", ls[0].Remote}, specs...)...)
	if err != nil && (strings.Contains(err.Error(), "rejected") || strings.Contains(err.Error(), "non-fast-forward") || strings.Contains(err.Error(), "fetch first")) {
		return fmt.Errorf("%w (%s)", ErrRejected, strings.Join(refs, ", "))
	}
	return err
}

func (l *Ledger) empty() Record {
	return Record{Agent: l.Agent, Task: l.Task, Session: l.Session}
}

// Others sums the latest fetched records of the agents that have no own
// ref in this clone (their spend is not in this clone's local ledger),
// and returns every agent's record, own and others', sorted by agent.
func (l *Ledger) Others() (int64, []Record, error) {
	out, err := l.git(nil, "for-each-ref", "--format=%(refname)", l.own(), l.seen())
	if err != nil {
		return 0, nil, err
	}
	local := map[string]bool{}
	var seen []string
	for _, ref := range strings.Fields(out) {
		agent := ref[strings.LastIndexByte(ref, '/')+1:]
		if strings.HasPrefix(ref, l.own()) {
			local[agent] = true
		} else {
			seen = append(seen, ref)
		}
	}
	var total int64
	byAgent := map[string]Record{}
	var refs []string
	for a := range local {
		refs = append(refs, l.own()+a)
	}
	for _, ref := range seen {
		if !local[ref[strings.LastIndexByte(ref, '/')+1:]] {
			refs = append(refs, ref)
		}
	}
	recs, broken := l.readAll(refs)
	if broken != nil && !errors.Is(broken, ErrBroken) {
		return 0, nil, broken
	}
	for i, ref := range refs {
		if recs[i].Agent == "" {
			continue // broken: reported
		}
		agent := ref[strings.LastIndexByte(ref, '/')+1:]
		byAgent[agent] = recs[i]
		if strings.HasPrefix(ref, l.seen()) {
			total += recs[i].Tokens
		}
	}
	var all []Record
	for _, r := range byAgent {
		all = append(all, r)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Agent < all[j].Agent })
	return total, all, broken
}

// HasRemote reports whether the clone has the remote.
func HasRemote(dir, remote string) bool {
	code, _, err := gitx.Runner{Dir: dir}.ExitCode("remote", "get-url", remote)
	return err == nil && code == 0
}

// ErrBroken means some refs hold no readable usage record; the others
// were read. The error names the refs on the remote and how to remove
// them.
var ErrBroken = errors.New("broken usage record")

// readAll reads the records of many refs with one git process. A ref
// without a readable record leaves its Record zero and is named in an
// ErrBroken error; the other records are still returned.
func (l *Ledger) readAll(refs []string) ([]Record, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	var in strings.Builder
	for _, r := range refs {
		in.WriteString(r + ":usage.json\n")
	}
	out, err := gitx.Runner{Dir: l.Dir, Stdin: strings.NewReader(in.String())}.Output("cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	recs := make([]Record, len(refs))
	var broken []string
	for i := range refs {
		// "<oid> blob <size>\n<content>\n", or "<name> missing\n".
		nl := bytes.IndexByte(out, '\n')
		if nl < 0 {
			return nil, fmt.Errorf("git cat-file: short output")
		}
		head := strings.Fields(string(out[:nl]))
		out = out[nl+1:]
		if len(head) != 3 {
			broken = append(broken, refs[i]) // no usage.json
			continue
		}
		var size int
		fmt.Sscan(head[2], &size)
		if size > len(out) {
			return nil, fmt.Errorf("git cat-file: short output")
		}
		if err := json.Unmarshal(out[:size], &recs[i]); err != nil || recs[i].Agent == "" {
			recs[i] = Record{}
			broken = append(broken, refs[i])
		}
		out = out[size:]
		if len(out) > 0 && out[0] == '\n' {
			out = out[1:]
		}
	}
	if len(broken) > 0 {
		var remote []string
		for _, ref := range broken {
			ref = strings.Replace(ref, seenSessionPrefix, ownSessionPrefix, 1)
			remote = append(remote, strings.Replace(ref, seenPrefix, ownPrefix, 1))
		}
		return recs, fmt.Errorf("%w in %s on %s (not counted; a human removes it: git push %s :%s)", ErrBroken,
			strings.Join(remote, ", "), l.Remote, l.Remote, strings.Join(remote, " :"))
	}
	return recs, nil
}

// AllTasks fetches every task's records from the remote and returns the
// latest record of every agent on every task, own refs before fetched
// ones, sorted by task and agent. A fetch that fails still returns what
// the clone holds, with the error.
func AllTasks(dir, remote string) ([]Record, error) {
	l := &Ledger{Dir: dir, Remote: remote}
	_, ferr := l.git(nil, "fetch", "--quiet", "--no-tags", "--prune", remote, "+"+ownPrefix+"*:"+seenPrefix+"*")
	out, err := l.git(nil, "for-each-ref", "--format=%(refname)", ownPrefix, seenPrefix)
	if err != nil {
		return nil, err
	}
	var refs []string
	have := map[string]bool{}
	for _, prefix := range []string{ownPrefix, seenPrefix} {
		for _, ref := range strings.Fields(out) {
			if key, ok := strings.CutPrefix(ref, prefix); ok && !have[key] {
				have[key] = true
				refs = append(refs, ref)
			}
		}
	}
	all, err := l.readAll(refs)
	if err != nil && !errors.Is(err, ErrBroken) {
		return nil, err
	}
	if ferr == nil {
		ferr = err
	}
	var recs []Record
	for _, r := range all {
		if r.Agent != "" {
			recs = append(recs, r)
		}
	}
	sort.Slice(recs, func(i, j int) bool {
		if recs[i].Task != recs[j].Task {
			return recs[i].Task < recs[j].Task
		}
		return recs[i].Agent < recs[j].Agent
	})
	return recs, ferr
}
