package rules

import "github.com/swarm-guard/swarm-guard/policy"

// ForcePush (G1): a push that is not a fast-forward replaces the remote's
// history, and other agents may have fetched and built on it.
//
// Instead leads to a push that needs no force: a merge keeps every pushed
// commit, and replays nobody else's commit under this agent's name (pull
// --rebase after a rebase would).
var ForcePush = Rule{
	ID:      policy.RuleForcePush,
	Reason:  "a force push rewrites history that other agents may have built on",
	Instead: "push without force. If git rejects the push as not a fast-forward because you rebased or amended commits you had already pushed, go back to the pushed ones and merge instead: git fetch origin && git reset --keep origin/<your-branch> && git merge origin/main, then git push",
	Deny: []string{
		"git push -f",
		"git push origin +feature",
		"git push --mirror",
		"git -c remote.origin.mirror=true push",
		"git push --mirr",
		"git push --force-with-lease",
	},
	Allow: []string{
		"git push",
		"git push -u origin agent-1",
		"git push --dry-run -f",
	},
}
