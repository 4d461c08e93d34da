package hookenv

import (
	"github.com/swarm-guard/swarm-guard/hooks/gitrepo"
	"github.com/swarm-guard/swarm-guard/policy"
)

// RepoPolicy is the prologue of the commands and git hooks that work on
// the repository around a directory: the git worktree around dir (nil
// outside one), the root the policy is read from (the worktree's, else
// outside) and that policy. outside is "" where a directory outside a
// repository gets the default policy (id, scan, the git hooks), or the
// directory itself where its own .swarm-guard.toml applies as it does for
// the hook (run, budget). Each caller words a broken policy for its own
// output.
func RepoPolicy(dir, outside string) (repo *gitrepo.Repo, root string, pol *policy.Policy, err error) {
	root = outside
	if r, ok := gitrepo.Find(dir); ok {
		repo, root = r, r.Root
	}
	pol, err = policy.Load(root)
	return repo, root, pol, err
}
