package effect

// The git family: what git commands do to refs and to work that is not
// committed. guard's git code builds these from a command line; the
// pre-push hook builds Push from the ref lines git hands it.

// Push asks a remote to change refs: git push, git send-pack, a
// remote.<name>.push refspec written to config (every later push uses it),
// or what git reports to the pre-push hook. A dry run is no Push.
type Push struct {
	Remote string // the remote's name or URL as written ("" for the default)

	// Options. A refspec's own force (+) is in Refspec.
	Force      bool // -f, --force: every ref is forced
	Lease      bool // --force-with-lease
	IfIncludes bool // --force-if-includes
	Mirror     bool // --mirror, or remote.<name>.mirror: the remote's refs become this repository's
	All        bool // --all, --branches: every local branch
	Prune      bool // --prune: remote refs with no local counterpart are deleted
	Tags       bool // --tags
	Delete     bool // -d, --delete: every refspec is a delete
	Matching   bool // push.default=matching and no refspec: every branch that exists on both sides
	Dynamic    bool // an option only known at run time (may be any of the above)

	// Refspecs as written; none means the current branch (Current).
	Refspecs []Refspec

	// The branches HEAD names where the push runs (one per directory the
	// command may run in), resolved only when the push sends HEAD or
	// names no refspec or uses --force-with-lease; CurrentUnknown when some
	// directory's branch cannot be told.
	Current        []Branch
	CurrentUnknown bool

	// Swarm: the push runs in the swarm's repository (or the guard cannot
	// tell), so branch ownership applies.
	Swarm bool

	// FromGit: the refs come from git (the pre-push hook), not from a
	// command line. Refspecs have no Text, and a refspec's Force means
	// the remote's commit is not an ancestor of the one pushed (git cannot
	// tell the hook whether -f or --force-with-lease was given).
	FromGit bool
}

// Refspec is one <src>:<dst> of a push, normalized: a delete has no Src,
// and a refspec without a destination pushes Src to the same name.
type Refspec struct {
	// Text is the refspec as written (leading + included), or how a
	// dynamic one appears on the command line; "" when git reported the
	// update (pre-push).
	Text     string
	Src, Dst string
	// Ref is the remote ref it writes as a full name (refs/heads/x,
	// refs/tags/v1), resolved the way git names the destination; ""
	// when it is a pattern, the current branch or ":".
	Ref string
	// CheckedOutBy is the other worktree that has Ref's branch checked
	// out, "" if none.
	CheckedOutBy string

	Force    bool // a leading +, or (pre-push) the remote's commit is not an ancestor of the pushed one
	Delete   bool // :dst, --delete, or (pre-push) a zero local object id
	Current  bool // HEAD or @ with no destination: the branch checked out (Push.Current)
	Matching bool // ":" alone: every branch that exists on both sides
	Dynamic  bool // only known at run time: may name any ref, and force
	Glob     bool // written with a glob character the shell may expand
}

// Branch is a branch a push sends because it is checked out.
type Branch struct {
	Name         string // the branch name ("" on a detached HEAD)
	Ref          string // the remote ref it writes (refs/heads/<name>, normally)
	CheckedOutBy string // another agent's worktree that has it checked out, "" if none
}

func (Push) isEffect() {}

// Discard: a git command throws away work that no push or reflog brings
// back (or the record that would): uncommitted changes, untracked files,
// stashes, unmerged commits, unreachable objects.
type Discard struct {
	Loss Loss
	// Command is the command as reasons name it ("git reset --hard",
	// "git checkout a.txt b.txt", "git gc --prune=now").
	Command string
	// Subject is what is lost where the reason names it: "x" for git
	// branch -D x, "the branch x" for git update-ref -d refs/heads/x, the
	// word only known at run time when Dynamic.
	Subject string
	// Dynamic: a word only known at run time may make the command
	// discard (git reset "$opt" may be --hard).
	Dynamic bool
}

// Loss is the kind of work a Discard throws away, and how.
type Loss int

const (
	LostFiles           Loss = iota // working-tree files overwritten from the index (checkout-index -f, read-tree -u, restore)
	LostToCommitted                 // working-tree files overwritten with committed versions (git checkout <paths>)
	LostOnSwitch                    // uncommitted changes dropped to switch branches (checkout -f, switch --discard-changes)
	LostReset                       // git reset --hard
	LostResetMerge                  // git reset --merge
	LostUntracked                   // git clean -f
	LostUntrackedAlways             // clean.requireForce=false: every git clean deletes
	LostStash                       // git stash drop
	LostStashes                     // git stash clear
	LostUnmerged                    // a branch deleted even if merged nowhere (branch -D, update-ref -d)
	LostOverwritten                 // an existing branch replaced by a rename or copy (branch -M, -C)
	LostHistory                     // every touched branch's history rewritten (filter-branch, filter-repo)
	LostReflog                      // reflog expire/delete
	LostUnreachableNow              // git gc --prune=now
	LostUnreachable                 // git prune
	LostSubmodules                  // git submodule deinit --force
	LostWorktree                    // every entry of the worktree deleted (rm -rf ./* at its root); Subject is the pattern
)

func (Discard) isEffect() {}

// BranchChange: a git command changes a local branch (a push is Push):
// moves, resets, deletes or renames it, commits onto it, or checks it
// out for work. Which rules object depends on whose branch it is:
// protected-branch for main, foreign-branch for another agent's.
type BranchChange struct {
	Op BranchOp
	// Branch is the branch as written (main, refs/heads/main), or how a
	// word only known at run time appears when Dynamic.
	Branch string
	// Current: for the ops on the checked-out branch (reset, rebase,
	// commit), the branches HEAD names where the command runs.
	Current []string
	Dynamic bool
	Delete  bool // update-ref -d, or a delete line of update-ref --stdin
	// Args is what reasons quote besides the branch: git branch -m/-c's
	// operands, git fetch's refspec, the subcommand that commits.
	Args string
	// CheckedOutBy is the other worktree that has Branch checked out,
	// "" if none.
	CheckedOutBy string
	// Home: the ops on the checked-out branch run in the agent's own
	// worktree (or the pre-commit hook's), where git switch -c can take
	// the work to a new branch; not in another worktree or git dir.
	Home bool
}

// BranchOp is the command that changes a local branch.
type BranchOp int

const (
	BranchDelete        BranchOp = iota // git branch -d/-D <branch>
	BranchRename                        // git branch -m/-M/-c/-C: Branch is each name involved
	BranchForce                         // git branch -f <branch>
	UpdateRef                           // git update-ref <ref> (Delete: -d)
	UpdateRefStdin                      // a line of git update-ref --stdin (Dynamic: stdin unknown)
	SymbolicRefHEAD                     // git symbolic-ref HEAD <ref>
	WorktreeAdd                         // git worktree add <path> <branch>: checks it out for work
	WorktreeAddForce                    // git worktree add --force <path> <branch>: even if checked out elsewhere
	WorktreeAddReset                    // git worktree add -B <branch>
	CheckoutReset                       // git checkout -B <branch>
	CheckoutCreate                      // git checkout -b/-B/--orphan <branch>: switches to it
	Checkout                            // git checkout <branch>
	CheckoutIgnoreOther                 // git checkout/switch --ignore-other-worktrees <branch>
	SwitchReset                         // git switch -C <branch>
	SwitchCreate                        // git switch -c/--orphan <branch>
	Switch                              // git switch <branch>
	ResetCurrent                        // git reset <commit>: moves the current branch
	RebaseBranch                        // git rebase <upstream> <branch>
	RebaseCurrent                       // git rebase: rewrites the current branch
	CommitCurrent                       // git commit/merge/am/cherry-pick/revert (Args): adds commits to the current branch
	FetchInto                           // git fetch <remote> <src>:<branch> by force or from this repository (Args: the refspec)
	MCPWrite                            // an MCP tool (Args: its name) pushes to or writes the branch on the forge (Delete: deletes it)
	MCPCheckout                         // an MCP tool checks the branch out
	MCPActOn                            // an MCP tool acts on the branch otherwise (runs its workflows, …)
	WorkflowRun                         // gh workflow run (Args: "workflow run <file>") runs a CI workflow on the branch; "" for the default branch (no --ref)
)

func (BranchChange) isEffect() {}

// GitConfig: a git config key is set (or unset) for good (git config) or
// for one command (git -c). Some keys change what later commands do:
// remote.<name>.mirror makes every push a mirror push, clean.requireForce
// false lets git clean delete without -f.
type GitConfig struct {
	Key     string // as written (case kept)
	Value   string
	Set     bool // a value is given (false: unset)
	Dynamic bool // the value is only known at run time
}

func (GitConfig) isEffect() {}

// RemoteURL is an address git will send this repository's commits to,
// named on the command line instead of through a configured remote: a
// push to a URL, a remote added or re-pointed (git remote add/set-url), or
// a config key that does the same (remote.<name>.url, pushurl,
// url.<base>.insteadOf). A new host for the code is where a secret
// committed by mistake, or the code itself, leaves the team.
type RemoteURL struct {
	By   string // as a reason names it: "git push", "git remote add", "git config remote.x.pushurl"
	URL  string // as written
	Host string // its host, lower case; "" for a local path
	Push bool   // the command pushes there now (else it points later pushes there)
	// Via: the host relays git's traffic to the remotes (a proxy, an ssh
	// jump host or proxy command) instead of receiving it as a remote.
	Via bool
	// First: the remote added is the repository's first (it has none, or
	// git init created it in the same call): setting up where a new
	// project lives, not moving an existing one's code elsewhere.
	First bool
}

func (RemoteURL) isEffect() {}
