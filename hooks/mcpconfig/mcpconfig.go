package mcpconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Server is one configured MCP server.
type Server struct {
	Name   string
	Scope  string          // "project" (.mcp.json), "local" or "user" (~/.claude.json)
	Source string          // the file it came from
	Config json.RawMessage // its configuration, passed on unchanged
}

// Load returns the servers configured for the project at root, by name.
// Like Claude Code, a local-scope server hides a project one of the same
// name, which hides a user one. Missing files are no servers; a file that
// is not valid JSON is an error naming it.
func Load(root, home string) (map[string]Server, error) {
	out := map[string]Server{}
	add := func(scope, file string, servers map[string]json.RawMessage) {
		for name, cfg := range servers {
			out[name] = Server{Name: name, Scope: scope, Source: file, Config: cfg}
		}
	}
	var user struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
		Projects   map[string]struct {
			MCPServers map[string]json.RawMessage `json:"mcpServers"`
		} `json:"projects"`
	}
	userFile := ""
	if home != "" {
		userFile = filepath.Join(home, ".claude.json")
		if err := readJSON(userFile, &user); err != nil {
			return nil, err
		}
	}
	add("user", userFile, user.MCPServers)
	var project struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	projectFile := filepath.Join(root, ".mcp.json")
	if err := readJSON(projectFile, &project); err != nil {
		return nil, err
	}
	add("project", projectFile, project.MCPServers)
	if p, ok := user.Projects[root]; ok {
		add("local", userFile, p.MCPServers)
	}
	return out, nil
}

func readJSON(file string, v any) error {
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read %s: %v", file, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s is not valid JSON (%v); fix it, or the MCP servers it lists cannot be used", file, err)
	}
	return nil
}

// Names returns the server names, sorted.
func Names(servers map[string]Server) []string {
	names := make([]string, 0, len(servers))
	for n := range servers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Select returns a --mcp-config document holding only the named servers.
// A name that is not configured is an error that lists what is.
func Select(servers map[string]Server, names []string) ([]byte, error) {
	chosen := map[string]json.RawMessage{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		s, ok := servers[n]
		if !ok {
			have := "none are configured"
			if len(servers) > 0 {
				have = "configured: " + strings.Join(Names(servers), ", ")
			}
			return nil, fmt.Errorf("no MCP server named %q (%s in .mcp.json or ~/.claude.json)", n, have)
		}
		chosen[n] = s.Config
	}
	return json.MarshalIndent(map[string]any{"mcpServers": chosen}, "", "  ")
}
