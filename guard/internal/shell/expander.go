package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

// Expander expands words the way the shell would, as far as that can be
// known before the command runs: quoting, parameters with known values,
// ~, braces, ${x#pattern} and friends, $IFS splitting, and the output of
// the few command substitutions whose output is known ($(pwd),
// $(mktemp), $(dirname ...)). Anything else becomes a dynamic Word.
type Expander struct {
	Env   Env
	Tools Tools
	// Src is the source of the script being walked: a Word's Src is its
	// text as written there.
	Src string
}

// Env is what expansion knows of the world the command starts in.
type Env struct {
	Home  string            // $HOME and ~
	Cwd   string            // the agent's working directory
	Root  string            // the worktree root
	Temp  string            // the temporary directory when $TMPDIR is unset
	Vars  map[string]string // the agent's environment variables known to be set
	Unset map[string]bool   // variables known to be unset
	// Resolve resolves symlinks in an absolute path (nil: paths are
	// taken as they are). The adapter provides it; it is the only way
	// the shell layer learns about the file system.
	Resolve func(path string) string
}

// Tools is what expansion asks of the tool families (package guard):
// where secret text comes from, and the output of command substitutions
// only they can know.
type Tools interface {
	// SecretSource says where secret text printed by stmts comes from
	// (nil for none).
	SecretSource(stmts []*syntax.Stmt, st *State) *effect.Source
	// VarSecret says whether $name holds a secret, and from where.
	VarSecret(name string, st *State) *effect.Source
	// KnownOutput is the output of a command whose output the tools know.
	KnownOutput(s *syntax.Stmt, st *State) (string, bool)
	// PromptString judges a string expanded like a prompt (${x@P}): its
	// $(...) runs.
	PromptString(inv *Invocation, v Word, st *State)
}

// CleanJoin is p resolved against dir, cleaned.
func CleanJoin(dir, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Clean(dir + "/" + p)
}

// UnderRoot reports whether p is inside root (the root itself counts).
func UnderRoot(p, root string) bool {
	if root == "" {
		return false
	}
	return p == root || root == "/" || strings.HasPrefix(p, root+"/")
}
