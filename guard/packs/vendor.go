package packs

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/internal/httpreq"
)

// Helpers of the vendor packs (payment.go … cicd.go): most hosted
// services delete through their CLI's "delete" verb and through a DELETE
// request to their API host.

// deleteTo matches a DELETE request (or one whose method is only known at
// run time) to any of hosts ("api.stripe.com", "*.algolia.net").
func deleteTo(hosts ...string) func(httpreq.Request) bool {
	return func(r httpreq.Request) bool {
		return r.May("DELETE") && anyURL(r, func(u httpreq.URL) bool { return u.HostIs(hosts...) })
	}
}

// anyURL reports whether any URL of the request satisfies f.
func anyURL(r httpreq.Request, f func(httpreq.URL) bool) bool {
	for _, u := range r.URLs {
		if f(u) {
			return true
		}
	}
	return false
}

// lastSegment is the URL path's last segment, lower case.
func lastSegment(u httpreq.URL) string {
	s := u.Segments()
	if len(s) == 0 {
		return ""
	}
	return strings.ToLower(s[len(s)-1])
}

// hasSegment reports whether the URL path has one of segs as a segment.
func hasSegment(u httpreq.URL, segs ...string) bool {
	for _, s := range u.Segments() {
		for _, want := range segs {
			if strings.EqualFold(s, want) {
				return true
			}
		}
	}
	return false
}

// deleteVerb reports whether w is a CLI verb that deletes.
func deleteVerb(w string) bool {
	switch strings.ToLower(w) {
	case "delete", "rm", "remove", "destroy", "purge", "del":
		return true
	}
	return false
}

// posIn reports whether positional word i is one of words (any case).
func posIn(c Call, i int, words ...string) bool {
	p := c.Pos(i)
	for _, w := range words {
		if strings.EqualFold(p, w) {
			return true
		}
	}
	return false
}
