package rules

import (
	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// DestructiveSQL (G8): schema and data removal through any database
// client or framework command.
var DestructiveSQL = Rule{
	ID:      policy.RuleDestructiveSQL,
	Reason:  "the statement drops or empties tables, or changes every row",
	Instead: "add a WHERE clause that names the rows, or hand schema and data removal to a reviewed migration run by a human",
	Deny: []string{
		"psql -c 'DROP TABLE users'",
		`psql -c "DELETE FROM t"`,
		`psql -c "DELETE FROM t WHERE 1=1"`,
		`mysql -e "TRUNCATE t"`,
		"rails db:drop",
		"npx prisma migrate reset",
		"python manage.py flush",
		"redis-cli keys 'session:*' | xargs redis-cli del",
	},
	Allow: []string{
		`psql -c "DELETE FROM t WHERE id = 3"`,
		"rails db:migrate",
		`psql -c "SELECT count(*) FROM t"`,
		"redis-cli del session:123",
	},
	Judge: judgeDestructiveSQL,
}

// judgeDestructiveSQL denies every destructive statement of SQL, whoever
// runs it (a shell client or an MCP tool), and every wholesale wipe.
func judgeDestructiveSQL(e effect.Effect, _ *Facts) []Verdict {
	switch x := e.(type) {
	case effect.SQL:
		var out []Verdict
		for _, s := range x.Destructive {
			out = append(out, Verdict{Reason: x.By + " runs " + s.Why + ": " + clip(s.Text)})
		}
		return out
	case effect.DataWipe:
		keys := "delete the keys you mean with DEL or UNLINK"
		switch x.What {
		case effect.WholeDatabase:
			return []Verdict{{Reason: x.Tool + " deletes a whole database"}}
		case effect.FrameworkData:
			return []Verdict{{Reason: x.Tool + " drops or wipes the database's data"}}
		case effect.EveryKey:
			return []Verdict{{Reason: x.Tool + " deletes every key", Instead: keys}}
		case effect.EveryKeyInput:
			return []Verdict{{Reason: x.Tool + " input runs FLUSHALL/FLUSHDB, which deletes every key", Instead: keys}}
		case effect.ChosenKeys:
			return []Verdict{{Reason: x.Tool + " deletes keys chosen at run time (every key a pattern matched, typically)", Instead: "delete the keys you mean by name (redis-cli DEL session:123); list them first with redis-cli --scan --pattern"}}
		case effect.Documents:
			return []Verdict{{Reason: x.Tool + " drops a collection or database, or deletes every document", Instead: "delete the documents you mean with a filter"}}
		}
	}
	return nil
}
