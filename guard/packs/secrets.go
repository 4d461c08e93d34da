package packs

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/internal/httpreq"
	"github.com/swarm-guard/swarm-guard/policy"
)

// secrets (vendor pack): what the brokers tool pack leaves to a team's
// choice in secret managers. That pack already denies destroying Vault
// secret versions and engines, and deleting 1Password and Doppler items;
// this pack adds Vault's raw delete, policy and audit removal, token
// revocation and cluster operations, Infisical, and the managers' HTTP
// APIs (Vault on port 8200, Doppler, Infisical).
var secrets = &Pack{
	Name:       "secrets",
	Vendor:     true,
	Programs:   []string{"vault", "infisical"},
	ValueFlags: []string{"-address", "-namespace", "-format", "-mount", "--env", "--projectId", "--path", "--token", "--domain"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveService, Name: "secret-manager-change",
			Reason:  "deletes secrets or the policies, audit devices and tokens that guard them, or seals or shrinks the secret store's cluster",
			Instead: "read and list (vault kv get secret/app, vault policy list, infisical secrets); a vault kv delete keeps versions recoverable; ask a human",
			Match: func(c Call) bool {
				switch c.Program {
				case "vault":
					return c.Sub("delete") || c.Sub("policy", "delete") || c.Sub("audit", "disable") || c.Sub("token", "revoke") ||
						c.Sub("operator", "seal") || c.Sub("operator", "raft", "remove-peer") || c.Sub("operator", "rekey")
				case "infisical":
					return posIn(c, 0, "secrets", "folders") && deleteVerb(c.Pos(1))
				}
				return false
			},
			Deny: []string{"vault delete secret/myapp/config", "vault policy delete myapp-policy", "vault audit disable file/", "vault token revoke -self",
				"vault operator seal", "vault operator raft remove-peer node2", "infisical secrets delete API_KEY --env prod"},
			Allow: []string{"vault kv get secret/app", "vault policy list", "vault policy read myapp-policy", "vault token lookup", "vault read secret/myapp/config",
				"vault operator raft list-peers", "infisical secrets", "infisical secrets get API_KEY --env dev", "vault kv delete secret/app/flag"},
		},
		{
			ID: policy.RuleDestructiveService, Name: "secret-manager-api-delete",
			Reason:  "sends a DELETE to a secret manager's API (Vault, Doppler, Infisical, 1Password Connect)",
			Instead: "read with GET requests (curl http://127.0.0.1:8200/v1/sys/mounts); ask a human to delete secrets",
			HTTP: func(r httpreq.Request) bool {
				if deleteTo("api.doppler.com", "app.infisical.com", "*.infisical.com")(r) {
					return true
				}
				return r.May("DELETE") && anyURL(r, func(u httpreq.URL) bool {
					s := u.Segments()
					vault := u.Port == "8200" || strings.Contains(u.Host, "vault")
					return vault && len(s) > 0 && s[0] == "v1"
				})
			},
			Deny: []string{"curl -X DELETE http://127.0.0.1:8200/v1/secret/metadata/app", "curl --request DELETE https://vault.internal:8200/v1/sys/mounts/secret",
				"curl -X DELETE https://api.doppler.com/v3/configs/config/secret?project=backend&config=prd&name=API_KEY"},
			Allow: []string{"curl http://127.0.0.1:8200/v1/secret/data/app", "curl https://api.doppler.com/v3/configs/config/secrets?project=backend&config=dev"},
		},
	},
}
