package effect

// The forge family: operations on GitHub or GitLab that oversight may
// reserve for humans, however they are requested. gh pr merge 12, glab mr
// merge 4, hub merge, a PUT to …/pulls/12/merge with curl or gh api, and
// the GitHub MCP server's merge_pull_request all build a ForgeAction with
// Op ForgeMerge, so one judge (guard/rules/oversight.go) decides them all.

// ForgeOp is what a forge operation does, as oversight sees it.
type ForgeOp int

const (
	ForgeMerge     ForgeOp = iota + 1 // merges a pull request now
	ForgeApprove                      // approves a pull request
	ForgeAutoMerge                    // enables auto-merge: the forge merges once the required checks pass
	ForgeState                        // closes or reopens a pull request or an issue
	ForgeAdmin                        // deletes, publishes releases, changes settings or protection
	ForgeUnread                       // a subcommand or endpoint only known at run time: may be any of these
	ForgeBypass                       // merges past the branch protection and the required checks (gh pr merge --admin)
)

// ForgeAction is one operation on the forge.
type ForgeAction struct {
	Op ForgeOp
	// By names who asks, as a reason says it: "gh", "glab", "curl",
	// "MCP server github, tool merge_pull_request".
	By string
	// Does says what the call does in its tool's words, following By:
	// "pr merge merges a pull request", "api DELETE repos/o/r deletes".
	Does string
	// Target is the pull request a ForgeAutoMerge names (a number, a
	// branch, a URL); "" for the current branch's.
	Target string
	// Own: Target is the agent's own pull request (none named, or one of
	// the agent's branches). A number or a URL may be anybody's.
	Own bool
	// Issue: a ForgeState on an issue rather than a pull request.
	Issue bool
	// MCP: requested through an MCP server's tool rather than a CLI or
	// an HTTP client (the alternatives name no shell commands then).
	MCP bool
	// Unread names what a ForgeUnread call leaves to run time, as the
	// alternative asks to write it: "the gh command", "the endpoint".
	Unread string
	// Instead, when set, is the safer form of the same tool the denial
	// offers (a preview deploy instead of a production one).
	Instead string
}

func (ForgeAction) isEffect() {}
