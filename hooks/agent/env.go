package agent

import (
	"strings"
)

// CredentialName reports whether an environment variable name looks like
// it holds a credential: *_TOKEN, *_KEY, *SECRET*, *PASSWORD*, *_PASSWD,
// *_PASS, *_PWD, *_CREDENTIALS, *_AUTH, AWS_*, and a few well-known names.
// The match ignores case.
func CredentialName(name string) bool {
	n := strings.ToUpper(name)
	switch n {
	case "PWD", "OLDPWD":
		return false // working directories, not passwords
	case "GITHUB_TOKEN", "GH_TOKEN", "NPM_TOKEN", "NETRC", "PGPASSFILE", "KUBECONFIG", "DOCKER_AUTH_CONFIG", "VAULT_TOKEN":
		return true
	}
	for _, p := range []string{"AWS_", "AZURE_CLIENT_", "GOOGLE_APPLICATION_CREDENTIALS"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	for _, s := range []string{"_TOKEN", "_KEY", "_PASSWD", "_PASS", "_PWD", "_CREDENTIALS", "_CREDENTIAL", "_AUTH", "_APIKEY"} {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	for _, c := range []string{"SECRET", "PASSWORD", "PRIVATE_KEY", "_TOKEN_", "_KEY_"} {
		if strings.Contains(n, c) {
			return true
		}
	}
	return false
}

// ScrubEnv returns env ("NAME=value" entries) without the variables whose
// names look like credentials, except those named in allow, and the names
// it removed, in order.
func ScrubEnv(env []string, allow []string) (kept []string, removed []string) {
	allowed := make(map[string]bool, len(allow))
	for _, a := range allow {
		allowed[a] = true
	}
	kept = make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if name != "" && CredentialName(name) && !allowed[name] {
			removed = append(removed, name)
			continue
		}
		kept = append(kept, kv)
	}
	return kept, removed
}

// SetEnv returns env with name set to value, replacing every earlier
// entry of name.
func SetEnv(env []string, name, value string) []string {
	return append(UnsetEnv(env, name), name+"="+value)
}

// UnsetEnv returns env without any entry of name.
func UnsetEnv(env []string, name string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// ProviderCredentials are the credentials Claude Code itself needs to
// reach its model, by the provider the environment selects. run passes
// them to the agent (it cannot work without them); every other
// credential is scrubbed. Names follow Claude Code's documented
// environment variables.
func ProviderCredentials(env []string) []string {
	set := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		set[k] = v
	}
	on := func(name string) bool {
		v := strings.ToLower(set[name])
		return v != "" && v != "0" && v != "false"
	}
	// The Anthropic API, directly or through a gateway (an LLM gateway
	// takes ANTHROPIC_AUTH_TOKEN as a bearer token, and may need custom
	// headers), and Microsoft Foundry.
	names := []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_CUSTOM_HEADERS",
		"ANTHROPIC_FOUNDRY_API_KEY"}
	if on("CLAUDE_CODE_USE_BEDROCK") || set["AWS_BEARER_TOKEN_BEDROCK"] != "" {
		// Amazon Bedrock: a Bedrock API key, or the AWS SDK's credential
		// chain (keys, profile, region, config files).
		names = append(names, "AWS_BEARER_TOKEN_BEDROCK", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
			"AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE",
			"AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_AUTHORIZATION_TOKEN")
	}
	if on("CLAUDE_CODE_USE_VERTEX") {
		// Google Vertex AI: application default credentials.
		names = append(names, "GOOGLE_APPLICATION_CREDENTIALS", "CLOUDSDK_AUTH_ACCESS_TOKEN_FILE")
	}
	return names
}
