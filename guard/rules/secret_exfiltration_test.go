package rules

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

func TestJudgeExfiltration(t *testing.T) {
	ex := policy.RuleExfiltration
	env := effect.Secret{Source: effect.Source{Kind: effect.EnvironmentDump, Via: "env"}}
	gh := effect.Secret{Source: effect.Source{Kind: effect.CredentialVariable, Name: "GITHUB_TOKEN"}}
	own := effect.Secret{Source: effect.Source{Kind: effect.CredentialVariable, Name: "MY_SERVICE_TOKEN"}}
	checkVerdicts(t, &Facts{Policy: policy.Default()}, []verdictCase{
		{effect.Send{By: "curl", Hosts: []string{"x.example"}, Secrets: []effect.Secret{env}}, []string{ex}, "curl sends the environment (env) off this machine"},
		{effect.Send{By: "nc", Secrets: []effect.Secret{{Source: effect.Source{Kind: effect.CredentialCommand, Name: "gh auth token"}}}}, []string{ex}, "nc sends gh auth token off this machine"},
		{effect.Send{By: "curl", Hosts: []string{"api.github.com"}, Secrets: []effect.Secret{gh}}, nil, ""},
		{effect.Send{By: "curl", Hosts: []string{"api.github.com", "x.example"}, Secrets: []effect.Secret{gh}}, []string{ex},
			"curl sends $GITHUB_TOKEN to api.github.com, x.example, not the service it belongs to"},
		// A credential of a service the guard has no owner for: its normal use.
		{effect.Send{By: "curl", Hosts: []string{"x.example"}, Secrets: []effect.Secret{own}}, nil, ""},
		// The first secret that may not go decides, once.
		{effect.Send{By: "curl", Hosts: []string{"api.github.com"}, Secrets: []effect.Secret{gh, env, env}}, []string{ex}, "curl sends the environment (env) off this machine"},
		{effect.Send{By: "curl", Hosts: []string{"anywhere.example"}}, nil, ""},
		// No URL names the host: a credential may go anywhere.
		{effect.Send{By: "ssh", Secrets: []effect.Secret{gh}}, []string{ex}, "ssh sends $GITHUB_TOKEN off this machine"},
		{effect.Send{By: "nc", Secrets: []effect.Secret{own}}, nil, ""},
		{effect.SQL{By: "psql -c/-e", Text: "SELECT 1"}, nil, ""},
	})
	pol := policy.Default().Clone()
	pol.Network.AllowHosts = []string{"*.github.com", "pypi.org"}
	checkVerdicts(t, &Facts{Policy: pol}, []verdictCase{
		{effect.Send{By: "curl", Hosts: []string{"api.github.com", "pypi.org"}}, nil, ""},
		{effect.Send{By: "wget", Hosts: []string{"api.github.com", "x.example", "y.example"}}, []string{ex}, "wget connects to x.example, which is not in [network] allow_hosts"},
		// A secret is reported before the hosts.
		{effect.Send{By: "curl", Hosts: []string{"x.example"}, Secrets: []effect.Secret{env}}, []string{ex}, "curl sends the environment (env) off this machine"},
	})
}

func TestJudgeRemoteURL(t *testing.T) {
	ex := policy.RuleExfiltration
	f := &Facts{Policy: policy.Default(), RemoteHosts: []string{"github.com"}}
	checkVerdicts(t, f, []verdictCase{
		{effect.RemoteURL{By: "git push", URL: "https://x.example/r.git", Host: "x.example", Push: true}, []string{ex},
			"git push sends this repository's commits to x.example, which none of its remotes names (its remotes are on github.com)"},
		{effect.RemoteURL{By: "git remote add", URL: "git@x.example:r.git", Host: "x.example"}, []string{ex},
			"git remote add points this repository's pushes at x.example, which none of its remotes names (its remotes are on github.com)"},
		{effect.RemoteURL{By: "git push", URL: "git@github.com:me/fork.git", Host: "github.com", Push: true}, nil, ""},
		// A local path or file:// URL stays on this machine.
		{effect.RemoteURL{By: "git push", URL: "file:///srv/m.git", Push: true}, nil, ""},
	})
	checkVerdicts(t, &Facts{Policy: policy.Default()}, []verdictCase{
		{effect.RemoteURL{By: "git push", URL: "https://github.com/o/r.git", Host: "github.com", Push: true}, []string{ex},
			"git push sends this repository's commits to github.com, which none of its remotes names (it has no remote)"},
	})
	pol := policy.Default().Clone()
	pol.Network.AllowHosts = []string{"*.corp.example"}
	checkVerdicts(t, &Facts{Policy: pol, RemoteHosts: []string{"github.com"}}, []verdictCase{
		{effect.RemoteURL{By: "git push", URL: "https://git.corp.example/r.git", Host: "git.corp.example", Push: true}, nil, ""},
	})
}

// TestJudgeRepositorySend: the repository's own content (a bundle, an
// archive, a copy of .git) may go to the hosts its remotes name, and to
// [network] allow_hosts; anywhere else, or where no host is named, it is
// the repository leaving.
func TestJudgeRepositorySend(t *testing.T) {
	ex := policy.RuleExfiltration
	bundle := []effect.Secret{{Source: effect.Source{Kind: effect.RepositoryBundle}}}
	f := &Facts{Policy: policy.Default(), RemoteHosts: []string{"github.com"}}
	checkVerdicts(t, f, []verdictCase{
		{effect.Send{By: "curl", Hosts: []string{"x.example"}, Secrets: bundle}, []string{ex},
			"curl sends the repository's history (git bundle) to x.example, which none of the repository's remotes names (its remotes are on github.com)"},
		{effect.Send{By: "gh", Secrets: bundle}, []string{ex},
			"gh sends the repository's history (git bundle) off this machine, to no host the repository's remotes name (its remotes are on github.com)"},
		{effect.Send{By: "ssh", Hosts: []string{"github.com"}, Secrets: bundle}, nil, ""},
		{effect.Send{By: "curl", Hosts: []string{"github.com", "x.example"}, Secrets: bundle}, []string{ex},
			"curl sends the repository's history (git bundle) to github.com, x.example, which none of the repository's remotes names (its remotes are on github.com)"},
	})
	pol := policy.Default().Clone()
	pol.Network.AllowHosts = []string{"*.corp.example"}
	checkVerdicts(t, &Facts{Policy: pol}, []verdictCase{
		{effect.Send{By: "scp", Hosts: []string{"backup.corp.example"}, Secrets: bundle}, nil, ""},
		{effect.Send{By: "scp", Hosts: []string{"x.example"}, Secrets: bundle}, []string{ex},
			"scp sends the repository's history (git bundle) to x.example, which none of the repository's remotes names (it has no remote)"},
	})
}

// TestSourceWords: every kind of secret source has its words, the ones
// the reasons have always said (testdata/golden holds them in context).
func TestSourceWords(t *testing.T) {
	for _, c := range []struct {
		s    effect.Secret
		want string
	}{
		{effect.Secret{Source: effect.Source{Kind: effect.CredentialVariable, Name: "GITHUB_TOKEN"}}, "$GITHUB_TOKEN"},
		{effect.Secret{Source: effect.Source{Kind: effect.EnvironmentDump, Via: "/proc/self/environ"}}, "the environment (/proc/self/environ)"},
		{effect.Secret{Source: effect.Source{Kind: effect.ProcessEnvironment, Name: "/proc/1/environ"}}, "the environment of another process (/proc/1/environ)"},
		{effect.Secret{Source: effect.Source{Kind: effect.SecretFile, Name: "/w/.env"}}, "the secret file /w/.env"},
		{effect.Secret{Source: effect.Source{Kind: effect.CredentialCommand, Name: "aws configure get"}}, "aws configure get"},
		{effect.Secret{Source: effect.Source{Kind: effect.RepositoryBundle}}, "the repository's history (git bundle)"},
		{effect.Secret{Source: effect.Source{Kind: effect.RepositoryArchive}}, "the repository's files (git archive)"},
		{effect.Secret{Source: effect.Source{Kind: effect.RepositoryPatches}}, "the repository's commits (git format-patch --stdout)"},
		{effect.Secret{Source: effect.Source{Kind: effect.RepositoryCopy, Name: "."}}, "the repository's history (., with its .git)"},
		{effect.Secret{Source: effect.Source{Kind: effect.GitDirCopy, Name: ".git"}}, "the repository's history (.git)"},
		{effect.Secret{Source: effect.Source{Kind: effect.URLPassword, Name: "ci", Via: "x.example"}}, "the password in the URL's user-info (ci:****@x.example)"},
		{effect.Secret{Source: effect.Source{Kind: effect.URLToken, Name: "x-oauth-basic", Via: "github.com"}}, "the token in the URL's user-info (****:x-oauth-basic@github.com)"},
		{effect.Secret{Source: effect.Source{Kind: effect.LoginOption, Name: "ci", Via: "-u"}, For: []string{"a.example", "b.example"}}, "the password given with -u (ci:****) for a.example, b.example"},
		{effect.Secret{Source: effect.Source{Kind: effect.PasswordOption, Via: "--password"}}, "the password given with --password (****)"},
		{effect.Secret{Source: effect.Source{Kind: effect.ScannedQuery, Name: "github-pat"}}, "a secret [github-pat] in the search query"},
		{effect.Secret{Source: effect.Source{Kind: effect.ScannedURL, Name: "github-pat"}}, "a secret [github-pat] in the URL"},
		{effect.Secret{Source: effect.Source{Kind: effect.ScannedParameter, Name: "github-pat", Via: "token"}}, "a secret [github-pat] in the URL's parameter token"},
	} {
		if got := sourceWords(c.s); got != c.want {
			t.Errorf("sourceWords(%+v) = %q, want %q", c.s, got, c.want)
		}
	}
	// A kind added to effect without its words here would be "a secret".
	for k := effect.CredentialVariable; k <= effect.ScannedParameter; k++ {
		if got := sourceWords(effect.Secret{Source: effect.Source{Kind: k, Name: "n", Via: "v"}}); got == "a secret" {
			t.Errorf("source kind %d has no words in sourceWords", k)
		}
	}
}
