package guard

import (
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/policy"
)

// TestSQLOneRuleForBothDoors: SQL typed into a shell client and SQL given
// to an MCP database tool are one effect (effect.SQL) judged by one rule,
// so they are denied for the same statements in the same words, every
// destructive statement a finding.
func TestSQLOneRuleForBothDoors(t *testing.T) {
	e := New(policy.Default())
	for _, sql := range []string{
		"DELETE FROM t; DROP TABLE u",
		"TRUNCATE t",
		"UPDATE t SET a = 1",
		"DELETE FROM t WHERE id = 3",
		"SELECT 1",
	} {
		bash := sqlFindings(e.CheckCommand("psql -c '"+sql+"'", testEnv()))
		mcp := sqlFindings(e.CheckMCP("mcp__postgres__query", []byte(`{"sql": "`+sql+`"}`), testEnv()))
		if len(bash) != len(mcp) || (len(bash) == 0) != (sql == "DELETE FROM t WHERE id = 3" || sql == "SELECT 1") {
			t.Errorf("%s: %d findings from psql, %d from MCP", sql, len(bash), len(mcp))
			continue
		}
		for i := range bash {
			b, m := bash[i], mcp[i]
			_, bw, _ := strings.Cut(b.Reason, " runs ")
			_, mw, _ := strings.Cut(m.Reason, " runs ")
			if b.Rule != policy.RuleDestructiveSQL || m.Rule != b.Rule || bw != mw {
				t.Errorf("%s: psql %s %q, MCP %s %q", sql, b.Rule, b.Reason, m.Rule, m.Reason)
			}
		}
	}
}

// sqlFindings are d's destructive-sql findings (an MCP call also has its
// mcp-access one).
func sqlFindings(d Decision) []Finding {
	var out []Finding
	for _, f := range d.Findings {
		if f.Rule == policy.RuleDestructiveSQL {
			out = append(out, f)
		}
	}
	return out
}
