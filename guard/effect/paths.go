package effect

// The file family: paths an invocation deletes, writes or reads, whoever
// does it (rm, cp, a redirect, sed -i, the Write and Read tools, an MCP
// server's path argument). The tool code resolves each operand once
// (against every working directory it may run in, following symlinks it
// knows) and says where the result lies; the rules decide from that.

// PlaceKind is where a path lies for the agent.
type PlaceKind int

const (
	Unplaced PlaceKind = iota // not looked up: the rules judging this effect do not need it (reads)
	Inside                    // in the agent's own worktree
	Writable                  // outside it, where the policy lets agents write ([paths] writable: the temp dir)
	Sink                      // a device that swallows or passes data through (/dev/null, /dev/stdout)
	Outside                   // anywhere else: home, the system, git directories, other checkouts
)

// Place is where the tool code found a path to lie: the kind, and for a
// place outside the worktree which outside and the directories that make
// it so. The rules write the words (package guard/rules, placeWords).
type Place struct {
	Kind PlaceKind
	// Where says which outside, when Kind is Outside.
	Where Where
	// Path is the path placed: the operand itself, or for a pattern placed
	// by the directory it expands in (Pattern set), that directory.
	Path string
	// Dir is the directory that makes the place what it is: the agent's
	// worktree root (Elsewhere), the repository's git directory (GitDir; ""
	// when only known to be one of them), another agent's worktree or
	// another checkout of the repository (OtherWorktree), the git
	// directory or worktree a pattern can match (CanMatch).
	Dir string
	// Pattern is the glob as written when the place is that of the
	// directory it expands in (Path), "" for a plain path.
	Pattern string
}

// Where tells the places outside the worktree apart.
type Where int

const (
	Elsewhere     Where = iota // home, the system, anywhere not below: outside the worktree Dir
	OtherMachine               // a path on another machine (ssh, rsync host:)
	GitDir                     // inside the repository's git directory Dir
	OtherWorktree              // inside another agent's worktree or another checkout, Dir
	WorktreeRoot               // the agent's worktree root itself
	CanMatch                   // Pattern can match the git directory or worktree Dir
)

// Foreign reports whether the place is another agent's worktree or
// another checkout of the repository (rule foreign-worktree's).
func (p Place) Foreign() bool { return p.Kind == Outside && p.Where == OtherWorktree }

// Target is one path operand as an invocation uses it.
type Target struct {
	Tool  string // the program or tool that acts, as reasons name it: "rm", "find", "Write"
	Path  string // absolute and cleaned, symlinks of its directory resolved; a pattern when Glob
	Shown string // the operand as written (`$d/x`), for paths not resolved here
	Glob  bool   // Path is a shell or find pattern
	// Dynamic: the operand (or the directory it is relative to) is only
	// known at run time; Path is "" unless some resolution is known.
	Dynamic bool
	Remote  bool // the path is on another machine (ssh host rm, rsync to host:)
	Place   Place
	// Protected is the guard configuration the operation reaches (Path
	// itself, or for recursive ones something below it), or "".
	Protected string
	// Secret is the secret file ([secret_files]) Path is, or, for a
	// pattern, a secret file it can match; "" when none.
	Secret string
}

// Delete removes Path (a move's source counts: it disappears from there).
type Delete struct {
	Target
	// Verb is what the tool does, as reasons say it, when not Tool +
	// " deletes": "python code moves away", "find -delete with -name .git
	// can delete".
	Verb      string
	Recursive bool
	// Contains is a git directory or another agent's worktree below Path
	// that a recursive delete of Path reaches, when Path itself is inside.
	Contains string
}

func (Delete) isEffect() {}

// Write creates or changes Path: its contents, its mode or owner, a link.
type Write struct {
	Target
	Verb string // what the tool does, as reasons say it: "tee writes", "sed -i edits", "writing"
	// Recursive: the change reaches everything below Path (chmod -R).
	Recursive bool
	// Contains is a git directory or another agent's worktree below Path
	// that a recursive change reaches.
	Contains string
	// Anywhere: where it writes comes from the data, not the command
	// (tar -P extracts members to the absolute paths stored in them).
	Anywhere bool
}

func (Write) isEffect() {}

// Read reads Path's contents; for the file tools, also a search (Grep) or
// a listing (Glob, LS) of it.
type Read struct {
	Target
	Verb string // what the tool does, as reasons say it: "cat reads", "Read of"
	// OtherEnviron: Path is /proc/<pid>/environ of a process only known at
	// run time (/proc/$PPID/environ); Shown spells it.
	OtherEnviron bool
	// Tree: everything below Path is read (tar, zip -r, cp -r); Secret is
	// then Path when it is a directory of secrets (~/.ssh, ~/.aws).
	Tree bool
}

func (Read) isEffect() {}

// WorkIn changes the working tree of the directory it runs in: a git
// commit, checkout, stash … there (git -C, cd, --work-tree), or the
// agent's session moving there (EnterWorktree).
type WorkIn struct {
	Tool string    // "git commit", "EnterWorktree"
	Dirs []WorkDir // every directory it may run in, one per possible working directory
	// Dynamic: the directory is only known at run time (Dirs are the
	// ones it may be, as far as known).
	Dynamic bool
	// Session: the agent's session itself moves to Dirs (EnterWorktree),
	// rather than one command running there.
	Session bool
}

// WorkDir is one directory a WorkIn may run in.
type WorkDir struct {
	Path string // absolute and cleaned
	// Checkout is the root of another checkout (clone) of the repository
	// Path lies in, when Path is not in the agent's worktree, or "".
	Checkout string
}

func (WorkIn) isEffect() {}

// PruneWorktrees drops the records of every worktree of the repository
// whose directory is missing right now (git worktree prune), other
// agents' included.
type PruneWorktrees struct{}

func (PruneWorktrees) isEffect() {}

// Search reads the files below a directory whose names match a glob,
// looking for a pattern (the Grep tool, grep -r --include, rg -g), or
// lists names matching a pattern there (the Glob tool).
type Search struct {
	Target             // Path: the directory searched, as given; Place: where it really lies
	Names       string // the file-name glob as written (Grep's glob, --include), or ""
	NamesSecret string // a secret file Names can match, or ""
	Pattern     string // what is looked for: Grep's regular expression, or Glob's name pattern
	Listing     bool   // lists names (Glob) rather than reading contents
}

func (Search) isEffect() {}
