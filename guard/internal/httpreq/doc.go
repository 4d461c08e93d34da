// Package httpreq reads the HTTP request a command-line client sends:
// curl, wget, httpie (http, https) and xh (xh, xhs). From the client's
// parsed words (guard/internal/shell) it finds the method (curl -X/--request,
// the POST that -d/--data/--json/-F imply, the PUT of -T, -G and -I;
// wget --method and --post-data; httpie's and xh's METHOD URL ITEMS
// syntax), every URL with its host, port, path and query, and what the
// body says when it is written on the command line.
//
// The guard's forge rules (GitHub and GitLab API writes) and the vendor
// packs (guard/packs: a DELETE to api.stripe.com/v1/customers/…, a POST
// to …/_delete_by_query) read requests through it, so every client's
// options are learned in one place. The package is pure: it never reads
// the files a body names (curl -d @file) and never resolves a host.
package httpreq
