package rules

import "github.com/swarm-guard/swarm-guard/policy"

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
	},
	Allow: []string{
		`psql -c "DELETE FROM t WHERE id = 3"`,
		"rails db:migrate",
		`psql -c "SELECT count(*) FROM t"`,
	},
}
