package gitrepo

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// Repo is a git worktree found on disk.
type Repo struct {
	Root      string // the worktree's top-level directory
	GitDir    string // its git dir: Root/.git, or <common>/worktrees/<name>
	CommonDir string // the repository's shared git dir
	Branch    string // checked-out branch; "" when detached
	Detached  bool   // HEAD points at a commit, not a branch
}

// Find returns the worktree containing dir, walking up to the file-system
// root. The directory need not exist (a deleted cwd still belongs to its repo).
func Find(dir string) (*Repo, bool) {
	dir = filepath.Clean(dir)
	for {
		dotgit := filepath.Join(dir, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			var gitDir string
			if fi.IsDir() {
				gitDir = dotgit
			} else if gd, ok := readGitFile(dotgit); ok {
				gitDir = gd
			}
			if gitDir != "" {
				return open(dir, gitDir), true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, false
		}
		dir = parent
	}
}

// readGitFile reads the "gitdir: <path>" file of a linked worktree or submodule.
func readGitFile(path string) (string, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	gd, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", false
	}
	gd = strings.TrimSpace(gd)
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(filepath.Dir(path), gd)
	}
	return filepath.Clean(gd), true
}

func open(root, gitDir string) *Repo {
	r := &Repo{Root: root, GitDir: gitDir, CommonDir: gitDir}
	if data, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		cd := strings.TrimSpace(string(data))
		if !filepath.IsAbs(cd) {
			cd = filepath.Join(gitDir, cd)
		}
		r.CommonDir = filepath.Clean(cd)
	}
	if head, err := os.ReadFile(filepath.Join(gitDir, "HEAD")); err == nil {
		h := strings.TrimSpace(string(head))
		if ref, ok := strings.CutPrefix(h, "ref:"); ok {
			r.Branch = strings.TrimPrefix(strings.TrimSpace(ref), "refs/heads/")
		} else if h != "" {
			r.Detached = true
		}
	}
	return r
}

// HasBranch reports whether the repository has a local branch name.
func (r *Repo) HasBranch(name string) bool {
	if name == "" || strings.Contains(name, "..") {
		return false
	}
	if _, err := os.Stat(filepath.Join(r.CommonDir, "refs", "heads", filepath.FromSlash(name))); err == nil {
		return true
	}
	data, err := os.ReadFile(filepath.Join(r.CommonDir, "packed-refs"))
	if err != nil {
		return false
	}
	return bytes.Contains(data, []byte(" refs/heads/"+name+"\n"))
}

// HooksDir returns the directory git runs hooks from: core.hooksPath when
// set (relative values are relative to the worktree root), else
// <common dir>/hooks.
func (r *Repo) HooksDir() string { return r.HooksDirIn(r.ReadConfig()) }

// HooksDirIn is HooksDir with the repository's config already read
// (ReadConfig), so a caller asking several questions reads it once.
func (r *Repo) HooksDirIn(c *Config) string {
	if hp := c.Value("core", "hookspath"); hp != "" {
		if strings.HasPrefix(hp, "~/") {
			if home, err := os.UserHomeDir(); err == nil {
				hp = filepath.Join(home, hp[2:])
			}
		}
		if !filepath.IsAbs(hp) {
			hp = filepath.Join(r.Root, hp)
		}
		return filepath.Clean(hp)
	}
	return filepath.Join(r.CommonDir, "hooks")
}

// ConfigValue reads a key from the repository's config files (the
// worktree's config.worktree first). Section and key are matched
// case-insensitively; subsections are not supported.
func (r *Repo) ConfigValue(section, key string) string {
	return r.ReadConfig().Value(section, key)
}

// Config is the repository's config files as read once by ReadConfig:
// the worktree's config.worktree, then the shared config (nil when a file
// cannot be read).
type Config struct {
	files [2][]byte
}

// ReadConfig reads the repository's config files now. The result does not
// follow later changes to them: use it for the questions of one moment.
func (r *Repo) ReadConfig() *Config {
	c := &Config{}
	for i, f := range []string{filepath.Join(r.GitDir, "config.worktree"), filepath.Join(r.CommonDir, "config")} {
		if data, err := os.ReadFile(f); err == nil {
			c.files[i] = data
		}
	}
	return c
}

// Value answers as ConfigValue does, from what ReadConfig read.
func (c *Config) Value(section, key string) string {
	for _, data := range c.files {
		if data == nil {
			continue
		}
		if v, ok := iniValue(data, section, key); ok {
			return v
		}
	}
	return ""
}

// RemoteURLs returns every url and pushurl of every [remote "<name>"]
// section, in file order (config.worktree first): the addresses pushes
// go to.
func (c *Config) RemoteURLs() []string {
	var out []string
	for _, data := range c.files {
		iniEach(data, func(section, key, value string) {
			if strings.HasPrefix(section, "remote ") && (strings.EqualFold(key, "url") || strings.EqualFold(key, "pushurl")) {
				out = append(out, value)
			}
		})
	}
	return out
}

func iniValue(data []byte, section, key string) (string, bool) {
	section = strings.ToLower(section)
	val, found := "", false
	iniEach(data, func(sec, k, v string) {
		if sec == section && strings.EqualFold(k, key) {
			val, found = v, true // the last value wins, as in git
		}
	})
	return val, found
}

// iniEach calls f for every key = value line of a git config file, with
// its section lowercased as written in brackets ("remote \"origin\""), the
// key trimmed and the value trimmed and unquoted. Comments and blank lines
// are skipped.
func iniEach(data []byte, f func(section, key, value string)) {
	cur := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			cur = strings.ToLower(strings.TrimSpace(strings.Trim(line, "[]")))
			continue
		}
		k, v, _ := strings.Cut(line, "=")
		f(cur, strings.TrimSpace(k), strings.Trim(strings.TrimSpace(v), `"`))
	}
}

// OtherWorktrees returns the roots of the repository's other worktrees: the
// main worktree and every linked one except r itself.
func (r *Repo) OtherWorktrees() []string {
	var out []string
	if filepath.Base(r.CommonDir) == ".git" {
		if main := filepath.Dir(r.CommonDir); main != r.Root {
			out = append(out, main)
		}
	}
	entries, err := os.ReadDir(filepath.Join(r.CommonDir, "worktrees"))
	if err != nil {
		return out
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(r.CommonDir, "worktrees", e.Name(), "gitdir"))
		if err != nil {
			continue
		}
		dotgit := strings.TrimSpace(string(data))
		if !filepath.IsAbs(dotgit) {
			dotgit = filepath.Join(r.CommonDir, "worktrees", e.Name(), dotgit)
		}
		if root := filepath.Dir(filepath.Clean(dotgit)); root != r.Root {
			out = append(out, root)
		}
	}
	return out
}
