package swarm

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

// Must-deny and must-allow examples of ForgeAPIAction: an action is an
// operation oversight reserves for humans.
func TestForgeAPIHumanOnly(t *testing.T) {
	for _, c := range []struct {
		method, endpoint, body string
		human                  bool
	}{
		{"DELETE", "repos/o/r/git/refs/heads/main", "", true},
		{"GET", "repos/o/r/git/refs/heads/main", "", false},
		{"PUT", "repos/o/r/pulls/3/merge", "", true},
		{"GET", "repos/o/r/pulls/3", "", false},
		{"POST", "repos/o/r/pulls/3/reviews", "event=APPROVE", true},
		{"POST", "repos/o/r/pulls/3/reviews", "event=COMMENT body=x", false},
		{"PUT", "repos/o/r/branches/main/protection", "", true},
		{"POST", "repos/o/r/pulls", "title=x head=agent-1 base=main", false},
		{"PATCH", "repos/o/r", "default_branch=x", true},
		{"POST", "repos/o/r/issues", "title=x", false},
		{"POST", "repos/o/r/statuses/abc", "state=success", true},
		{"POST", "repos/o/r/issues/3/comments", "body=x", false},
		{"PUT", "repos/o/r/contents/README.md", "message=x content=eA==", true},
		{"PATCH", "repos/o/r/pulls/3", "title=y", false},
		{"PATCH", "repos/o/r/pulls/3", "state=closed", true},
		{"POST", "https://api.github.com/repos/o/r/releases", "tag_name=v1", true},
		{"POST", "graphql", "query=mutation { mergePullRequest(input:{}) { x } }", true},
		{"POST", "graphql", "query=mutation { addComment(input:{}) { x } }", false},
		{"POST", "graphql", "query=" + UnreadBody, true},
		{"POST", "graphql", "query=query { viewer { login } }", false},
		{"PUT", "/api/v4/projects/1/merge_requests/2/merge", "", true},
		{"POST", "/api/v4/projects/1/merge_requests", "title=x", false},
		{"DELETE", "/api/v3/repos/o/r", "", true},
		{"GET", "/api/v3/repos/o/r", "", false},
	} {
		got, ok := ForgeAPIAction(c.method, c.endpoint, c.body)
		if ok != c.human || ok != (got.Does != 0) {
			t.Errorf("ForgeAPIAction(%s %s %q) = %+v, %v, want human-only %v", c.method, c.endpoint, c.body, got, ok, c.human)
		}
	}
}

// ForgeAPIAction names the operation an API call is, so the oversight
// rule judges it like the CLI command that does the same.
func TestForgeAPIAction(t *testing.T) {
	for _, c := range []struct {
		method, endpoint, body string
		op                     effect.ForgeOp
		issue                  bool
	}{
		{"PUT", "repos/o/r/pulls/3/merge", "", effect.ForgeMerge, false},
		{"PUT", "/api/v4/projects/1/merge_requests/2/merge", "", effect.ForgeMerge, false},
		{"POST", "repos/o/r/pulls/3/reviews", "event=APPROVE", effect.ForgeApprove, false},
		{"PATCH", "repos/o/r/pulls/3", "state=closed", effect.ForgeState, false},
		{"PATCH", "repos/o/r/issues/3", "state=closed", effect.ForgeState, true},
		{"POST", "graphql", "query=mutation { closeIssue(input:{}) { x } }", effect.ForgeState, true},
		{"POST", "graphql", "query=mutation { mergePullRequest(input:{}) { x } }", effect.ForgeMerge, false},
		{"POST", "graphql", "query=mutation { deleteRef(input:{}) { x } }", effect.ForgeAdmin, false},
		{"DELETE", "repos/o/r", "", effect.ForgeAdmin, false},
		{"PUT", "repos/o/r/branches/main/protection", "", effect.ForgeAdmin, false},
	} {
		fa, ok := ForgeAPIAction(c.method, c.endpoint, c.body)
		if !ok || fa.Op != c.op || fa.Issue != c.issue || fa.Does == 0 {
			t.Errorf("ForgeAPIAction(%s %s %q) = %+v, %v; want op %d issue %v", c.method, c.endpoint, c.body, fa, ok, c.op, c.issue)
		}
	}
	if _, ok := ForgeAPIAction("GET", "repos/o/r/pulls/3", ""); ok {
		t.Error("a read is an action")
	}
}
