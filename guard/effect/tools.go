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

// HostMount is a host path a container is started with, bind-mounted into
// it (docker run -v SRC:DST, --mount type=bind,source=SRC). The pack names
// which words are sources; the tool code resolves each like any path
// operand, and the container rule judges where it lies.
type HostMount struct {
	Pack    string // the pack: "containers"
	Pattern string // the pack's pattern: "container-host-access"
	Program string // the program as invoked: "docker", "podman"
	// Source is the host path: Path absolute and cleaned, or Dynamic
	// when only known at run time (Shown spells it then).
	Source Target
}

func (HostMount) isEffect() {}

// ForkBomb is a shell function that starts copies of itself in a pipeline
// or in the background (:(){ :|:& };:), called: the processes double until
// the machine has none left for anyone.
type ForkBomb struct {
	Function string // the function's name (":", "bomb")
}

func (ForkBomb) isEffect() {}
