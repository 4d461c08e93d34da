package effect

// The tool packs' family (guard/packs): infrastructure and system tools
// (Terraform, Kubernetes, cloud CLIs, containers, data stores, system
// commands). A pack's table says which invocations are which operation;
// the pack rule's judge (guard/rules/destructive_*.go) decides them.

// ToolOperation is one operation a tool pack recognised in an
// invocation: the pack's pattern names it and carries its texts, so the
// reason and the alternative stay in the pack's table beside its
// examples, while the rule the pattern belongs to judges it like every
// other effect (policy, oversight, audit and check see one finding).
type ToolOperation struct {
	Pack    string // the pack: "terraform", "kubernetes", ...
	Pattern string // the pack's pattern: "terraform-destroy"
	Rule    string // the policy rule id the pattern belongs to: "destructive-terraform"
	Program string // the program as invoked: "tofu"
	Op      string // what it does, completing "<Program> ...": the pattern's reason
	Instead string // the pattern's safe alternative
}

func (ToolOperation) isEffect() {}
