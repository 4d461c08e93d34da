package swarm

import (
	"regexp"
	"strings"
	"sync"
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
// The gh api, hub api, glab api, curl/wget/httpie and MCP judges share it.
func ForgeAPIWrite(method, endpoint, body string) string {
	ep := strings.TrimPrefix(strings.TrimPrefix(endpoint, "https://api.github.com"), "/")
	for _, prefix := range []string{"/api/v4/", "/api/v3/"} {
		if i := strings.Index(ep, prefix); i >= 0 {
			ep = ep[i+len(prefix):]
		}
	}
	ep = strings.TrimPrefix(strings.TrimPrefix(ep, "api/v4/"), "api/v3/")
	if ep == "graphql" && strings.Contains(body, UnreadBody) {
		return "sends a GraphQL document the guard cannot read (from a file or stdin), which may merge or delete; pass the query inline with -f query='...'"
	}
	if method == "GET" || method == "HEAD" {
		if ep == "graphql" && graphqlMutation().MatchString(body) {
			return "runs a GraphQL mutation that merges, deletes or changes settings"
		}
		return ""
	}
	if ep == "graphql" {
		if m := graphqlMutation().FindString(body); m != "" {
			return "runs the GraphQL mutation " + m
		}
		if (strings.Contains(body, "addPullRequestReview") || strings.Contains(body, "submitPullRequestReview")) && approveEvent().MatchString(body) {
			return "approves a pull request"
		}
		return ""
	}
	switch {
	case method == "DELETE":
		return "deletes"
	case strings.HasSuffix(ep, "/merge") || strings.Contains(ep, "/merge_requests/") && strings.HasSuffix(ep, "/merge"):
		return "merges a pull request"
	case strings.Contains(ep, "/reviews") && approveEvent().MatchString(body), strings.HasSuffix(ep, "/approve"):
		return "approves a pull request"
	case strings.Contains(ep, "/git/refs") || strings.Contains(ep, "/git/ref/"):
		return "moves or deletes a branch or tag"
	case strings.Contains(ep, "/protection") || strings.Contains(ep, "/rulesets") || strings.Contains(ep, "/environments") ||
		strings.Contains(ep, "/secrets") || strings.Contains(ep, "/variables") || strings.Contains(ep, "/collaborators") ||
		strings.Contains(ep, "/hooks") || strings.Contains(ep, "/keys"):
		return "changes the repository's settings"
	case (method == "PATCH" || method == "PUT") && strings.Count(strings.Trim(ep, "/"), "/") == 2 && strings.HasPrefix(ep, "repos/"):
		return "changes the repository's settings"
	case strings.Contains(ep, "/statuses/") || strings.HasSuffix(ep, "/check-runs") || strings.Contains(ep, "/check-runs/") ||
		strings.HasSuffix(ep, "/check-suites") || strings.Contains(ep, "/statuses") && strings.Contains(ep, "/commits/"):
		return "sets a commit status or check result, which only CI may report"
	case strings.HasSuffix(ep, "/releases") || strings.Contains(ep, "/releases/"):
		return "publishes or changes a release"
	case (method == "PATCH" || method == "PUT") && strings.Contains(ep, "/pulls/") && (strings.Contains(body, "closed") || strings.Contains(body, "state=") || strings.Contains(body, `"state"`)):
		return "closes or reopens a pull request that may be another agent's"
	case (method == "PATCH" || method == "PUT") && strings.Contains(ep, "/issues/") && (strings.Contains(body, "closed") || strings.Contains(body, "state=") || strings.Contains(body, `"state"`) || strings.Contains(body, "state_event")):
		return "closes or reopens an issue that may be another agent's or a human's"
	case strings.Contains(ep, "/contents/") && (method == "PUT" || method == "POST"):
		return "commits a file straight onto a branch, past pushes and pull requests"
	}
	return ""
}
