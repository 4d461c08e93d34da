package committedscan

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/guard/committed"
	"github.com/swarm-guard/swarm-guard/hooks/gitrepo"
	"github.com/swarm-guard/swarm-guard/hooks/gitx"
	"github.com/swarm-guard/swarm-guard/hooks/internal/gitchanges"
	"github.com/swarm-guard/swarm-guard/policy"
)

// Request says what to judge.
type Request struct {
	Root   string // the worktree's top level
	Policy *policy.Policy
	// Base and Head select a range (what Head adds over their merge
	// base); both empty: the staged changes.
	Base, Head string
}

// Changes judges the commands the staged changes or a range add.
func Changes(ctx context.Context, r Request) ([]committed.Finding, error) {
	each := func(fn func(gitchanges.Hunk) error) error { return gitchanges.Staged(ctx, r.Root, fn) }
	rev, ignoreRev := ":", ":"
	if r.Base != "" || r.Head != "" {
		each = gitchanges.Between(ctx, r.Root, r.Base, r.Head)
		rev = r.Head + ":"
		ignoreRev = r.Base + ":"
	}
	lines := map[string][]committed.LineRange{}
	var files []string
	err := each(func(h gitchanges.Hunk) error {
		if h.Binary || h.File == "" || strings.ContainsAny(h.File, "\n") {
			return nil
		}
		n := len(h.Lines())
		if n == 0 {
			return nil
		}
		if _, seen := lines[h.File]; !seen {
			files = append(files, h.File)
		}
		lines[h.File] = append(lines[h.File], committed.LineRange{First: h.Line, Last: h.Line + n - 1})
		return nil
	})
	if err != nil {
		return nil, err
	}
	// A file whose name tells nothing may still be a script (its
	// shebang): every changed file is read, in one process.
	names := make([]string, 0, len(files)+1)
	for _, f := range files {
		names = append(names, rev+f)
	}
	names = append(names, ignoreRev+committed.IgnoreFile)
	blobs, err := readBlobs(ctx, r.Root, names)
	if err != nil {
		return nil, err
	}
	ig, err := committed.ParseIgnore(string(blobs[len(blobs)-1]))
	if err != nil {
		return nil, err
	}
	contents := map[string][]byte{}
	for i, f := range files {
		contents[f] = blobs[i]
	}
	return judge(r, files, contents, lines, ig), nil
}

// Tree judges every command of the files under paths (relative to dir or
// absolute), as they are on disk; .git, node_modules and vendor are
// skipped. The ignore file is read from root.
func Tree(r Request, dir string, paths []string) ([]committed.Finding, error) {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	var files []string
	contents := map[string][]byte{}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		err := filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				switch d.Name() {
				case ".git", "node_modules", "vendor":
					if path != p {
						return filepath.SkipDir
					}
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			rel := relTo(r.Root, path)
			var head []byte
			if committed.Detect(rel, nil) == "" {
				head = readHead(path)
				if committed.Detect(rel, head) == "" {
					return nil
				}
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files = append(files, rel)
			contents[rel] = data
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %v", p, errText(err))
		}
	}
	ig := committed.Ignore{}
	if data, err := os.ReadFile(filepath.Join(r.Root, committed.IgnoreFile)); err == nil {
		if ig, err = committed.ParseIgnore(string(data)); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cannot read %s: %v", committed.IgnoreFile, errText(err))
	}
	return judge(r, files, contents, nil, ig), nil
}

func judge(r Request, files []string, contents map[string][]byte, lines map[string][]committed.LineRange, ig committed.Ignore) []committed.Finding {
	sort.Strings(files)
	var cmds []committed.Command
	var out []committed.Finding
	for _, f := range files {
		cs, err := committed.Extract(f, contents[f])
		if err != nil {
			out = append(out, committed.Finding{File: f, Line: 1, Format: committed.Detect(f, contents[f]), Rule: policy.RuleBadInput,
				Action: policy.Deny, Reason: err.Error(), Instead: "fix the file's syntax so its commands can be read",
				Fingerprint: committed.Fingerprint(f, policy.RuleBadInput, "")})
			continue
		}
		cmds = append(cmds, cs...)
	}
	var remotes []string
	if repo, ok := gitrepo.Find(r.Root); ok {
		remotes = repo.ReadConfig().RemoteURLs()
	}
	out = append(out, committed.Judge(guard.New(r.Policy), cmds, committed.Options{Remotes: remotes, Lines: lines})...)
	return ig.Filter(out)
}

// readBlobs reads objects by name with one git cat-file --batch; a
// missing one reads as empty.
func readBlobs(ctx context.Context, dir string, names []string) ([][]byte, error) {
	run := gitx.Runner{Dir: dir, Stdin: strings.NewReader(strings.Join(names, "\n") + "\n")}
	out, err := run.OutputContext(ctx, "cat-file", "--batch")
	if err != nil {
		return nil, fmt.Errorf("cannot read the committed files: %v", err)
	}
	br := bufio.NewReader(bytes.NewReader(out))
	blobs := make([][]byte, len(names))
	for i := range names {
		header, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file: short output for %s", names[i])
		}
		f := strings.Fields(header)
		if len(f) == 2 && f[1] == "missing" {
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("git cat-file: bad header %q", strings.TrimSpace(header))
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("git cat-file: bad size in %q", strings.TrimSpace(header))
		}
		data := make([]byte, size+1)
		if _, err := io.ReadFull(br, data); err != nil {
			return nil, fmt.Errorf("git cat-file: short content for %s", names[i])
		}
		if f[1] == "blob" {
			blobs[i] = data[:size]
		}
	}
	return blobs, nil
}

func readHead(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, 128)
	n, _ := io.ReadFull(f, b)
	return b[:n]
}

func relTo(root, p string) string {
	if rel, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
