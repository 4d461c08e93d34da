package packs

import (
	"path"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/internal/httpreq"
	"github.com/swarm-guard/swarm-guard/policy"
)

// cicd (vendor pack): Jenkins (jenkins-cli.jar and its HTTP API), CircleCI
// and GitLab runners. Triggering builds and reading logs are safe;
// deleting jobs, nodes, views and credentials, contexts and their
// secrets, orbs and pipelines, and unregistering runners take away what
// every other branch's pipeline needs. (GitHub Actions' secrets,
// variables, workflows, runs and caches are always judged, by the forge
// rules: gh secret delete is the oversight rule's.)
var cicd = &Pack{
	Name:       "cicd",
	Vendor:     true,
	Programs:   []string{"java", "jenkins-cli", "circleci", "gitlab-runner"},
	ValueFlags: []string{"-s", "-auth", "-i", "-jar", "--token", "--host", "--org-id", "--org", "-o", "--config", "-c"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveService, Name: "ci-config-delete",
			Reason:  "deletes CI jobs, nodes, credentials, contexts, secrets, variables, orbs or pipelines, unregisters runners, or disables workflows",
			Instead: "read and list (circleci context list github my-org, gitlab-runner list); ask a human to change CI settings",
			Match: func(c Call) bool {
				switch c.Program {
				case "java", "jenkins-cli":
					if c.Program == "java" {
						jar, ok := c.Value("-jar")
						if !ok || !strings.HasPrefix(path.Base(jar), "jenkins-cli") {
							return false
						}
					}
					return c.AnyPos(0, func(w string) bool {
						switch w {
						case "delete-job", "delete-node", "delete-view", "delete-builds", "delete-credentials", "delete-credentials-domain",
							"disable-job", "clear-queue", "safe-shutdown", "shutdown":
							return true
						}
						return false
					})
				case "circleci":
					return deleteVerb(c.Pos(1)) || c.Sub("context", "remove-secret") || c.Sub("project", "secret", "delete")
				case "gitlab-runner":
					return c.Sub("unregister") || c.Sub("verify") && c.Has("--delete")
				}
				return false
			},
			Deny: []string{"java -jar jenkins-cli.jar -s http://jenkins.local/ delete-job deploy-prod", "java -jar jenkins-cli.jar -s http://jenkins.local/ delete-node agent-1",
				"java -jar /opt/jenkins-cli.jar -s http://jenkins.local/ delete-view prod-view", "circleci context delete github my-org prod",
				"circleci context remove-secret github my-org prod AWS_ACCESS_KEY_ID", "circleci orb delete my-org/my-orb", "gitlab-runner unregister --all-runners",
				"gitlab-runner unregister --name runner-prod"},
			Allow: []string{"java -jar jenkins-cli.jar -s http://jenkins.local/ build deploy-staging", "java -jar app.jar delete-job x", "circleci context list github my-org",
				"circleci config validate", "gitlab-runner list", "gitlab-runner verify"},
		},
		{
			ID: policy.RuleDestructiveService, Name: "ci-api-delete",
			Reason:  "deletes through a CI service's HTTP API: a Jenkins doDelete, or a DELETE to CircleCI",
			Instead: "read with GET requests (curl http://jenkins.local/job/deploy-prod/api/json); ask a human to delete",
			HTTP: func(r httpreq.Request) bool {
				if deleteTo("circleci.com")(r) {
					return true
				}
				return r.May("POST") && anyURL(r, func(u httpreq.URL) bool {
					last := lastSegment(u)
					return last == "dodelete" || last == "dowipeoutworkspace" || last == "doDelete"
				})
			},
			Deny: []string{"curl -X POST http://jenkins.local/job/deploy-prod/doDelete", "curl -X POST http://jenkins.local/credentials/store/system/domain/_/credential/old-token/doDelete",
				"curl -X DELETE https://circleci.com/api/v2/context/ctx-123", "wget --method=POST http://jenkins.local/job/app/doWipeOutWorkspace"},
			Allow: []string{"curl http://jenkins.local/job/deploy-prod/api/json", "curl -X POST http://jenkins.local/job/deploy-staging/build",
				"curl https://circleci.com/api/v2/pipeline?org-slug=gh/my-org"},
		},
	},
}
