package agentrun

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/swarm-guard/swarm-guard/hooks/mcpconfig"
)

// restrictMCP gives the agent only the MCP servers its task needs: --mcp,
// else the policy's [mcp.tasks] entry for --task. claude gets a config
// holding just those (--mcp-config) and ignores every other
// (--strict-mcp-config). A named server that is not configured stops the
// run before anything starts.
func (r *runner) restrictMCP(root string) error {
	names := r.f.MCP
	if len(names) == 0 && r.f.Task != "" {
		names = r.pol.MCP.Tasks[r.f.Task]
	}
	if len(names) == 0 {
		return nil
	}
	if !isClaude(r.argv[0]) {
		return fmt.Errorf("%w: --mcp chooses the MCP servers of claude; %s is not claude", ErrUsage, filepath.Base(r.argv[0]))
	}
	servers, err := mcpconfig.Load(root, r.c.Getenv("HOME"))
	if err != nil {
		return err
	}
	doc, err := mcpconfig.Select(servers, names)
	if err != nil {
		return fmt.Errorf("not starting the agent: %v", err)
	}
	if err := os.MkdirAll(r.stateDir, 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %v", r.stateDir, err)
	}
	file := filepath.Join(r.stateDir, "mcp-"+r.runID+".json")
	if err := os.WriteFile(file, doc, 0o600); err != nil {
		return fmt.Errorf("cannot write the MCP configuration %s: %v", file, err)
	}
	argv := append([]string{r.argv[0], "--strict-mcp-config", "--mcp-config", file}, r.argv[1:]...)
	r.argv = argv
	return nil
}
