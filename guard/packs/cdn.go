package packs

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/internal/httpreq"
	"github.com/swarm-guard/swarm-guard/policy"
)

// cdn (vendor pack): Fastly and Cloudflare (Workers and their stores, the
// cache). Deploying a preview, tailing logs and purging one URL are safe;
// deleting services, workers, KV namespaces, R2 buckets, D1 databases and
// queues, and purging a whole cache, take a site down or send every
// request to its origin at once. (A production deploy with wrangler is
// judged with the other deploy CLIs, not here; CloudFront is the cloud
// pack's.)
var cdn = &Pack{
	Name:       "cdn",
	Vendor:     true,
	Programs:   []string{"fastly", "wrangler"},
	ValueFlags: []string{"--service-id", "-s", "--version", "--token", "-t", "--env", "-e", "--config", "-c", "--namespace-id", "--binding", "--command", "--file"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveService, Name: "cdn-cli-delete",
			Reason:  "deletes a CDN service, worker or its storage (KV, R2, D1, queues, secrets), rolls a worker back, or purges a whole cache",
			Instead: "list and inspect (fastly service list, wrangler kv namespace list, wrangler r2 bucket list); purge single URLs; ask a human to delete",
			Match: func(c Call) bool {
				switch c.Program {
				case "fastly":
					return deleteVerb(c.Pos(1)) || deleteVerb(c.Pos(2)) || c.Sub("purge") && c.Has("--all")
				case "wrangler":
					first := strings.ToLower(c.Pos(0))
					if strings.Contains(first, ":") { // kv:namespace delete, the old spelling
						return deleteVerb(c.Pos(1))
					}
					// A rollback puts an older version in production for everyone.
					return c.Sub("delete") || deleteVerb(c.Pos(1)) || deleteVerb(c.Pos(2)) || c.Sub("rollback") || c.Sub("deployments", "rollback")
				}
				return false
			},
			Deny: []string{"fastly service delete --service-id abc123 --force", "fastly backend delete --service-id abc123 --version 3 --name origin",
				"fastly purge --all --service-id abc123", "wrangler delete my-worker", "wrangler kv namespace delete --namespace-id 0f2ac74b",
				"wrangler kv:namespace delete --binding CACHE", "wrangler r2 bucket delete assets", "wrangler d1 delete prod-db", "wrangler secret delete API_KEY", "wrangler deployments rollback"},
			Allow: []string{"fastly service list", "fastly purge --key product-123 --service-id abc123", "fastly log-tail --service-id abc123",
				"wrangler kv namespace list", "wrangler r2 bucket list", "wrangler tail my-worker", "wrangler dev",
				"wrangler d1 execute prod-db --command 'SELECT count(*) FROM users'"},
		},
		{
			ID: policy.RuleDestructiveService, Name: "cdn-api-delete",
			Reason:  "sends a DELETE to a CDN's API, or purges everything it caches",
			Instead: "read with GET requests (curl https://api.fastly.com/service); purge single URLs; ask a human to delete",
			HTTP: func(r httpreq.Request) bool {
				if deleteTo("api.fastly.com")(r) {
					return true
				}
				return anyURL(r, func(u httpreq.URL) bool {
					last := lastSegment(u)
					switch {
					case u.HostIs("api.fastly.com"):
						return r.May("POST") && last == "purge_all"
					case u.HostIs("api.cloudflare.com"):
						if r.May("DELETE") && !hasSegment(u, "dns_records") { // DNS records are the dns pack's
							return true
						}
						return r.May("POST") && last == "purge_cache" && r.BodyHas("purge_everything")
					}
					return false
				})
			},
			Deny: []string{"curl -X DELETE https://api.fastly.com/service/abc123", "curl -X POST https://api.fastly.com/service/abc123/purge_all",
				"curl -X DELETE https://api.cloudflare.com/client/v4/accounts/acc/workers/scripts/my-worker",
				"curl -X POST https://api.cloudflare.com/client/v4/zones/z1/purge_cache -d '{\"purge_everything\":true}'"},
			Allow: []string{"curl https://api.fastly.com/service", "curl -X POST https://api.fastly.com/purge/www.example.com/img.png",
				"curl -X POST https://api.cloudflare.com/client/v4/zones/z1/purge_cache -d '{\"files\":[\"https://example.com/a.css\"]}'"},
		},
	},
}
