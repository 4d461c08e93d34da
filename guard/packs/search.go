package packs

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/internal/httpreq"
	"github.com/swarm-guard/swarm-guard/policy"
)

// search (vendor pack): Elasticsearch and OpenSearch, Meilisearch and
// Algolia, through their HTTP APIs and the algolia CLI. Searching,
// reading mappings and indexing documents are safe; deleting indices,
// data streams, snapshots and keys, deleting by query and clearing an
// index are not: the index is what the product's search shows.
var search = &Pack{
	Name:       "search",
	Vendor:     true,
	Programs:   []string{"algolia"},
	ValueFlags: []string{"--profile", "-p", "--application-id", "--api-key", "--output", "-o"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveService, Name: "search-index-delete",
			Reason:  "deletes search indices, data streams, snapshots, documents by query or API keys, or empties an index",
			Instead: "read with GET requests and _search (curl http://localhost:9200/_cat/indices); ask a human to delete indices",
			HTTP: func(r httpreq.Request) bool {
				return anyURL(r, func(u httpreq.URL) bool {
					last := lastSegment(u)
					switch {
					case elasticURL(u):
						if r.May("POST") && (last == "_delete_by_query" || last == "_bulk" && r.BodyHas(`"delete"`)) {
							return true
						}
						// Scroll and point-in-time contexts are a search's own, not data.
						return r.May("DELETE") && !hasSegment(u, "_search", "_pit")
					case meiliURL(u):
						return r.May("DELETE") || r.May("POST") && last == "delete-batch"
					case u.HostIs("*.algolia.net", "*.algolianet.com", "*.algolia.io"):
						return r.May("DELETE") || r.May("POST") && (last == "clear" || last == "deletebyquery" ||
							last == "batch" && r.BodyHas(`"delete`, `"clear`))
					}
					// _delete_by_query says what it does on any host.
					return r.May("POST") && last == "_delete_by_query"
				})
			},
			Deny: []string{"curl -X DELETE 'http://localhost:9200/logs-2024'", "curl -X DELETE 'http://localhost:9200/_all'", "curl -XDELETE localhost:9200/*",
				"curl -X POST 'http://localhost:9200/logs-2024/_delete_by_query' -H 'Content-Type: application/json' -d '{\"query\":{\"match_all\":{}}}'",
				"curl -X DELETE 'https://opensearch.local:9200/_data_stream/logs-app'", "curl -X DELETE 'https://opensearch.local:9200/_snapshot/backup_repo/snap_01'",
				"http DELETE :9200/orders", "curl -X DELETE 'http://localhost:7700/indexes/movies'", "curl -X DELETE 'http://localhost:7700/indexes/movies/documents'",
				"curl -X DELETE 'https://APPID-dsn.algolia.net/1/indexes/products'", "curl -X POST https://APPID.algolia.net/1/indexes/products/clear"},
			Allow: []string{"curl http://localhost:9200/_cat/indices", "curl -X GET 'http://localhost:9200/logs-2024/_search?q=error'",
				"curl -X POST 'http://localhost:9200/logs-2024/_search' -d '{\"query\":{\"match_all\":{}}}'", "curl -X PUT http://localhost:9200/logs-2025",
				"curl -X DELETE http://localhost:9200/_search/scroll -d '{\"scroll_id\":\"x\"}'", "curl http://localhost:7700/indexes/movies/search?q=alien",
				"curl -X POST 'https://APPID-dsn.algolia.net/1/indexes/products/query' -d '{\"query\":\"shoe\"}'"},
		},
		{
			ID: policy.RuleDestructiveService, Name: "algolia-cli-delete",
			Reason:  "deletes or clears Algolia indices, or deletes their records, rules, synonyms or API keys",
			Instead: "read with list and search (algolia indices list, algolia search products --query shoe); ask a human to delete",
			Match: func(c Call) bool {
				return c.Program == "algolia" && (deleteVerb(c.Pos(1)) || posIn(c, 1, "clear"))
			},
			Deny:  []string{"algolia indices delete products --confirm", "algolia indices clear products --confirm", "algolia objects delete products --object-ids 1,2", "algolia apikeys delete abc"},
			Allow: []string{"algolia indices list", "algolia search products --query shoe", "algolia objects browse products"},
		},
	},
}

// elasticURL: an Elasticsearch or OpenSearch endpoint, by its port, its
// host, or an API path segment (_all, _data_stream, …).
func elasticURL(u httpreq.URL) bool {
	if u.Port == "9200" || u.Port == "9243" || strings.Contains(u.Host, "elastic") || strings.Contains(u.Host, "opensearch") ||
		strings.Contains(u.Host, ".es.") || u.HostIs("*.found.io") {
		return true
	}
	s := u.Segments()
	return len(s) > 0 && (s[0] == "_all" || s[0] == "_data_stream" || s[0] == "_snapshot" || s[0] == "_index_template" || s[0] == "_ilm")
}

// meiliURL: a Meilisearch endpoint, by its port or host.
func meiliURL(u httpreq.URL) bool {
	return u.Port == "7700" || strings.Contains(u.Host, "meili")
}
