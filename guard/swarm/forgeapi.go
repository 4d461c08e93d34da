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

// ForgeAPIAction says what a call to a GitHub or GitLab REST or GraphQL
// endpoint does that oversight reserves for humans (merging, approving,
// deleting, settings, statuses, writing refs), as the forge effect the
// oversight rule judges: the same operation as gh pr merge, gh pr review
// --approve or gh issue close when it is one (Op ForgeMerge,
// ForgeApprove, ForgeState), else ForgeAdmin. ok is false for reads and
// the agent's normal work. method is upper case; endpoint a path such as
// "repos/o/r/pulls/3/merge" (a leading https://api.github.com, /api/v3/
// or /api/v4/ is dropped) or "graphql"; body the fields or request body
// text. The caller fills By and Args; the gh api, hub api, glab api and
// curl/wget/httpie judges share it.
func ForgeAPIAction(method, endpoint, body string) (fa effect.ForgeAction, ok bool) {
	fa = forgeAPI(method, endpoint, body)
	return fa, fa.Does != 0
}

func forgeAPI(method, endpoint, body string) effect.ForgeAction {
	type fa = effect.ForgeAction
	admin := effect.ForgeAdmin
	ep := strings.TrimPrefix(strings.TrimPrefix(endpoint, "https://api.github.com"), "/")
	for _, prefix := range []string{"/api/v4/", "/api/v3/"} {
		if i := strings.Index(ep, prefix); i >= 0 {
			ep = ep[i+len(prefix):]
		}
	}
	ep = strings.TrimPrefix(strings.TrimPrefix(ep, "api/v4/"), "api/v3/")
	if ep == "graphql" && strings.Contains(body, UnreadBody) {
		return fa{Op: admin, Does: effect.SendsUnreadQuery}
	}
	if method == "GET" || method == "HEAD" {
		if ep == "graphql" && graphqlMutation().MatchString(body) {
			return fa{Op: admin, Does: effect.RunsReadMutation}
		}
		return fa{}
	}
	if ep == "graphql" {
		if m := graphqlMutation().FindString(body); m != "" {
			a := fa{Op: admin, Does: effect.RunsMutation, Subject: m}
			switch strings.ToLower(m) {
			case "mergepullrequest", "mergebranch":
				a.Op = effect.ForgeMerge
			case "closepullrequest", "reopenpullrequest":
				a.Op = effect.ForgeState
			case "closeissue", "reopenissue":
				a.Op, a.Issue = effect.ForgeState, true
			}
			return a
		}
		if (strings.Contains(body, "addPullRequestReview") || strings.Contains(body, "submitPullRequestReview")) && approveEvent().MatchString(body) {
			return fa{Op: effect.ForgeApprove, Does: effect.ApprovesPullRequest}
		}
		return fa{}
	}
	switch {
	case method == "DELETE":
		return fa{Op: admin, Does: effect.Deletes}
	case strings.HasSuffix(ep, "/merge") || strings.Contains(ep, "/merge_requests/") && strings.HasSuffix(ep, "/merge"):
		return fa{Op: effect.ForgeMerge, Does: effect.MergesPullRequest}
	case strings.HasSuffix(ep, "/merges") && method != "GET":
		// POST repos/o/r/merges merges head into base on the server, no
		// pull request at all: base may be main.
		return fa{Op: effect.ForgeMerge, Does: effect.MergesBranch}
	case strings.Contains(ep, "/reviews") && approveEvent().MatchString(body), strings.HasSuffix(ep, "/approve"):
		return fa{Op: effect.ForgeApprove, Does: effect.ApprovesPullRequest}
	case strings.Contains(ep, "/git/refs") || strings.Contains(ep, "/git/ref/"):
		return fa{Op: admin, Does: effect.MovesRef}
	case strings.Contains(ep, "/protection") || strings.Contains(ep, "/rulesets") || strings.Contains(ep, "/environments") ||
		strings.Contains(ep, "/secrets") || strings.Contains(ep, "/variables") || strings.Contains(ep, "/collaborators") ||
		strings.Contains(ep, "/hooks") || strings.Contains(ep, "/keys"):
		return fa{Op: admin, Does: effect.ChangesSettings}
	case (method == "PATCH" || method == "PUT") && strings.Count(strings.Trim(ep, "/"), "/") == 2 && strings.HasPrefix(ep, "repos/"):
		return fa{Op: admin, Does: effect.ChangesSettings}
	case strings.Contains(ep, "/statuses/") || strings.HasSuffix(ep, "/check-runs") || strings.Contains(ep, "/check-runs/") ||
		strings.HasSuffix(ep, "/check-suites") || strings.Contains(ep, "/statuses") && strings.Contains(ep, "/commits/"):
		return fa{Op: admin, Does: effect.SetsStatus}
	case strings.HasSuffix(ep, "/releases") || strings.Contains(ep, "/releases/"):
		return fa{Op: admin, Does: effect.PublishesRelease}
	case (method == "PATCH" || method == "PUT") && strings.Contains(ep, "/pulls/") && (strings.Contains(body, "closed") || strings.Contains(body, "state=") || strings.Contains(body, `"state"`)):
		return fa{Op: effect.ForgeState, Does: effect.ClosesPullRequest}
	case (method == "PATCH" || method == "PUT") && strings.Contains(ep, "/issues/") && (strings.Contains(body, "closed") || strings.Contains(body, "state=") || strings.Contains(body, `"state"`) || strings.Contains(body, "state_event")):
		return fa{Op: effect.ForgeState, Does: effect.ClosesIssue, Issue: true}
	case strings.Contains(ep, "/contents/") && (method == "PUT" || method == "POST"):
		return fa{Op: admin, Does: effect.CommitsFile}
	}
	return fa{}
}
