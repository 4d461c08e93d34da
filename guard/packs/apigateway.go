package packs

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/internal/httpreq"
	"github.com/swarm-guard/swarm-guard/policy"
)

// apigateway (vendor pack): Kong (decK and the Admin API) and Apigee
// (apigeecli and its API). Diffing and validating configuration are safe;
// resetting a gateway, syncing it to a file (which deletes every entity
// the file lacks) and deleting services, routes, consumers, plugins, API
// proxies and keys cut off every client of the APIs behind it. (aws
// apigateway delete-* is the cloud pack's.)
var apigateway = &Pack{
	Name:       "apigateway",
	Vendor:     true,
	Programs:   []string{"deck", "apigeecli"},
	ValueFlags: []string{"--kong-addr", "--headers", "-s", "--state", "--select-tag", "-o", "--org", "-t", "--token", "-e", "--env", "-n", "--name"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveService, Name: "gateway-cli-delete",
			Reason:  "resets or overwrites a gateway's configuration, or deletes its services, proxies, products, apps or keys",
			Instead: "compare and check first (deck gateway diff kong.yaml, deck gateway validate kong.yaml, apigeecli apis list -o my-org); ask a human to apply",
			Match: func(c Call) bool {
				switch c.Program {
				case "deck":
					if c.Has("--dry-run") {
						return false
					}
					return c.Sub("reset") || c.Sub("gateway", "reset") || c.Sub("sync") || c.Sub("gateway", "sync")
				case "apigeecli":
					return deleteVerb(c.Pos(1)) || deleteVerb(c.Pos(2)) || posIn(c, 1, "undeploy")
				}
				return false
			},
			Deny: []string{"deck gateway reset --force", "deck reset", "deck gateway sync kong.yaml", "deck sync -s kong.yaml",
				"apigeecli apis delete -n orders-api -o my-org", "apigeecli apis undeploy -n orders-api -e prod -o my-org", "apigeecli developers delete -n dev@example.com -o my-org"},
			Allow: []string{"deck gateway diff kong.yaml", "deck gateway validate kong.yaml", "deck gateway dump -o current.yaml", "deck gateway sync --dry-run kong.yaml",
				"apigeecli apis list -o my-org", "apigeecli apis get -n orders-api -o my-org"},
		},
		{
			ID: policy.RuleDestructiveService, Name: "gateway-api-delete",
			Reason:  "sends a DELETE to a gateway's admin API (Kong's on port 8001, Apigee's)",
			Instead: "read with GET requests (curl http://localhost:8001/services); ask a human to delete",
			HTTP: func(r httpreq.Request) bool {
				if deleteTo("apigee.googleapis.com", "api.enterprise.apigee.com")(r) {
					return true
				}
				return r.May("DELETE") && anyURL(r, func(u httpreq.URL) bool {
					return u.Port == "8001" || u.Port == "8444" || strings.Contains(u.Host, "kong")
				})
			},
			Deny: []string{"curl -X DELETE http://localhost:8001/services/orders", "curl -X DELETE http://kong-admin:8001/routes/r1",
				"http DELETE :8001/consumers/alice", "curl -X DELETE https://apigee.googleapis.com/v1/organizations/my-org/apis/orders-api"},
			Allow: []string{"curl http://localhost:8001/services", "curl -X POST http://localhost:8001/services -d name=orders -d url=http://orders:8080",
				"curl https://apigee.googleapis.com/v1/organizations/my-org/apis"},
		},
	},
}
