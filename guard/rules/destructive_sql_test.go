package rules

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

func TestJudgeDestructiveSQL(t *testing.T) {
	sql := policy.RuleDestructiveSQL
	checkVerdicts(t, &Facts{Policy: policy.Default()}, []verdictCase{
		{effect.SQL{By: "psql -c/-e", Text: "DROP TABLE users"}, []string{sql}, "psql -c/-e runs DROP TABLE: DROP TABLE users"},
		{effect.SQL{By: "MCP server db, tool query", Text: "DROP TABLE users"}, []string{sql}, "MCP server db, tool query runs DROP TABLE: DROP TABLE users"},
		{effect.SQL{By: "psql -c/-e", Text: "DELETE FROM t; TRUNCATE u"}, []string{sql, sql}, ""},
		{effect.SQL{By: "psql -c/-e", Text: "DELETE FROM x"}, []string{sql}, ""},
		{effect.SQL{By: "psql -c/-e", Text: "DELETE FROM t WHERE id = 3"}, nil, ""},
		{effect.SQL{By: "MCP server db, tool query", Text: "SELECT count(*) FROM t"}, nil, ""},
		{effect.DataWipe{Tool: "dropdb", What: effect.WholeDatabase}, []string{sql}, "dropdb deletes a whole database"},
		{effect.DataWipe{Tool: "rails db:drop", What: effect.FrameworkData}, []string{sql}, "rails db:drop drops or wipes the database's data"},
		{effect.DataWipe{Tool: "redis-cli FLUSHALL", What: effect.EveryKey}, []string{sql}, "redis-cli FLUSHALL deletes every key"},
		{effect.DataWipe{Tool: "redis-cli", What: effect.EveryKeyInput}, []string{sql}, "redis-cli input runs FLUSHALL/FLUSHDB, which deletes every key"},
		{effect.DataWipe{Tool: "mongosh", What: effect.Documents}, []string{sql}, "mongosh drops a collection or database, or deletes every document"},
	})
}
