package identity

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/gitrepo"
	"github.com/swarm-guard/swarm-guard/policy"
)

// Pattern is the rule Valid implements, for messages and documentation.
const Pattern = `^[A-Za-z0-9][A-Za-z0-9._@+/-]{0,127}$`

// MaxLen is the longest well-formed id.
const MaxLen = 128

// Environment variables that name the agent, in resolution order.
const (
	EnvAgentID       = "SWARM_GUARD_AGENT_ID"
	EnvCommonAgentID = "AGENT_ID"
)

// Where an id came from (Identity.Source).
const (
	SourceBranch = "branch"
	SourceFile   = "file"
	// An id from the environment has the variable's name as its source.
)

// Valid reports whether id is a well-formed agent id: it matches Pattern.
// It is written out by hand because it runs in every git hook, where
// compiling a regular expression at start-up would be wasted time;
// TestValidMatchesPattern keeps the two identical.
func Valid(id string) bool {
	if len(id) == 0 || len(id) > MaxLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case i > 0 && (c == '.' || c == '_' || c == '@' || c == '+' || c == '/' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// Identity is a resolved agent id.
type Identity struct {
	ID     string `json:"id"`
	Source string `json:"source"`         // EnvAgentID, EnvCommonAgentID, SourceBranch or SourceFile
	File   string `json:"file,omitempty"` // the id file, for SourceFile
}

// Options are what Resolve looks at.
type Options struct {
	Getenv func(string) string // nil: os.Getenv
	// UseBranch is the policy's [identity] source = "branch".
	UseBranch bool
	// Branch is the worktree's branch ("" when detached or outside git);
	// see Branch for how a hook finds it during a rebase.
	Branch string
	// Hostname and Rand make new per-machine ids; nil means os.Hostname
	// and crypto/rand.
	Hostname func() (string, error)
	Rand     io.Reader
}

// Resolve finds the agent id in the documented order. An id that is set
// but malformed is an error, never skipped: skipping would attribute the
// work to somebody else.
func Resolve(o Options) (Identity, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	for _, v := range []string{EnvAgentID, EnvCommonAgentID} {
		if id := getenv(v); id != "" {
			if !Valid(id) {
				return Identity{}, fmt.Errorf("%s=%q is not a well-formed agent id: it must match %s", v, id, Pattern)
			}
			return Identity{ID: id, Source: v}, nil
		}
	}
	if o.UseBranch && o.Branch != "" {
		if !Valid(o.Branch) {
			return Identity{}, fmt.Errorf("branch %q cannot be the agent id ([identity] source = \"branch\"): it must match %s; rename the branch or set %s", o.Branch, Pattern, EnvAgentID)
		}
		return Identity{ID: o.Branch, Source: SourceBranch}, nil
	}
	path, err := FilePath(getenv)
	if err != nil {
		return Identity{}, err
	}
	id, err := LoadOrCreate(path, func() (string, error) { return NewID(o.Hostname, o.Rand) })
	if err != nil {
		return Identity{}, err
	}
	return Identity{ID: id, Source: SourceFile, File: path}, nil
}

// InWorktree is Resolve with getenv, the policy's identity source
// ([identity] source) and the branch of repo (nil outside a worktree): the
// agent id the git hooks stamp, run passes down and swarm-guard id prints.
func InWorktree(getenv func(string) string, repo *gitrepo.Repo, pol *policy.Policy) (Identity, error) {
	return Resolve(Options{Getenv: getenv, UseBranch: pol.Identity.Source == "branch", Branch: Branch(repo)})
}

// Parent strips the last dot segment of an id: the birth branch of the
// agent that spawned this one ("main.feature.auth" → "main.feature").
func Parent(id string) (string, bool) {
	i := strings.LastIndexByte(id, '.')
	if i <= 0 {
		return "", false
	}
	return id[:i], true
}

// Branch returns the branch a worktree is on for identity purposes: the
// checked-out branch, or during a rebase (HEAD detached) the branch being
// rebased, so rebased commits keep the branch's identity.
func Branch(r *gitrepo.Repo) string {
	if r == nil {
		return ""
	}
	if r.Branch != "" || !r.Detached {
		return r.Branch
	}
	for _, f := range []string{"rebase-merge/head-name", "rebase-apply/head-name"} {
		if data, err := os.ReadFile(filepath.Join(r.GitDir, filepath.FromSlash(f))); err == nil {
			if name, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "refs/heads/"); ok {
				return name
			}
		}
	}
	return ""
}

// FilePath is where the per-machine id lives:
// $XDG_CONFIG_HOME/swarm-guard/agent-id, or ~/.config/swarm-guard/agent-id
// when XDG_CONFIG_HOME is unset or not absolute (the XDG rule).
func FilePath(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if x := getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "swarm-guard", "agent-id"), nil
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "swarm-guard", "agent-id"), nil
	}
	return "", fmt.Errorf("cannot place the agent id file: neither XDG_CONFIG_HOME nor HOME is set; set %s or HOME", EnvAgentID)
}

// NewID makes a per-machine id: the short host name, lower case, with
// anything but letters, digits and '-' replaced, then '-' and four random
// hex digits ("buildbox-3fa9").
func NewID(hostname func() (string, error), rnd io.Reader) (string, error) {
	if hostname == nil {
		hostname = os.Hostname
	}
	if rnd == nil {
		rnd = rand.Reader
	}
	h, err := hostname()
	if err != nil {
		h = "" // an id without the host name is still an id
	}
	var b [2]byte
	if _, err := io.ReadFull(rnd, b[:]); err != nil {
		return "", fmt.Errorf("make an agent id: read random bytes: %w", err)
	}
	return sanitizeHost(h) + "-" + hex.EncodeToString(b[:]), nil
}

func sanitizeHost(h string) string {
	h, _, _ = strings.Cut(h, ".")
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(h) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimRight(b.String(), "-")
	if len(s) > 60 {
		s = strings.TrimRight(s[:60], "-")
	}
	if s == "" {
		s = "agent"
	}
	return s
}

// FileError is an id file that exists but cannot be used.
type FileError struct {
	Path    string
	Problem string
}

func (e *FileError) Error() string {
	return fmt.Sprintf("agent id file %s %s; fix it (one line matching %s) or delete it to get a new id", e.Path, e.Problem, Pattern)
}

// LoadOrCreate returns the id stored at path, creating the file with
// newID() when it does not exist. Creation is atomic and first-wins: the
// id is written to a temporary file that is then hard-linked to path,
// which fails when another process linked first; every caller then reads
// back whatever path holds, so concurrent first calls agree.
func LoadOrCreate(path string, newID func() (string, error)) (string, error) {
	id, err := readID(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return id, err
	}
	fresh, err := newID()
	if err != nil {
		return "", err
	}
	if !Valid(fresh) {
		return "", fmt.Errorf("made a malformed agent id %q; set %s", fresh, EnvAgentID)
	}
	if err := createExclusive(path, []byte(fresh+"\n")); err != nil {
		return "", err
	}
	return readID(path)
}

// createExclusive puts data at path unless path exists (then it is a no-op).
func createExclusive(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create the agent id directory: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".agent-id.*.tmp")
	if err != nil {
		return fmt.Errorf("create the agent id file: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write the agent id file: %w", err)
	}
	err = os.Link(tmp.Name(), path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return nil
	}
	// Some file systems have no hard links. O_EXCL is just as exclusive,
	// but a concurrent reader may see the file before it is written;
	// readID waits for that.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create the agent id file: %w", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write the agent id file %s: %w", path, err)
	}
	return nil
}

// readID reads an id file. An empty file is re-read for a moment, because
// on a file system without hard links a concurrent creator may not have
// written it yet.
func readID(path string) (string, error) {
	var data []byte
	for attempt := 0; ; attempt++ {
		f, err := os.Open(path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
			return "", &FileError{Path: path, Problem: fmt.Sprintf("cannot be read (%v)", err)}
		}
		data, err = io.ReadAll(io.LimitReader(f, 4096))
		f.Close()
		if err != nil {
			return "", &FileError{Path: path, Problem: fmt.Sprintf("cannot be read (%v)", err)}
		}
		if len(data) > 0 || attempt == 20 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	id := strings.TrimSpace(string(data))
	switch {
	case id == "":
		return "", &FileError{Path: path, Problem: "is empty"}
	case strings.ContainsAny(id, "\n\r"):
		return "", &FileError{Path: path, Problem: "holds more than one line"}
	case !Valid(id):
		return "", &FileError{Path: path, Problem: fmt.Sprintf("holds %q, which is not a well-formed agent id", truncate(id))}
	}
	return id, nil
}

func truncate(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}
