// Package packs holds the guard's knowledge of infrastructure and system
// tools as data: one file per family of tools (Terraform, Kubernetes,
// cloud CLIs, remote storage and backups, containers, data stores, message
// brokers and Vault, system commands), each rule with
// its policy rule id, its reason, what to do instead, its matcher over the
// invocation's words, and the commands it must deny and must allow beside
// it. A newcomer who asks "why is terraform destroy denied?" opens
// terraform.go and finds the answer and its examples in one place.
//
// The vendor packs (payment.go … cicd.go: hosted services such as
// Stripe, Algolia, Cloudflare, PagerDuty, Jenkins) are opt-in: the
// policy's [packs] enable names them (policy.VendorPacks), and a pack
// that is off costs nothing per command. Besides their CLIs' invocations
// they judge the HTTP requests curl, wget, httpie and xh send to their
// APIs (Rule.HTTP over guard/internal/httpreq's Request: method, host, path and
// the body written on the command line). Their rule is
// destructive-service.
//
// The package is pure (no I/O); guard registers a handler for every
// program a pack names, turns each matching pattern into an effect
// (effect.ToolOperation) and hands it to the pattern's rule in
// guard/rules (destructive_terraform.go …), which decides it. The examples are
// run through the whole engine with the corpus (guard's TestCorpus), and the
// pack table of docs/rules.md is generated from them (go test ./guard -run
// TestPackTable -update-packs).
package packs
