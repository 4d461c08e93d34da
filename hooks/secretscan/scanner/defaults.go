package scanner

//go:generate go run ./internal/gendefaults -o defaults_gen.go

// defaultRule is one rule of gitleaks' default config, pre-decoded at
// build time: its id, keywords (lower case) and the rule as JSON in the
// shape of config.ViperConfig's rule entries.
type defaultRule struct {
	id       string
	keywords []string
	requires []string // ids of [[rules.required]] companions
	doc      string
}
