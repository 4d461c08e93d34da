package approval

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/swarm-guard/swarm-guard/policy"
)

// DirName is the store's directory inside the state directory.
const DirName = "approvals"

// Binding is what an approval holds for: the exact call, who made it,
// where, and under which policy.
type Binding struct {
	Tool     string
	Input    json.RawMessage // the tool_input as sent
	Agent    string
	Worktree string
	Policy   string // PolicyHash of the policy in force
}

// Key is the binding's hash: equal for the same call, agent, worktree and
// policy, different when any of them differs.
func (b Binding) Key() string {
	h := sha256.New()
	for _, s := range []string{b.Tool, canonical(b.Input), b.Agent, b.Worktree, b.Policy} {
		fmt.Fprintf(h, "%d:%s\n", len(s), s)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// canonical is the input with its keys sorted and its spacing removed, so
// a client that re-serialises the same input binds the same approval.
func canonical(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// PolicyHash identifies a policy's content: an approval given under one
// policy does not hold under an edited one.
func PolicyHash(p *policy.Policy) string {
	c := p.Clone()
	c.Source = ""
	b, _ := json.Marshal(c)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// Request is one pending or approved call.
type Request struct {
	Code     string    `json:"code"`
	Key      string    `json:"key"`
	Tool     string    `json:"tool"`
	Command  string    `json:"command"` // what the call does, as shown to the human
	Agent    string    `json:"agent"`
	Worktree string    `json:"worktree"`
	Rule     string    `json:"rule"`
	Reason   string    `json:"reason"`
	Created  time.Time `json:"created"`
	Expires  time.Time `json:"expires"`
	Approved time.Time `json:"approved,omitempty"`
	By       string    `json:"approved_by,omitempty"`
	Used     time.Time `json:"used,omitempty"`
}

// Pending reports whether the request waits for a human.
func (r Request) Pending(now time.Time) bool {
	return r.Approved.IsZero() && r.Used.IsZero() && now.Before(r.Expires)
}

// Store is the approvals of one repository.
type Store struct {
	Dir string // <state dir>/approvals
	Now func() time.Time
}

// Open returns the store of a state directory.
func Open(stateDir string) Store { return Store{Dir: filepath.Join(stateDir, DirName)} }

func (s Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Outcome is what the store says about a denied call.
type Outcome struct {
	Allowed bool    // an approval held and is now used up: the call runs
	Request Request // the approval used, or the pending request (with its code)
}

// Lift is called with a call the guard would stop and a human may allow:
// an approved, unused, unexpired request with the same binding is used up
// and the call runs; else the pending request for it (created, or the one
// an earlier try made) is returned with its code.
func (s Store) Lift(b Binding, shown Request, expiry time.Duration) (Outcome, error) {
	var out Outcome
	err := s.locked(func() error {
		now := s.now()
		key := b.Key()
		reqs, err := s.read()
		if err != nil {
			return err
		}
		for _, r := range reqs {
			if r.Key != key || !now.Before(r.Expires) || !r.Used.IsZero() {
				continue
			}
			if !r.Approved.IsZero() {
				r.Used = now
				out = Outcome{Allowed: true, Request: r}
				return s.write(r)
			}
			out.Request = r
			return nil
		}
		code, err := newCode(reqs)
		if err != nil {
			return err
		}
		r := shown
		r.Code, r.Key, r.Tool, r.Agent, r.Worktree = code, key, b.Tool, b.Agent, b.Worktree
		r.Created, r.Expires = now, now.Add(expiry)
		out.Request = r
		return s.write(r)
	})
	return out, err
}

// ErrUnknown means no pending request has the code.
var ErrUnknown = errors.New("no pending request has this code")

// Approve marks the pending request with the code approved by a human.
func (s Store) Approve(code, by string) (Request, error) {
	code = strings.ToUpper(strings.TrimSpace(code))
	var out Request
	err := s.locked(func() error {
		reqs, err := s.read()
		if err != nil {
			return err
		}
		now := s.now()
		for _, r := range reqs {
			if r.Code != code {
				continue
			}
			switch {
			case !r.Used.IsZero():
				return fmt.Errorf("request %s was approved and its call has run (%s); a new denial carries a new code", code, r.Used.Format(time.RFC3339))
			case !now.Before(r.Expires):
				return fmt.Errorf("request %s expired at %s; the agent's next try of the call makes a new one", code, r.Expires.Format(time.RFC3339))
			case !r.Approved.IsZero():
				out = r
				return nil // approving twice is harmless: it still runs once
			}
			r.Approved, r.By = now, by
			out = r
			return s.write(r)
		}
		return ErrUnknown
	})
	return out, err
}

// List returns every request, newest first.
func (s Store) List() ([]Request, error) {
	reqs, err := s.read()
	sort.Slice(reqs, func(i, j int) bool { return reqs[i].Created.After(reqs[j].Created) })
	return reqs, err
}

func (s Store) read() ([]Request, error) {
	ents, err := os.ReadDir(s.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Request
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(s.Dir, e.Name()))
		if err != nil {
			return nil, err
		}
		var r Request
		if err := json.Unmarshal(data, &r); err != nil || r.Code+".json" != e.Name() {
			continue // not a request: never one that can allow a call
		}
		out = append(out, r)
	}
	return out, nil
}

// write replaces a request's file atomically.
func (s Store) write(r Request) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(s.Dir, "."+r.Code+".tmp")
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(s.Dir, r.Code+".json"))
}

// locked runs f under the store's lock: two hook processes retrying the
// same approved call use it once between them.
func (s Store) locked(f func() error) error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("create the approval store: %w", err)
	}
	lf, err := os.OpenFile(filepath.Join(s.Dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("open the approval store's lock: %w", err)
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("lock the approval store: %w", err)
	}
	defer syscall.Flock(int(lf.Fd()), syscall.LOCK_UN)
	return f()
}

// codeAlphabet has no letters a human misreads (0/O, 1/I/L).
const codeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// newCode returns a fresh 6-character code: about 887 million values,
// random, so a code is not guessed from the call.
func newCode(taken []Request) (string, error) {
	used := map[string]bool{}
	for _, r := range taken {
		used[r.Code] = true
	}
	for tries := 0; tries < 16; tries++ {
		var b [6]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", err
		}
		for i := range b {
			b[i] = codeAlphabet[int(b[i])%len(codeAlphabet)]
		}
		if c := string(b[:]); !used[c] {
			return c, nil
		}
	}
	return "", errors.New("no free approval code")
}
