package guard

import (
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/sqlcheck"
)

// sqlClient describes where a database client takes SQL from.
type sqlClient struct {
	spec    optSpec
	sqlOpts []string // options whose value is SQL
	// positional: SQL comes as operands after the database file (sqlite3 db 'SQL').
	positional bool
	outOpts    []string // options whose value is a file the client writes
	// attachedPassword: -pSECRET is one word (mysql), not a bundle of flags.
	attachedPassword bool
}

var sqlClients = sync.OnceValue(func() map[string]sqlClient {
	m := map[string]sqlClient{
		"psql": {spec: optSpec{short: "cdfhpUvoLPTFR", long: longs("command", "dbname", "file", "host", "port", "username", "set", "variable", "output", "log-file", "pset", "field-separator", "record-separator", "table-attr")},
			sqlOpts: []string{"c", "command"}, outOpts: []string{"o", "output", "L", "log-file"}},
		"mysql": {spec: optSpec{short: "euhPDSO", long: longs("execute", "user", "host", "port", "database", "socket", "defaults-file", "defaults-extra-file", "init-command", "default-character-set", "ssl-ca", "ssl-cert", "ssl-key", "tee", "pager", "login-path")},
			sqlOpts: []string{"e", "execute", "init-command"}, outOpts: []string{"tee"}, attachedPassword: true},
		"sqlite3": {spec: optSpec{long: longs("cmd", "init", "separator", "newline", "nullvalue", "vfs", "maxsize", "mmap", "pagecache", "lookaside", "heap")},
			sqlOpts: []string{"cmd"}, positional: true},
		"duckdb": {spec: optSpec{short: "cs", long: longs("cmd", "init", "separator", "newline", "nullvalue", "c", "s")},
			sqlOpts: []string{"c", "s", "cmd"}, positional: true},
		"sqlcmd": {spec: optSpec{short: "QqSUPdiovHlstwWabcefhkmruxyYz", long: longs("query", "server", "user-name", "database", "input-file", "output-file")},
			sqlOpts: []string{"Q", "q", "query"}, outOpts: []string{"o", "output-file"}},
		"clickhouse-client": {spec: optSpec{short: "qhpuPd", long: longs("query", "host", "port", "user", "password", "database", "queries-file", "format", "config-file")},
			sqlOpts: []string{"q", "query"}},
		"clickhouse-local": {spec: optSpec{short: "qS", long: longs("query", "structure", "input-format", "output-format", "file", "queries-file")},
			sqlOpts: []string{"q", "query"}},
		"usql":      {spec: optSpec{short: "cfo", long: longs("command", "file", "out")}, sqlOpts: []string{"c", "command"}},
		"snowsql":   {spec: optSpec{short: "qfacudsrwo", long: longs("query", "filename", "accountname", "config", "username", "dbname", "schemaname", "rolename", "warehouse", "option")}, sqlOpts: []string{"q", "query"}},
		"trino":     {spec: optSpec{long: longs("execute", "server", "catalog", "schema", "user", "file")}, sqlOpts: []string{"execute"}},
		"presto":    {spec: optSpec{long: longs("execute", "server", "catalog", "schema", "user", "file")}, sqlOpts: []string{"execute"}},
		"spark-sql": {spec: optSpec{short: "ef", long: longs("conf", "master", "database")}, sqlOpts: []string{"e"}},
		"hive":      {spec: optSpec{short: "ef", long: longs("database", "hiveconf", "hivevar")}, sqlOpts: []string{"e"}},
		"beeline":   {spec: optSpec{short: "eufnpd", long: longs("hiveconf", "hivevar")}, sqlOpts: []string{"e"}},
		"pgcli":     {spec: optSpec{short: "hpUd", long: longs("host", "port", "username", "dbname")}},
		"mycli":     {spec: optSpec{short: "hPuDe", long: longs("host", "port", "user", "database", "execute")}, sqlOpts: []string{"e", "execute"}},
		"litecli":   {spec: optSpec{short: "e", long: longs("execute")}, sqlOpts: []string{"e", "execute"}},
	}
	m["mariadb"] = m["mysql"]
	m["sqlite"] = m["sqlite3"]
	return m
})

func registerSQL() {
	for n := range sqlClients() {
		handlers[n] = (*analyzer).sqlClient
	}
	handlers["clickhouse"] = (*analyzer).clickhouse
	handlers["cockroach"] = (*analyzer).cockroach
	handlers["bq"] = (*analyzer).bigquery
	handlers["dropdb"] = (*analyzer).dropdb
	handlers["mysqladmin"] = (*analyzer).mysqladmin
	handlers["redis-cli"] = (*analyzer).redisCli
	handlers["mongosh"] = (*analyzer).mongo
	handlers["mongo"] = (*analyzer).mongo
}

// checkSQL hands the SQL inv runs from source (-c/-e, argument, input)
// to the rules (guard/rules/destructive_sql.go). A part only known at run
// time reads as a name, so `DELETE FROM $t` is still a DELETE without WHERE.
func (a *analyzer) checkSQL(inv *invocation, sql, source string) {
	a.judge(inv, sqlEffect(inv.name+" "+source, strings.ReplaceAll(sql, unknownMark, "x")))
}

// sqlEffect is the SQL text that by runs, read once.
func sqlEffect(by, text string) effect.SQL {
	e := effect.SQL{By: by, Text: text}
	for _, f := range sqlcheck.Destructive(text) {
		e.Destructive = append(e.Destructive, effect.Statement{Text: f.Statement, Why: f.Why})
	}
	return e
}

func (a *analyzer) sqlClient(inv *invocation) {
	c := sqlClients()[inv.name]
	args := normalizeSingleDashLong(inv.args(), c.spec)
	if c.attachedPassword {
		kept := args[:0:0]
		for _, x := range args {
			if !x.dynamic && strings.HasPrefix(x.s, "-p") && len(x.s) > 2 {
				continue
			}
			kept = append(kept, x)
		}
		args = kept
	}
	p := parseOpts(args, c.spec)
	found := false
	for _, v := range p.values(c.sqlOpts...) {
		found = true
		a.checkSQL(inv, v.template(), "-c/-e")
	}
	for _, f := range p.values(c.outOpts...) {
		a.writePath(inv, f, inv.name+" writes")
	}
	if c.positional && len(p.operands) > 1 {
		for _, v := range p.operands[1:] {
			found = true
			a.checkSQL(inv, v.template(), "argument")
		}
	}
	if !found {
		a.sqlFromStdin(inv)
	}
}

// normalizeSingleDashLong turns sqlite3's -cmd into --cmd so the generic
// option parser sees one option, not -c -m -d.
func normalizeSingleDashLong(args []arg, spec optSpec) []arg {
	out := make([]arg, len(args))
	for i, x := range args {
		if !x.dynamic && len(x.s) > 2 && x.s[0] == '-' && x.s[1] != '-' && spec.long[x.s[1:]] {
			x.s = "-" + x.s
		}
		out[i] = x
	}
	return out
}

func (a *analyzer) sqlFromStdin(inv *invocation) {
	if inv.in == nil || inv.in.file {
		return
	}
	if inv.in.dynamic {
		return // SQL from a file or a program: the guard cannot see it
	}
	a.checkSQL(inv, inv.in.text, "input")
}

func (a *analyzer) clickhouse(inv *invocation) {
	args := inv.args()
	if len(args) == 0 {
		return
	}
	sub := *inv
	switch args[0].s {
	case "client":
		sub.name = "clickhouse-client"
	case "local":
		sub.name = "clickhouse-local"
	default:
		return
	}
	sub.argv = append([]arg{{s: sub.name}}, args[1:]...)
	a.sqlClient(&sub)
}

func (a *analyzer) cockroach(inv *invocation) {
	args := inv.args()
	if len(args) == 0 || args[0].s != "sql" {
		return
	}
	p := parseOpts(args[1:], optSpec{short: "ed", long: longs("execute", "database", "url", "host", "user", "certs-dir")})
	found := false
	for _, v := range p.values("e", "execute") {
		found = true
		a.checkSQL(inv, v.template(), "--execute")
	}
	if !found {
		a.sqlFromStdin(inv)
	}
}

func (a *analyzer) bigquery(inv *invocation) {
	args := inv.args()
	for i, x := range args {
		if x.s == "query" {
			for _, q := range args[i+1:] {
				if !strings.HasPrefix(q.s, "-") || q.dynamic {
					a.checkSQL(inv, q.template(), "query")
				}
			}
			if len(args[i+1:]) == 0 {
				a.sqlFromStdin(inv)
			}
			return
		}
	}
}

func (a *analyzer) dropdb(inv *invocation) {
	a.judge(inv, effect.DataWipe{Tool: "dropdb", What: effect.WholeDatabase})
}

func (a *analyzer) mysqladmin(inv *invocation) {
	for _, x := range inv.args() {
		if strings.EqualFold(x.s, "drop") {
			a.judge(inv, effect.DataWipe{Tool: "mysqladmin drop", What: effect.WholeDatabase})
			return
		}
	}
}

func (a *analyzer) redisCli(inv *invocation) {
	for _, x := range inv.args() {
		switch strings.ToUpper(x.s) {
		case "FLUSHALL", "FLUSHDB":
			a.judge(inv, effect.DataWipe{Tool: "redis-cli " + x.s, What: effect.EveryKey})
			return
		}
	}
	if inv.in != nil && !inv.in.dynamic {
		up := strings.ToUpper(inv.in.text)
		if strings.Contains(up, "FLUSHALL") || strings.Contains(up, "FLUSHDB") {
			a.judge(inv, effect.DataWipe{Tool: "redis-cli", What: effect.EveryKeyInput})
		}
	}
}

func (a *analyzer) mongo(inv *invocation) {
	var code []string
	p := parseOpts(inv.args(), optSpec{long: longs("eval", "host", "port", "username", "password", "authenticationDatabase", "file")})
	for _, v := range p.values("eval") {
		code = append(code, v.template())
	}
	if len(code) == 0 && inv.in != nil && !inv.in.dynamic {
		code = append(code, inv.in.text)
	}
	for _, c := range code {
		if strings.Contains(c, "dropDatabase(") || strings.Contains(c, ".drop(") || strings.Contains(c, "deleteMany({})") || strings.Contains(c, "remove({})") {
			a.judge(inv, effect.DataWipe{Tool: inv.name, What: effect.Documents})
			return
		}
	}
}

// Framework tasks that drop or wipe a database.
var dbWipeTasks = map[string][]string{
	"rails":     {"db:drop", "db:reset", "db:purge", "db:schema:load", "db:structure:load", "db:migrate:reset", "db:truncate_all", "db:setup"},
	"rake":      {"db:drop", "db:reset", "db:purge", "db:schema:load", "db:structure:load", "db:migrate:reset", "db:truncate_all", "db:setup"},
	"prisma":    {"migrate reset", "db push --force-reset", "db push --accept-data-loss"},
	"artisan":   {"migrate:fresh", "migrate:reset", "migrate:refresh", "db:wipe"},
	"manage.py": {"flush", "reset_db", "sqlflush"},
	"sequelize": {"db:drop", "db:migrate:undo:all"},
	"supabase":  {"db reset"},
	"knex":      {"migrate:rollback --all"},
}

func registerDBTasks() {
	for n := range dbWipeTasks {
		handlers[n] = (*analyzer).dbTask // ./manage.py and ./artisan run directly too
	}
	handlers["sequelize-cli"] = (*analyzer).dbTask
}

// dbTask checks a framework's database task, and its arguments as file
// operands like any command the guard has no model of.
func (a *analyzer) dbTask(inv *invocation) {
	a.checkDBTask(inv, strings.TrimSuffix(inv.name, "-cli"), inv.args())
	a.genericCommand(inv)
}

// checkDBTask reports a framework task (rails db:drop, prisma migrate
// reset, manage.py flush) that destroys a database's data.
func (a *analyzer) checkDBTask(inv *invocation, tool string, args []arg) {
	var words []string
	for _, x := range args {
		if x.dynamic {
			words = append(words, "?")
			continue
		}
		words = append(words, x.s)
	}
	line := " " + strings.Join(words, " ") + " "
	for _, task := range dbWipeTasks[tool] {
		first, rest, _ := strings.Cut(task, " ")
		if !strings.Contains(line, " "+first+" ") {
			continue
		}
		matched := true
		for _, w := range strings.Fields(rest) {
			if !strings.Contains(line, " "+w+" ") {
				matched = false
			}
		}
		if matched {
			a.judge(inv, effect.DataWipe{Tool: tool + " " + task, What: effect.FrameworkData})
			return
		}
	}
}
