// Package redact hides secret-looking values (tokens, keys, passwords,
// credentials in URLs, private-key blocks) in text that is about to be
// logged or shown. It is a cheap regular-expression pass for the hot path;
// the gitleaks scanner is the thorough check.
package redact
