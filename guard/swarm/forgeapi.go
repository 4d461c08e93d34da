package swarm

import (
	"regexp"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

// UnreadBody marks a request body the caller could not read (a file it has
// no access to, or stdin): a GraphQL document in it may be any mutation.
const UnreadBody = "\x00unread-body"

var (
	graphqlMutation = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(mergePullRequest|enablePullRequestAutoMerge|deleteRef|updateRef|updateRefs|deleteRepository|archiveRepository|updateRepository|closePullRequest|reopenPullRequest|createBranchProtectionRule|updateBranchProtectionRule|deleteBranchProtectionRule|deleteEnvironment|transferRepository|approve|dismissPullRequestReview|mergeBranch|deleteIssue|closeIssue|reopenIssue|createRef|enqueuePullRequest|createCommitOnBranch|revertPullRequest|deletePullRequestReview|transferIssue)\b`)
	})
	approveEvent = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)event\s*[:=]\s*"?APPROVE`) })
)

// ForgeAPIWrite says what a call to a GitHub or GitLab REST or GraphQL
// endpoint does that oversight reserves for humans (merging, approving,
// deleting, settings, statuses, writing refs), or "" for reads and the
// agent's normal work. method is upper case; endpoint a path such as
// "repos/o/r/pulls/3/merge" (a leading https://api.github.com, /api/v3/ or
// /api/v4/ is dropped) or "graphql"; body the fields or request body text.
func ForgeAPIWrite(method, endpoint, body string) string {
	what, _, _ := forgeAPI(method, endpoint, body)
	return what
}

// ForgeAPIAction is ForgeAPIWrite as the forge effect the oversight rule
// judges: the same operation as gh pr merge, gh pr review --approve or
// gh issue close when it is one (Op ForgeMerge, ForgeApprove, ForgeState),
// else ForgeAdmin. The caller fills By and may prefix Does; ok is false
// for reads and the agent's normal work. The gh api, hub api, glab api and
// curl/wget/httpie judges share it.
func ForgeAPIAction(method, endpoint, body string) (fa effect.ForgeAction, ok bool) {
	what, op, issue := forgeAPI(method, endpoint, body)
	return effect.ForgeAction{Op: op, Does: what, Issue: issue}, what != ""
}

func forgeAPI(method, endpoint, body string) (what string, op effect.ForgeOp, issue bool) {
	ep := strings.TrimPrefix(strings.TrimPrefix(endpoint, "https://api.github.com"), "/")
	for _, prefix := range []string{"/api/v4/", "/api/v3/"} {
		if i := strings.Index(ep, prefix); i >= 0 {
			ep = ep[i+len(prefix):]
		}
	}
	ep = strings.TrimPrefix(strings.TrimPrefix(ep, "api/v4/"), "api/v3/")
	admin := effect.ForgeAdmin
	if ep == "graphql" && strings.Contains(body, UnreadBody) {
		return "sends a GraphQL document the guard cannot read (from a file or stdin), which may merge or delete; pass the query inline with -f query='...'", admin, false
	}
	if method == "GET" || method == "HEAD" {
		if ep == "graphql" && graphqlMutation().MatchString(body) {
			return "runs a GraphQL mutation that merges, deletes or changes settings", admin, false
		}
		return "", 0, false
	}
	if ep == "graphql" {
		if m := graphqlMutation().FindString(body); m != "" {
			switch strings.ToLower(m) {
			case "mergepullrequest", "mergebranch":
				op = effect.ForgeMerge
			case "closepullrequest", "reopenpullrequest":
				op = effect.ForgeState
			case "closeissue", "reopenissue":
				op, issue = effect.ForgeState, true
			default:
				op = admin
			}
			return "runs the GraphQL mutation " + m, op, issue
		}
		if (strings.Contains(body, "addPullRequestReview") || strings.Contains(body, "submitPullRequestReview")) && approveEvent().MatchString(body) {
			return "approves a pull request", effect.ForgeApprove, false
		}
		return "", 0, false
	}
	switch {
	case method == "DELETE":
		return "deletes", admin, false
	case strings.HasSuffix(ep, "/merge") || strings.Contains(ep, "/merge_requests/") && strings.HasSuffix(ep, "/merge"):
		return "merges a pull request", effect.ForgeMerge, false
	case strings.HasSuffix(ep, "/merges") && method != "GET":
		// POST repos/o/r/merges merges head into base on the server, no
		// pull request at all: base may be main.
		return "merges a branch into another on the server", effect.ForgeMerge, false
	case strings.Contains(ep, "/reviews") && approveEvent().MatchString(body), strings.HasSuffix(ep, "/approve"):
		return "approves a pull request", effect.ForgeApprove, false
	case strings.Contains(ep, "/git/refs") || strings.Contains(ep, "/git/ref/"):
		return "moves or deletes a branch or tag", admin, false
	case strings.Contains(ep, "/protection") || strings.Contains(ep, "/rulesets") || strings.Contains(ep, "/environments") ||
		strings.Contains(ep, "/secrets") || strings.Contains(ep, "/variables") || strings.Contains(ep, "/collaborators") ||
		strings.Contains(ep, "/hooks") || strings.Contains(ep, "/keys"):
		return "changes the repository's settings", admin, false
	case (method == "PATCH" || method == "PUT") && strings.Count(strings.Trim(ep, "/"), "/") == 2 && strings.HasPrefix(ep, "repos/"):
		return "changes the repository's settings", admin, false
	case strings.Contains(ep, "/statuses/") || strings.HasSuffix(ep, "/check-runs") || strings.Contains(ep, "/check-runs/") ||
		strings.HasSuffix(ep, "/check-suites") || strings.Contains(ep, "/statuses") && strings.Contains(ep, "/commits/"):
		return "sets a commit status or check result, which only CI may report", admin, false
	case strings.HasSuffix(ep, "/releases") || strings.Contains(ep, "/releases/"):
		return "publishes or changes a release", admin, false
	case (method == "PATCH" || method == "PUT") && strings.Contains(ep, "/pulls/") && (strings.Contains(body, "closed") || strings.Contains(body, "state=") || strings.Contains(body, `"state"`)):
		return "closes or reopens a pull request that may be another agent's", effect.ForgeState, false
	case (method == "PATCH" || method == "PUT") && strings.Contains(ep, "/issues/") && (strings.Contains(body, "closed") || strings.Contains(body, "state=") || strings.Contains(body, `"state"`) || strings.Contains(body, "state_event")):
		return "closes or reopens an issue that may be another agent's or a human's", effect.ForgeState, true
	case strings.Contains(ep, "/contents/") && (method == "PUT" || method == "POST"):
		return "commits a file straight onto a branch, past pushes and pull requests", admin, false
	}
	return "", 0, false
}
