package rules

import "github.com/swarm-guard/swarm-guard/policy"

// DestructiveDatastore: range and bucket deletes in key-value and
// time-series stores, topic and queue deletes in message brokers, and
// destroying Vault secrets. The patterns are the datastores and brokers
// packs' tables (guard/packs/datastores.go, guard/packs/storage.go).
// SQL clients, redis-cli and mongosh are judged by destructive-sql.
var DestructiveDatastore = Rule{
	ID:      policy.RuleDestructiveDatastore,
	Reason:  "a store's keys, a broker's topics and a vault's secrets are other services' data, and a range delete takes all of it",
	Instead: "delete the keys you mean one by one, by their full name, or ask a human",
	Deny:    []string{"etcdctl del --prefix /", "consul kv delete -recurse app/"},
	Allow:   []string{"etcdctl del /config/feature-x", "consul kv get -recurse app/"},
	Judge:   judgePackOperation(policy.RuleDestructiveDatastore),
}
