package guard

import "testing"

func TestGitURLHost(t *testing.T) {
	for _, c := range []struct {
		in   string
		host string
		ok   bool
	}{
		{"https://github.com/o/r.git", "github.com", true},
		{"https://user:tok@GitHub.com:443/o/r", "github.com", true},
		{"ssh://git@host.example:2222/r.git", "host.example", true},
		{"git://[::1]/r.git", "::1", true},
		{"git@github.com:o/r.git", "github.com", true},
		{"host.example:r.git", "host.example", true},
		{"file:///srv/r.git", "", true},
		{"/srv/r.git", "", false},
		{"../mirror.git", "", false},
		{"./a:b", "", false},
		{"origin", "", false},
		{"-f", "", false},
	} {
		host, ok := gitURLHost(c.in)
		if host != c.host || ok != c.ok {
			t.Errorf("gitURLHost(%q) = %q, %v; want %q, %v", c.in, host, ok, c.host, c.ok)
		}
	}
	if got := remoteHosts([]string{"git@github.com:o/r.git", "https://github.com/o/r", "/srv/m.git", "https://gitlab.example/x"}); len(got) != 2 || got[0] != "github.com" || got[1] != "gitlab.example" {
		t.Errorf("remoteHosts = %v", got)
	}
}
