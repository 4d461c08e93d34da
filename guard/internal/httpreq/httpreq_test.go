package httpreq

import (
	"regexp"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

var varRE = regexp.MustCompile(`\$[A-Z_]+`)

// words splits a command line on spaces into the words the shell core
// would give (the tests write no quotes); $NAME is a part only known at
// run time.
func words(line string) (string, []shell.Word) {
	f := strings.Fields(line)
	var out []shell.Word
	for _, s := range f[1:] {
		w := shell.Word{Text: s, Src: s}
		if strings.Contains(s, "$") {
			w = shell.Word{Dynamic: true, Src: s, Tmpl: varRE.ReplaceAllString(s, shell.UnknownMark)}
		}
		out = append(out, w)
	}
	return f[0], out
}

// TestRead pins each client's method, URL parts and body: the method
// given, the one the options imply, and the words that are option
// values rather than URLs.
func TestRead(t *testing.T) {
	cases := []struct {
		line                    string
		method                  string // "?" for one only known at run time
		host, port, path, query string // of the first URL
		urls                    int
		body                    string // the body parts joined by "|"
	}{
		// curl: -X in every spelling, and what the options imply.
		{"curl https://api.stripe.com/v1/customers", "GET", "api.stripe.com", "", "/v1/customers", "", 1, ""},
		{"curl -X DELETE https://api.stripe.com/v1/customers/cus_1", "DELETE", "api.stripe.com", "", "/v1/customers/cus_1", "", 1, ""},
		{"curl -XDELETE http://localhost:9200/logs", "DELETE", "localhost", "9200", "/logs", "", 1, ""},
		{"curl -sSX delete localhost:9200/_all", "DELETE", "localhost", "9200", "/_all", "", 1, ""},
		{"curl --request=PATCH https://h.example/x?a=1#frag", "PATCH", "h.example", "", "/x", "a=1", 1, ""},
		{"curl --request PUT https://h.example", "PUT", "h.example", "", "/", "", 1, ""},
		{"curl -d {\"query\":{}} http://es:9200/i/_delete_by_query", "POST", "es", "9200", "/i/_delete_by_query", "", 1, `{"query":{}}`},
		{"curl -dname=x https://h.example/a", "POST", "h.example", "", "/a", "", 1, "name=x"},
		{"curl --json {} https://h.example/a", "POST", "h.example", "", "/a", "", 1, "{}"},
		{"curl -F file=@x.txt https://h.example/up", "POST", "h.example", "", "/up", "", 1, "file=@x.txt"},
		{"curl -G -d q=1 https://h.example/s", "GET", "h.example", "", "/s", "", 1, "q=1"},
		{"curl -I https://h.example/", "HEAD", "h.example", "", "/", "", 1, ""},
		{"curl -T dump.sql https://h.example/u", "PUT", "h.example", "", "/u", "", 1, "@dump.sql"},
		{"curl -H Authorization:Bearer_x -o out.json -u user https://user:pw@H.Example:8443/p", "GET", "h.example", "8443", "/p", "", 1, ""},
		{"curl --url https://a.example/x https://b.example/y", "GET", "a.example", "", "/x", "", 2, ""},
		{"curl -X $METHOD https://api.stripe.com/v1/customers/cus_1", "?", "api.stripe.com", "", "/v1/customers/cus_1", "", 1, ""},
		{"curl -X DELETE https://api.stripe.com/v1/customers/$ID", "DELETE", "api.stripe.com", "", "/v1/customers/\x00", "", 1, ""},
		{"curl -X DELETE $ES/_all", "DELETE", "\x00", "", "/_all", "", 1, ""},
		{"curl -w %{http_code} -s https://h.example", "GET", "h.example", "", "/", "", 1, ""},
		{"curl -X POST http://jenkins.local/job/app/doDelete", "POST", "jenkins.local", "", "/job/app/doDelete", "", 1, ""},
		{"curl http://[::1]:8080/x", "GET", "[::1]", "8080", "/x", "", 1, ""},
		// wget.
		{"wget https://h.example/file.tgz", "GET", "h.example", "", "/file.tgz", "", 1, ""},
		{"wget --method=DELETE https://h.example/x", "DELETE", "h.example", "", "/x", "", 1, ""},
		{"wget --method DELETE -O - https://h.example/x", "DELETE", "h.example", "", "/x", "", 1, ""},
		{"wget --post-data a=1 https://h.example/x", "POST", "h.example", "", "/x", "", 1, "a=1"},
		{"wget -O out.html -q https://h.example/", "GET", "h.example", "", "/", "", 1, ""},
		// httpie and xh: METHOD URL ITEMS.
		{"http DELETE api.example.com/v1/x", "DELETE", "api.example.com", "", "/v1/x", "", 1, ""},
		{"http api.example.com/v1/x", "GET", "api.example.com", "", "/v1/x", "", 1, ""},
		{"http api.example.com/v1/x name=a", "POST", "api.example.com", "", "/v1/x", "", 1, "name=a"},
		{"http api.example.com/v1/x q==a X-Token:abc", "GET", "api.example.com", "", "/v1/x", "", 1, ""},
		{"http :9200/_all", "GET", "localhost", "9200", "/_all", "", 1, ""},
		{"http DELETE :/x", "DELETE", "localhost", "", "/x", "", 1, ""},
		{"https -a u:p PUT h.example/y n:=1", "PUT", "h.example", "", "/y", "", 1, "n:=1"},
		{"http --raw {\"a\":1} POST h.example/y", "POST", "h.example", "", "/y", "", 1, `{"a":1}`},
		{"xh delete https://h.example/x", "DELETE", "h.example", "", "/x", "", 1, ""},
		{"xhs h.example/x f@file.bin", "POST", "h.example", "", "/x", "", 1, "f@file.bin"},
		{"http $M https://h.example/x", "?", "h.example", "", "/x", "", 1, ""},
	}
	for _, c := range cases {
		prog, ws := words(c.line)
		r, ok := Read(prog, ws)
		if !ok {
			t.Errorf("%s: no request read", c.line)
			continue
		}
		method := r.Method
		if r.MethodDynamic {
			method = "?"
		}
		u := r.URLs[0]
		if method != c.method || u.Host != c.host || u.Port != c.port || u.Path != c.path || u.Query != c.query || len(r.URLs) != c.urls ||
			strings.Join(r.Body, "|") != c.body {
			t.Errorf("%s:\n\tgot  %s %q port %q path %q query %q, %d URLs, body %q\n\twant %s %q port %q path %q query %q, %d URLs, body %q",
				c.line, method, u.Host, u.Port, u.Path, u.Query, len(r.URLs), strings.Join(r.Body, "|"),
				c.method, c.host, c.port, c.path, c.query, c.urls, c.body)
		}
	}
	for _, line := range []string{"curl -s", "curl -o out.txt", "wget -O x", "http --help", "nc host 80"} {
		prog, ws := words(line)
		if r, ok := Read(prog, ws); ok {
			t.Errorf("%s: read a request %+v, want none", line, r)
		}
	}
}

// TestMatchHelpers: May fails closed on a method only known at run time;
// HostIs takes exact hosts and *.suffix; BodyHas ignores case.
func TestMatchHelpers(t *testing.T) {
	r := Request{MethodDynamic: true, Body: []string{`{"Action":"deleteObject"}`}}
	if !r.May("DELETE") || !r.BodyHas("deleteobject") || r.BodyHas("clear") {
		t.Errorf("dynamic method / body: May %v BodyHas %v", r.May("DELETE"), r.BodyHas("deleteobject"))
	}
	if (Request{Method: "GET"}).May("DELETE", "POST") {
		t.Error("GET may be DELETE")
	}
	u := URL{Host: "app-dsn.algolia.net"}
	if !u.HostIs("*.algolia.net") || u.HostIs("algolia.net") || (URL{Host: "algolia.net"}).HostIs("*.algolia.net") ||
		(URL{Host: "evilalgolia.net"}).HostIs("*.algolia.net") {
		t.Error("HostIs suffixes")
	}
	if got := (URL{Path: "/v1/customers/cus_1/"}).Segments(); strings.Join(got, ",") != "v1,customers,cus_1" {
		t.Errorf("Segments = %q", got)
	}
}

// FuzzRead: any words, any client: Read never panics and every URL it
// returns has a host.
func FuzzRead(f *testing.F) {
	for _, s := range []string{"curl -XDELETE localhost:9200/_all", "http :3000/x a=1", "wget --method=PUT https://h/x",
		"xh delete https://[::1", "curl -", "http -", "curl --url=", "curl http://@/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		f := strings.Fields(line)
		if len(f) == 0 {
			return
		}
		var ws []shell.Word
		for _, s := range f[1:] {
			ws = append(ws, shell.Word{Text: s, Src: s})
		}
		for _, prog := range Clients {
			r, ok := Read(prog, ws)
			for _, u := range r.URLs {
				if u.Host == "" {
					t.Fatalf("%s %q: URL without a host: %+v", prog, line, u)
				}
			}
			if ok && r.Method == "" && !r.MethodDynamic {
				t.Fatalf("%s %q: no method", prog, line)
			}
		}
	})
}
