package packs

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/internal/httpreq"
	"github.com/swarm-guard/swarm-guard/policy"
)

// loadbalancer (vendor pack): HAProxy, nginx and Traefik. Checking
// configuration and reading stats are safe; stopping the proxy, taking
// servers out of rotation and deleting backends through an API drop
// the traffic of every service behind it. (aws elbv2 delete-* and
// deregister-targets are the cloud pack's; systemctl stop nginx is the
// system pack's.)
var loadbalancer = &Pack{
	Name:       "loadbalancer",
	Vendor:     true,
	Programs:   []string{"nginx", "openresty", "haproxy", "traefik", "dataplaneapi", "socat"},
	ValueFlags: []string{"-c", "-p", "-g", "-f", "-s"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveService, Name: "lb-stop",
			Reason:  "stops the proxy or load balancer, dropping the traffic of every service behind it",
			Instead: "check the configuration first (nginx -t, haproxy -c -f /etc/haproxy/haproxy.cfg) and reload gracefully (nginx -s reload); ask a human to stop a proxy",
			Match: func(c Call) bool {
				switch c.Program {
				case "nginx", "openresty":
					sig, ok := c.Value("-s")
					return ok && (sig == "stop" || sig == "quit")
				case "haproxy":
					// -sf/-st replace old processes after a reload: that is a reload.
					return false
				}
				return false
			},
			Deny:  []string{"nginx -s stop", "nginx -s quit", "openresty -s stop"},
			Allow: []string{"nginx -t", "nginx -s reload", "nginx -T", "haproxy -c -f /etc/haproxy/haproxy.cfg", "traefik version"},
		},
		{
			ID: policy.RuleDestructiveService, Name: "haproxy-runtime-change",
			Reason:  "tells a running HAProxy, through its runtime socket, to take servers or frontends out of service or cut their sessions",
			Instead: "read the state (echo 'show stat' | socat stdio /var/run/haproxy.sock, echo 'show servers state' | socat stdio /var/run/haproxy.sock); ask a human to drain servers",
			Match: func(c Call) bool {
				if c.Program != "socat" || c.Stdin == "" {
					return false
				}
				for _, line := range strings.Split(strings.ToLower(c.Stdin), "\n") {
					f := strings.Fields(strings.ReplaceAll(line, ";", " ; "))
					for i := range f {
						rest := strings.Join(f[i:], " ")
						for _, verb := range []string{"disable server", "disable frontend", "disable backend", "shutdown sessions", "shutdown session",
							"shutdown frontend", "del server", "clear table", "set server"} {
							if strings.HasPrefix(rest, verb) && (verb != "set server" || strings.Contains(rest, "maint") || strings.Contains(rest, "drain")) {
								return true
							}
						}
					}
				}
				return false
			},
			Deny: []string{"echo 'disable server backend/web1' | socat stdio /var/run/haproxy.sock",
				"echo 'shutdown sessions server backend/web1' | socat stdio /var/run/haproxy.sock",
				"echo 'shutdown frontend http' | socat stdio /var/run/haproxy.sock", "socat stdio /var/run/haproxy.sock <<< 'set server be/web1 state maint'"},
			Allow: []string{"echo 'show stat' | socat stdio /var/run/haproxy.sock", "echo 'show info' | socat stdio /var/run/haproxy.sock",
				"echo 'show servers state' | socat stdio /var/run/haproxy.sock", "echo 'set server be/web1 state ready' | socat stdio /var/run/haproxy.sock"},
		},
		{
			ID: policy.RuleDestructiveService, Name: "lb-api-change",
			Reason:  "takes servers out of rotation or deletes backends, frontends or servers through a load balancer's API",
			Instead: "read with GET requests (curl http://localhost:5555/v2/services/haproxy/configuration/backends); ask a human to change the load balancer",
			HTTP: func(r httpreq.Request) bool {
				return anyURL(r, func(u httpreq.URL) bool {
					// HAProxy's Data Plane API (/v2|v3/services/haproxy/…).
					if hasSegment(u, "haproxy") && hasSegment(u, "services") {
						if r.May("DELETE") {
							return true
						}
						// Setting a server's admin state to maint or drain through the runtime API.
						return r.May("PUT", "POST") && hasSegment(u, "runtime") && r.BodyHas(`"maint"`, `"drain"`)
					}
					// nginx Plus' API: DELETE of an upstream server.
					return r.May("DELETE") && hasSegment(u, "upstreams") && (hasSegment(u, "http") || hasSegment(u, "stream")) &&
						strings.HasPrefix(u.Path, "/api/")
				})
			},
			Deny: []string{"curl -X DELETE http://localhost:5555/v2/services/haproxy/configuration/backends/web?version=3",
				"curl -X PUT http://localhost:5555/v2/services/haproxy/runtime/servers/web1?backend=web -d '{\"admin_state\":\"maint\"}'",
				"curl -X DELETE http://localhost:8080/api/9/http/upstreams/backend/servers/0"},
			Allow: []string{"curl http://localhost:5555/v2/services/haproxy/configuration/backends", "curl http://localhost:8080/api/9/http/upstreams",
				"curl http://localhost:8080/api/rawdata"},
		},
	},
}
