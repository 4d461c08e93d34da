package packs

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/internal/httpreq"
	"github.com/swarm-guard/swarm-guard/policy"
)

// dns (vendor pack): DNS providers' CLIs and APIs (Cloudflare, DigitalOcean,
// DNSimple, GoDaddy, Gandi, PowerDNS, Google Cloud DNS). Lookups and
// listing records are safe; deleting records and zones takes a name off
// the internet until someone puts it back, and caches keep the absence.
// (aws route53, gcloud dns and az network dns are the cloud pack's.)
var dns = &Pack{
	Name:       "dns",
	Vendor:     true,
	Programs:   []string{"flarectl", "doctl", "pdnsutil", "dnscontrol"},
	ValueFlags: []string{"--zone", "--id", "--context", "--access-token", "-t", "--output", "-o", "--config"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveService, Name: "dns-cli-delete",
			Reason:  "deletes DNS records or whole zones",
			Instead: "list and look up (flarectl dns list --zone example.com, doctl compute domain records list example.com, dig example.com); ask a human to change DNS",
			Match: func(c Call) bool {
				switch c.Program {
				case "flarectl":
					return posIn(c, 0, "dns", "zone", "d", "z") && deleteVerb(c.Pos(1))
				case "doctl":
					return c.Sub("compute", "domain") && (deleteVerb(c.Pos(2)) || c.Sub("compute", "domain", "records") && deleteVerb(c.Pos(3)))
				case "pdnsutil":
					return posIn(c, 0, "delete-zone", "delete-rrset", "clear-zone")
				case "dnscontrol":
					// push makes the provider match the files: records not in them are deleted.
					return c.Sub("push")
				}
				return false
			},
			Deny: []string{"flarectl dns delete --zone example.com --id 372e6795", "flarectl zone delete --zone example.com",
				"doctl compute domain delete example.com --force", "doctl compute domain records delete example.com 12345 --force",
				"pdnsutil delete-zone example.com", "pdnsutil delete-rrset example.com www A", "dnscontrol push"},
			Allow: []string{"flarectl dns list --zone example.com", "doctl compute domain records list example.com", "dig example.com",
				"pdnsutil list-zone example.com", "dnscontrol preview", "doctl compute domain records create example.com --record-type A --record-name www --record-data 1.2.3.4"},
		},
		{
			ID: policy.RuleDestructiveService, Name: "dns-api-delete",
			Reason:  "deletes DNS records or zones through a provider's API",
			Instead: "read with GET requests (curl https://api.cloudflare.com/client/v4/zones/z1/dns_records); ask a human to change DNS",
			HTTP: func(r httpreq.Request) bool {
				return anyURL(r, func(u httpreq.URL) bool {
					switch {
					case u.HostIs("api.cloudflare.com"):
						return r.May("DELETE") && hasSegment(u, "dns_records")
					case u.HostIs("api.digitalocean.com"):
						return r.May("DELETE") && hasSegment(u, "domains")
					case u.HostIs("api.dnsimple.com", "api.godaddy.com", "api.gandi.net", "dns.googleapis.com", "api.ns1.com", "api.nsone.net"):
						return r.May("DELETE")
					case u.Port == "8081" || strings.Contains(u.Host, "pdns") || strings.Contains(u.Host, "powerdns"):
						// PowerDNS: DELETE a zone, or PATCH its rrsets with changetype DELETE.
						zones := hasSegment(u, "zones")
						return zones && (r.May("DELETE") || r.May("PATCH") && r.BodyHas(`"changetype":"delete"`, `"changetype": "delete"`))
					}
					return false
				})
			},
			Deny: []string{"curl -X DELETE https://api.cloudflare.com/client/v4/zones/z1/dns_records/372e6795",
				"curl -X DELETE https://api.digitalocean.com/v2/domains/example.com/records/12345",
				"curl -X DELETE https://api.dnsimple.com/v2/1010/zones/example.com/records/1", "curl -X DELETE http://localhost:8081/api/v1/servers/localhost/zones/example.com.",
				"curl -X PATCH http://localhost:8081/api/v1/servers/localhost/zones/example.com. -d '{\"rrsets\":[{\"name\":\"www.example.com.\",\"type\":\"A\",\"changetype\":\"DELETE\"}]}'"},
			Allow: []string{"curl https://api.cloudflare.com/client/v4/zones/z1/dns_records",
				"curl -X POST https://api.cloudflare.com/client/v4/zones/z1/dns_records -d '{\"type\":\"A\",\"name\":\"www\",\"content\":\"1.2.3.4\"}'",
				"curl -X PATCH http://localhost:8081/api/v1/servers/localhost/zones/example.com. -d '{\"rrsets\":[{\"name\":\"www.example.com.\",\"type\":\"A\",\"changetype\":\"REPLACE\"}]}'"},
		},
	},
}
