package envcreds

import (
	"encoding/base64"
	"slices"
	"testing"
)

func TestIsCredentialName(t *testing.T) {
	for _, n := range []string{"GITHUB_TOKEN", "gh_token", "AWS_SECRET_ACCESS_KEY", "AWS_ACCESS_KEY_ID", "DB_PASSWORD", "MYSQL_PASSWD",
		"OPENAI_API_KEY", "STRIPE_APIKEY", "SSH_PRIVATE_KEY", "GOOGLE_APPLICATION_CREDENTIALS", "NPM_AUTH", "AUTH", "CLAUDE_CODE_OAUTH_TOKEN", "client_secret"} {
		if !IsCredentialName(n) {
			t.Errorf("%s is not taken for a credential", n)
		}
	}
	for _, n := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "XAUTHORITY", "PATH", "HOME", "KEYBOARD", "AUTHOR", "PASS_THROUGH", "GIT_ASKPASS", "SSH_AGENT_PID"} {
		if IsCredentialName(n) {
			t.Errorf("%s is taken for a credential", n)
		}
	}
}

func TestFrom(t *testing.T) {
	got := From([]string{
		"DEPLOY_TOKEN=not-a-real-value-4b7e1",
		"SHORT_TOKEN=abc",                       // a setting, not a secret
		"SSH_AUTH_SOCK=/tmp/ssh-XXXX/agent.123", // a path
		"AUTH_URL=https://login.example.com/oauth",
		"PROXY_PASSWORD=https://u:pw-for-tests@proxy.example", // a URL with user-info is a secret
		"DB_PASSWORD=/ leading slash and spaces",
		"GIT_AUTHOR_NAME=Dana Developer",
		"POSTGRES_PASSWORD=postgres",                // a word: it names things in output
		"PIN_SECRET=12345678",                       // digits only
		"LONG_TOKEN=abcdefghijklmnopqrstuvwxyzABCD", // letters only, but long: generated
		"NOT_AN_ASSIGNMENT",
	})
	var names []string
	for _, c := range got {
		names = append(names, c.Name)
	}
	if want := []string{"DEPLOY_TOKEN", "PROXY_PASSWORD", "DB_PASSWORD", "LONG_TOKEN"}; !slices.Equal(names, want) {
		t.Fatalf("From took %v, want %v", names, want)
	}
}

func TestFind(t *testing.T) {
	creds := From([]string{"DEPLOY_TOKEN=not-a-real-value-4b7e1", "DB_PASSWORD=pw-for-tests-only"})
	text := "start\nnot-a-real-value-4b7e1\nmid pw-for-tests-only and not-a-real-value-4b7e1\n" +
		base64.StdEncoding.EncodeToString([]byte("pw-for-tests-only\n")) + "\n" +
		base64.StdEncoding.EncodeToString([]byte("not-a-real-value-4b7e1")) + "\nend"
	want := []Hit{{2, "DEPLOY_TOKEN"}, {3, "DEPLOY_TOKEN"}, {4, "DB_PASSWORD"}, {5, "DEPLOY_TOKEN"}}
	if got := Find(text, creds); !slices.Equal(got, want) {
		t.Fatalf("Find = %v, want %v", got, want)
	}
	if !Holds(text, creds) || Holds("start\nnot-a-real\nend", creds) || Find("nothing here", creds) != nil || Find(text, nil) != nil {
		t.Fatal("Holds or Find sees what is not there")
	}
}
