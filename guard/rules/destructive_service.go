package rules

import "github.com/swarm-guard/swarm-guard/policy"

// DestructiveService: deleting a hosted service's data or configuration
// through its CLI or its HTTP API. The patterns are the vendor packs'
// tables (guard/packs/payment.go … cicd.go), judged only for the packs
// the policy's [packs] enable turns on; the examples below run with every
// vendor pack on (the corpus policy).
var DestructiveService = Rule{
	ID:      policy.RuleDestructiveService,
	Reason:  "a hosted service's customers, indexes, flags, records and pipelines are shared by everyone who uses it, and its API deletes them for good",
	Instead: "read with the service's list, get and describe calls (GET requests); ask a human to delete",
	Deny:    []string{"stripe customers delete cus_123", "curl -X DELETE https://api.stripe.com/v1/customers/cus_123"},
	Allow:   []string{"stripe customers list", "curl https://api.stripe.com/v1/customers"},
	Judge:   judgePackOperation(policy.RuleDestructiveService),
}
