// Package keywords holds the keywords of gitleaks' default rules, for the
// light swarm-guard binary (which must not link gitleaks): a text that
// holds none of them cannot hold a secret the default rules find, so the
// hook need not ask the scanner about it. TestKeywordsMatchTheRules in the
// scanner package keeps the list equal to the rules linked there.
package keywords
