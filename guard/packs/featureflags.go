package packs

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/internal/httpreq"
	"github.com/swarm-guard/swarm-guard/policy"
)

// featureflags (vendor pack): LaunchDarkly (ldcli), Split (split),
// Unleash and Flipt. Listing, reading, creating and updating flags are
// safe; deleting or archiving flags, projects, environments, segments
// and workspaces, or killing a split, changes what every user of the
// product sees at once.
var featureflags = &Pack{
	Name:       "featureflags",
	Vendor:     true,
	Programs:   []string{"ldcli", "split", "unleash", "flipt"},
	ValueFlags: []string{"--project", "--environment", "--workspace", "--access-token", "--base-uri", "--output", "-o", "--namespace", "-n", "--config", "--address"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveService, Name: "flags-cli-delete",
			Reason:  "deletes or archives feature flags, projects, environments, segments or workspaces, or kills a split",
			Instead: "read with list and get (ldcli flags list, split splits list, flipt flag list); ask a human to delete flags",
			Match: func(c Call) bool {
				switch c.Program {
				case "ldcli":
					return deleteVerb(c.Pos(1)) || strings.EqualFold(c.Pos(1), "archive")
				case "split": // coreutils split takes files, not these nouns
					return posIn(c, 0, "splits", "environments", "segments", "traffic-types", "workspaces", "flags") &&
						(deleteVerb(c.Pos(1)) || posIn(c, 1, "kill"))
				case "unleash", "flipt":
					return deleteVerb(c.Pos(1)) || posIn(c, 1, "archive") || c.Sub("import") && c.Has("--drop")
				}
				return false
			},
			Deny: []string{"ldcli flags delete my-flag --project my-project", "ldcli flags archive my-flag --project my-project",
				"ldcli projects delete my-project", "ldcli environments delete staging --project my-project", "split splits delete my-split --workspace w",
				"split splits kill my-split --workspace w", "split environments delete staging", "flipt flag delete new-checkout", "flipt import --drop flags.yaml"},
			Allow: []string{"ldcli flags list --project my-project", "ldcli flags get my-flag", "ldcli flags update my-flag --name renamed", "ldcli --help",
				"split splits list", "split environments get production", "split -l 1000 big.csv part_", "split --help", "flipt flag list", "flipt export -o flags.yaml"},
		},
		{
			ID: policy.RuleDestructiveService, Name: "flags-api-delete",
			Reason:  "sends a DELETE to a feature-flag service's API (LaunchDarkly, Split, Unleash's admin API, Flipt's namespaces)",
			Instead: "read with GET requests (curl https://app.launchdarkly.com/api/v2/flags/my-project); ask a human to delete flags",
			HTTP: func(r httpreq.Request) bool {
				if deleteTo("app.launchdarkly.com", "api.split.io", "*.getunleash.io")(r) {
					return true
				}
				return r.May("DELETE") && anyURL(r, func(u httpreq.URL) bool {
					s := u.Segments()
					// Self-hosted Unleash (/api/admin/…) and Flipt (/api/v1/namespaces/…).
					return len(s) >= 3 && s[0] == "api" && (s[1] == "admin" || s[1] == "v1" && s[2] == "namespaces")
				})
			},
			Deny: []string{"curl -X DELETE https://app.launchdarkly.com/api/v2/flags/my-project/my-flag", "curl -X DELETE https://app.launchdarkly.com/api/v2/projects/my-project",
				"curl -X DELETE https://api.split.io/internal/api/v2/splits/ws/my-split", "curl -X DELETE http://unleash.internal:4242/api/admin/projects/default/features/new-ui",
				"curl -X DELETE http://flipt.internal:8080/api/v1/namespaces/default/flags/new-ui"},
			Allow: []string{"curl https://app.launchdarkly.com/api/v2/flags/my-project", "curl -X GET https://api.split.io/internal/api/v2/splits",
				"curl http://unleash.internal:4242/api/admin/projects/default/features", "curl -X PUT http://flipt.internal:8080/api/v1/namespaces/default/flags/new-ui -d '{}'"},
		},
	},
}
