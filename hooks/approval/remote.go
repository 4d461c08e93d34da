package approval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/gitx"
)

// Through the git remote, for swarms across clones and containers: an
// agent's clone publishes its pending requests under
//
//	refs/swarm-guard/approvals/requests/<CODE>
//
// and a human's clone answers with
//
//	refs/swarm-guard/approvals/granted/<CODE>
//
// each ref a blob holding the request, or the grant (code, binding key,
// who, when), as JSON. `swarm-guard approvals --remote R` on either side
// syncs: it publishes this clone's pending requests, lists the remote's,
// and applies the remote's grants to this clone's own pending requests
// (same code and binding key). Only `swarm-guard approve`, which refuses
// inside an agent session, writes a grant; the Bash guard denies an
// agent's git commands that write refs/swarm-guard/ (push, update-ref,
// fetch into it), as for the budget ledger.
const (
	requestPrefix = "refs/swarm-guard/approvals/requests/"
	grantPrefix   = "refs/swarm-guard/approvals/granted/"
	// seenPrefix is where a sync fetches the remote's refs to, and
	// removes them from again.
	seenPrefix = "refs/swarm-guard/approvals/seen/"
)

// Grant is a human's answer to a request of another clone.
type Grant struct {
	Code string `json:"code"`
	Key  string `json:"key"`
	By   string `json:"approved_by"`
}

// Remote is a clone and the remote it shares approvals through.
type Remote struct {
	Dir  string // a directory of the clone
	Name string // the remote, "origin"
}

func (r Remote) git(stdin []byte, args ...string) (string, error) {
	g := gitx.Runner{Dir: r.Dir, Env: append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")}
	if stdin != nil {
		g.Stdin = bytes.NewReader(stdin)
	}
	out, err := g.Output(args...)
	var ge *gitx.Error
	if errors.As(err, &ge) && ge.Code >= 0 {
		return "", fmt.Errorf("git %s: %s", args[0], ge.Stderr)
	}
	return strings.TrimSpace(string(out)), err
}

// put points ref at a blob holding v.
func (r Remote) put(ref string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	oid, err := r.git(data, "hash-object", "-w", "--stdin")
	if err != nil {
		return err
	}
	_, err = r.git(nil, "update-ref", ref, oid)
	return err
}

// fetched brings the remote's refs under prefix and returns each blob's
// content by the ref's last path element; the fetched refs are removed
// again, so nothing of another clone stays among this clone's refs.
func (r Remote) fetched(prefix string) (map[string][]byte, error) {
	seen := seenPrefix + strings.TrimPrefix(prefix, "refs/swarm-guard/approvals/")
	if _, err := r.git(nil, "fetch", "--quiet", "--no-tags", r.Name, "+"+prefix+"*:"+seen+"*"); err != nil {
		return nil, err
	}
	list, err := r.git(nil, "for-each-ref", "--format=%(refname) %(objectname) %(objecttype)", seen)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, l := range strings.Split(list, "\n") {
		f := strings.Fields(l)
		if len(f) != 3 {
			continue
		}
		if f[2] == "blob" {
			if data, err := r.git(nil, "cat-file", "blob", f[1]); err == nil {
				out[strings.TrimPrefix(f[0], seen)] = []byte(data)
			}
		}
		_, _ = r.git(nil, "update-ref", "-d", f[0])
	}
	return out, nil
}

// Publish pushes this clone's pending requests to the remote.
func (r Remote) Publish(s Store) (int, error) {
	reqs, err := s.List()
	if err != nil {
		return 0, err
	}
	var specs []string
	for _, q := range reqs {
		if !q.Pending(s.now()) {
			continue
		}
		ref := requestPrefix + q.Code
		if err := r.put(ref, q); err != nil {
			return 0, err
		}
		specs = append(specs, "+"+ref+":"+ref)
	}
	if len(specs) == 0 {
		return 0, nil
	}
	_, err = r.git(nil, append([]string{"push", "--quiet", "--no-verify", r.Name}, specs...)...)
	return len(specs), err
}

// Requests lists the remote's pending requests, from every clone.
func (r Remote) Requests(s Store) ([]Request, error) {
	got, err := r.fetched(requestPrefix)
	if err != nil {
		return nil, err
	}
	var out []Request
	for code, data := range got {
		var q Request
		if json.Unmarshal(data, &q) == nil && q.Code == code && q.Pending(s.now()) {
			out = append(out, q)
		}
	}
	return out, nil
}

// Approve grants a request of another clone: the grant is pushed for
// that clone's next sync to apply.
func (r Remote) Approve(q Request, by string) error {
	ref := grantPrefix + q.Code
	if err := r.put(ref, Grant{Code: q.Code, Key: q.Key, By: by}); err != nil {
		return err
	}
	_, err := r.git(nil, "push", "--quiet", "--no-verify", r.Name, "+"+ref+":"+ref)
	return err
}

// Apply fetches the remote's grants and approves this clone's pending
// requests they answer (same code and binding key).
func (r Remote) Apply(s Store) (int, error) {
	got, err := r.fetched(grantPrefix)
	if err != nil {
		return 0, err
	}
	reqs, err := s.List()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, q := range reqs {
		var g Grant
		data, ok := got[q.Code]
		if !ok || json.Unmarshal(data, &g) != nil || g.Code != q.Code || g.Key != q.Key || !q.Pending(s.now()) {
			continue
		}
		if _, err := s.Approve(q.Code, g.By+" (through "+r.Name+")"); err == nil {
			n++
		}
	}
	return n, nil
}
