package packs

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/internal/httpreq"
	"github.com/swarm-guard/swarm-guard/policy"
)

// monitoring (vendor pack): PagerDuty, New Relic, Datadog, Splunk,
// Prometheus and Grafana. Querying and reading dashboards are safe;
// deleting monitors, dashboards, services, escalation policies and
// indexes, wiping metric series and cleaning event data blind the people
// on call, often at the moment they need to see. (The Prometheus
// Operator's custom resources, kubectl delete prometheusrule …, are the
// kubernetes pack's, on by default: every custom resource delete is.)
var monitoring = &Pack{
	Name:     "monitoring",
	Vendor:   true,
	Programs: []string{"pd", "newrelic", "dog", "datadog-ci", "splunk", "promtool", "amtool", "grafana-cli", "grafana"},
	ValueFlags: []string{"--profile", "-p", "--accountId", "-a", "--format", "-o", "--output", "--alertmanager.url", "-auth", "--config",
		"-n", "--namespace", "--context", "--kubeconfig", "-l", "--selector", "--homepath", "--pluginsDir"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveService, Name: "monitoring-cli-delete",
			Reason:  "deletes monitors, dashboards, services, schedules, entities or indexes, or wipes event data",
			Instead: "read and list (pd service list, dog monitor show_all, splunk list index, newrelic entity search --name api); ask a human to delete monitoring",
			Match: func(c Call) bool {
				switch c.Program {
				case "pd", "dog", "datadog-ci":
					return deleteVerb(c.Pos(1)) || deleteVerb(c.Pos(2))
				case "grafana-cli", "grafana":
					return c.AnyPos(0, func(w string) bool { return w == "plugins" }) && c.AnyPos(0, func(w string) bool { return w == "uninstall" || w == "remove" })
				case "newrelic":
					if c.Sub("nerdgraph", "query") {
						q := strings.ToLower(c.Pos(2))
						return strings.Contains(q, "mutation") && strings.Contains(q, "delete")
					}
					return deleteVerb(c.Pos(1)) || deleteVerb(c.Pos(2))
				case "splunk":
					return c.Sub("remove") || c.Sub("clean")
				case "amtool":
					return c.Sub("silence", "expire") && c.Has("--all") || c.Sub("silence", "import")
				}
				return false
			},
			Deny: []string{"datadog-ci monitors delete 123", "grafana-cli plugins uninstall grafana-piechart-panel", "pd service delete -i PABC123", "pd schedule delete -i PSCH123", "dog monitor delete 12345", "dog dashboard delete abc-def-ghi",
				"newrelic entity tags delete --guid ABC --tag env", "newrelic nerdgraph query 'mutation { alertsPolicyDelete(accountId: 1, id: 2) { id } }'",
				"splunk remove index old_logs", "splunk clean eventdata -index main", "splunk remove user alice"},
			Allow: []string{"datadog-ci monitors list", "grafana-cli plugins ls",
				"pd service list", "pd incident list", "dog monitor show_all", "dog metric post app.up 1", "splunk list index", "splunk search 'index=main error'",
				"newrelic entity search --name api", "newrelic nerdgraph query '{ actor { user { name } } }'", "amtool silence query", "promtool check rules rules.yml"},
		},
		{
			ID: policy.RuleDestructiveService, Name: "monitoring-api-delete",
			Reason:  "deletes through a monitoring service's API (PagerDuty, Datadog, New Relic, Splunk, Grafana), or wipes Prometheus series",
			Instead: "read with GET requests and queries (curl 'http://localhost:9090/api/v1/query?query=up'); ask a human to delete",
			HTTP: func(r httpreq.Request) bool {
				if deleteTo("api.pagerduty.com", "api.eu.pagerduty.com", "api.datadoghq.com", "api.datadoghq.eu", "*.datadoghq.com",
					"api.ddog-gov.com", "api.newrelic.com", "api.eu.newrelic.com", "*.splunkcloud.com", "*.grafana.net")(r) {
					return true
				}
				return anyURL(r, func(u httpreq.URL) bool {
					last := lastSegment(u)
					switch {
					case hasSegment(u, "admin") && hasSegment(u, "tsdb"): // Prometheus' admin API
						return r.May("POST", "PUT", "DELETE") && (last == "delete_series" || last == "clean_tombstones")
					case u.HostIs("api.newrelic.com", "api.eu.newrelic.com") && last == "graphql":
						return r.May("POST") && r.BodyHas("mutation") && r.BodyHas("delete")
					case u.Port == "8089" && hasSegment(u, "services", "servicesns"): // Splunk's management port
						return r.May("DELETE")
					case u.Port == "3000" || strings.Contains(u.Host, "grafana"):
						return r.May("DELETE") && hasSegment(u, "api")
					}
					return false
				})
			},
			Deny: []string{"curl -X DELETE https://api.pagerduty.com/services/PABC123", "curl -X DELETE https://api.datadoghq.com/api/v1/monitor/12345",
				"curl -X DELETE https://api.datadoghq.eu/api/v1/dashboard/abc-def-ghi", "curl -X POST -g 'http://localhost:9090/api/v1/admin/tsdb/delete_series?match[]={job=\"api\"}'",
				"curl -X POST http://localhost:9090/api/v1/admin/tsdb/clean_tombstones", "curl -k -X DELETE https://splunk.internal:8089/services/data/indexes/old_logs",
				"curl -X DELETE http://localhost:3000/api/dashboards/uid/abc123",
				"curl https://api.newrelic.com/graphql -d '{\"query\":\"mutation { alertsPolicyDelete(accountId: 1, id: 2) { id } }\"}'"},
			Allow: []string{"curl https://api.pagerduty.com/incidents", "curl 'http://localhost:9090/api/v1/query?query=up'",
				"curl -X POST https://api.datadoghq.com/api/v1/series -d '{\"series\":[]}'", "curl http://localhost:3000/api/dashboards/uid/abc123",
				"curl https://api.newrelic.com/graphql -d '{\"query\":\"{ actor { user { name } } }\"}'"},
		},
	},
}
