package rules

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/sqlcheck"
	"github.com/swarm-guard/swarm-guard/policy"
)

// sqlOf is the effect the engine builds for SQL text that by runs.
func sqlOf(by, text string) effect.SQL {
	e := effect.SQL{By: by, Text: text}
	for _, f := range sqlcheck.Destructive(text) {
		e.Destructive = append(e.Destructive, effect.Statement{Text: f.Statement, Why: f.Why})
	}
	return e
}

func TestJudgeDestructiveSQL(t *testing.T) {
	sql := policy.RuleDestructiveSQL
	checkVerdicts(t, &Facts{Policy: policy.Default()}, []verdictCase{
		{sqlOf("psql -c/-e", "DROP TABLE users"), []string{sql}, "psql -c/-e runs DROP TABLE: DROP TABLE users"},
		{sqlOf("MCP server db, tool query", "DROP TABLE users"), []string{sql}, "MCP server db, tool query runs DROP TABLE: DROP TABLE users"},
		{sqlOf("psql -c/-e", "DELETE FROM t; TRUNCATE u"), []string{sql, sql}, ""},
		// The judge decides on the statements the tool code read, not the text.
		{effect.SQL{By: "psql -c/-e", Text: "DROP TABLE t"}, nil, ""},
		{effect.SQL{By: "psql -c/-e", Destructive: []effect.Statement{{Text: "DROP TABLE t", Why: "DROP TABLE"}}}, []string{sql}, "psql -c/-e runs DROP TABLE: DROP TABLE t"},
		{sqlOf("psql -c/-e", "DELETE FROM x"), []string{sql}, ""},
		{sqlOf("psql -c/-e", "DELETE FROM t WHERE id = 3"), nil, ""},
		{sqlOf("MCP server db, tool query", "SELECT count(*) FROM t"), nil, ""},
		{effect.DataWipe{Tool: "dropdb", What: effect.WholeDatabase}, []string{sql}, "dropdb deletes a whole database"},
		{effect.DataWipe{Tool: "rails db:drop", What: effect.FrameworkData}, []string{sql}, "rails db:drop drops or wipes the database's data"},
		{effect.DataWipe{Tool: "redis-cli FLUSHALL", What: effect.EveryKey}, []string{sql}, "redis-cli FLUSHALL deletes every key"},
		{effect.DataWipe{Tool: "redis-cli", What: effect.EveryKeyInput}, []string{sql}, "redis-cli input runs FLUSHALL/FLUSHDB, which deletes every key"},
		{effect.DataWipe{Tool: "mongosh", What: effect.Documents}, []string{sql}, "mongosh drops a collection or database, or deletes every document"},
	})
}
