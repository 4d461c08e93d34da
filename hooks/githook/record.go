package githook

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/gitrepo"
)

// The local commit record: who the hooks saw make each commit in this
// clone, for verify to hold against the commit's trailers.
//
// prepare-commit-msg runs for every git commit, --no-verify included, and
// knows who commits (the session's agent id, or a human) but not the new
// commit's id. It knows HEAD, the commit the new one is made on (its
// parent, or for --amend the commit it replaces), so it appends
//
//	<HEAD oid> TAB agent:<id> | human
//
// to <common git dir>/swarm-guard/commits. git's own reflogs name, for
// every commit git commit made in this clone, the HEAD it was made on
// ("<old> <new> ... TAB commit: subject"). Together they say who made
// that commit; verify flags a trailer that says otherwise. The file lives
// with the guard's state, which the engine keeps agents from writing.

const commitRecordName = "commits"

// recordValue is how a record names who committed.
func recordValue(human bool, id string) string {
	if human {
		return "human"
	}
	return "agent:" + id
}

// recordCommit appends who is about to commit on the current HEAD. A
// record that cannot be written warns and never blocks the commit: the
// trailer checks still hold, the record only backs them.
func (hc *gitHookContext) recordCommit(human bool, id string) {
	if hc.repo == nil {
		return
	}
	head, unborn := hc.repo.Head()
	if unborn {
		head = zeroOID
	}
	if head == "" {
		return
	}
	dir := filepath.Join(hc.repo.CommonDir, "swarm-guard")
	line := head + "\t" + recordValue(human, id) + "\n"
	err := os.MkdirAll(dir, 0o755)
	if err == nil {
		var f *os.File
		if f, err = os.OpenFile(filepath.Join(dir, commitRecordName), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err == nil {
			_, err = f.WriteString(line) // one short write: O_APPEND keeps concurrent lines whole
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
	}
	if err != nil {
		hc.warn("cannot record who made this commit (%v); verify cannot check its trailer against the record", err)
	}
}

// zeroOID is HEAD before the first commit, as reflogs write it.
const zeroOID = "0000000000000000000000000000000000000000"

// CommitRecords is what this clone's record and reflogs say about the
// commits git commit made here: commit id → the record values of the
// HEAD it was made on.
type CommitRecords map[string][]string

// LoadCommitRecords reads the record and every reflog of the repository
// holding dir. No record (CI, a clone without the hooks) is an empty map.
func LoadCommitRecords(dir string) (CommitRecords, error) {
	repo, ok := gitrepo.Find(dir)
	if !ok {
		return nil, nil
	}
	byHead := map[string][]string{}
	f, err := os.Open(filepath.Join(repo.CommonDir, "swarm-guard", commitRecordName))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("cannot read the local commit record: %w", err)
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		head, who, ok := strings.Cut(sc.Text(), "\t")
		if ok && !slices.Contains(byHead[head], who) {
			byHead[head] = append(byHead[head], who)
		}
	}
	f.Close()
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("cannot read the local commit record: %w", err)
	}
	out := CommitRecords{}
	visit := func(path string) {
		data, err := os.ReadFile(path)
		if err != nil {
			return
		}
		for _, l := range strings.Split(string(data), "\n") {
			head, rest, ok := strings.Cut(l, "\t")
			if !ok || !strings.HasPrefix(rest, "commit") {
				continue // only git commit's entries: not replays, merges or checkouts
			}
			f := strings.Fields(head)
			if len(f) < 2 {
				continue
			}
			if who, ok := byHead[f[0]]; ok {
				out[f[1]] = who
			}
		}
	}
	logs := filepath.Join(repo.CommonDir, "logs")
	_ = filepath.WalkDir(logs, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			visit(path)
		}
		return nil
	})
	wts, _ := filepath.Glob(filepath.Join(repo.CommonDir, "worktrees", "*", "logs", "HEAD"))
	for _, w := range wts {
		visit(w)
	}
	return out, nil
}

// RecordSays is verify's question: who the hooks saw make a commit here.
func (r CommitRecords) RecordSays(commit string) ([]string, bool) {
	who, ok := r[commit]
	return who, ok
}

// agentSessionHuman reports whether the hooks take this commit for a
// human's.
func agentSessionHuman(c Env) bool { return !agentCommit(c) }
