package guard

import (
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
	"github.com/swarm-guard/swarm-guard/guard/internal/sqlcheck"
)

// sqlClient describes where a database client takes SQL from.
type sqlClient struct {
	spec    shell.Spec
	sqlOpts []string // options whose value is SQL
	// positional: SQL comes as operands after the database file (sqlite3 db 'SQL').
	positional bool
	outOpts    []string // options whose value is a file the client writes
	// attachedPassword: -pSECRET is one word (mysql), not a bundle of flags.
	attachedPassword bool
}

var sqlClients = sync.OnceValue(func() map[string]sqlClient {
	m := map[string]sqlClient{
		"psql": {spec: shell.Spec{Short: "cdfhpUvoLPTFR", Long: shell.Longs("command", "dbname", "file", "host", "port", "username", "set", "variable", "output", "log-file", "pset", "field-separator", "record-separator", "table-attr")},
			sqlOpts: []string{"c", "command"}, outOpts: []string{"o", "output", "L", "log-file"}},
		"mysql": {spec: shell.Spec{Short: "euhPDSO", Long: shell.Longs("execute", "user", "host", "port", "database", "socket", "defaults-file", "defaults-extra-file", "init-command", "default-character-set", "ssl-ca", "ssl-cert", "ssl-key", "tee", "pager", "login-path")},
			sqlOpts: []string{"e", "execute", "init-command"}, outOpts: []string{"tee"}, attachedPassword: true},
		"sqlite3": {spec: shell.Spec{Long: shell.Longs("cmd", "init", "separator", "newline", "nullvalue", "vfs", "maxsize", "mmap", "pagecache", "lookaside", "heap")},
			sqlOpts: []string{"cmd"}, positional: true},
		"duckdb": {spec: shell.Spec{Short: "cs", Long: shell.Longs("cmd", "init", "separator", "newline", "nullvalue", "c", "s")},
			sqlOpts: []string{"c", "s", "cmd"}, positional: true},
		"sqlcmd": {spec: shell.Spec{Short: "QqSUPdiovHlstwWabcefhkmruxyYz", Long: shell.Longs("query", "server", "user-name", "database", "input-file", "output-file")},
			sqlOpts: []string{"Q", "q", "query"}, outOpts: []string{"o", "output-file"}},
		"clickhouse-client": {spec: shell.Spec{Short: "qhpuPd", Long: shell.Longs("query", "host", "port", "user", "password", "database", "queries-file", "format", "config-file")},
			sqlOpts: []string{"q", "query"}},
		"clickhouse-local": {spec: shell.Spec{Short: "qS", Long: shell.Longs("query", "structure", "input-format", "output-format", "file", "queries-file")},
			sqlOpts: []string{"q", "query"}},
		"usql":      {spec: shell.Spec{Short: "cfo", Long: shell.Longs("command", "file", "out")}, sqlOpts: []string{"c", "command"}},
		"snowsql":   {spec: shell.Spec{Short: "qfacudsrwo", Long: shell.Longs("query", "filename", "accountname", "config", "username", "dbname", "schemaname", "rolename", "warehouse", "option")}, sqlOpts: []string{"q", "query"}},
		"trino":     {spec: shell.Spec{Long: shell.Longs("execute", "server", "catalog", "schema", "user", "file")}, sqlOpts: []string{"execute"}},
		"presto":    {spec: shell.Spec{Long: shell.Longs("execute", "server", "catalog", "schema", "user", "file")}, sqlOpts: []string{"execute"}},
		"spark-sql": {spec: shell.Spec{Short: "ef", Long: shell.Longs("conf", "master", "database")}, sqlOpts: []string{"e"}},
		"hive":      {spec: shell.Spec{Short: "ef", Long: shell.Longs("database", "hiveconf", "hivevar")}, sqlOpts: []string{"e"}},
		"beeline":   {spec: shell.Spec{Short: "eufnpd", Long: shell.Longs("hiveconf", "hivevar")}, sqlOpts: []string{"e"}},
		"pgcli":     {spec: shell.Spec{Short: "hpUd", Long: shell.Longs("host", "port", "username", "dbname")}},
		"mycli":     {spec: shell.Spec{Short: "hPuDe", Long: shell.Longs("host", "port", "user", "database", "execute")}, sqlOpts: []string{"e", "execute"}},
		"litecli":   {spec: shell.Spec{Short: "e", Long: shell.Longs("execute")}, sqlOpts: []string{"e", "execute"}},
	}
	m["mariadb"] = m["mysql"]
	m["sqlite"] = m["sqlite3"]
	return m
})

// checkSQL hands the SQL inv runs from source (-c/-e, argument, input)
// to the rules (guard/rules/destructive_sql.go). A part only known at run
// time reads as a name, so `DELETE FROM $t` is still a DELETE without WHERE.
func (a *analyzer) checkSQL(inv *shell.Invocation, sql, source string) {
	a.judge(inv, sqlEffect(inv.Name+" "+source, strings.ReplaceAll(sql, shell.UnknownMark, "x")))
}

// sqlEffect is the SQL text that by runs, read once.
func sqlEffect(by, text string) effect.SQL {
	e := effect.SQL{By: by, Text: text}
	for _, f := range sqlcheck.Destructive(text) {
		e.Destructive = append(e.Destructive, effect.Statement{Text: f.Statement, Why: f.Why})
	}
	return e
}

func (a *analyzer) sqlClient(inv *shell.Invocation) {
	c := sqlClients()[inv.Name]
	args := normalizeSingleDashLong(inv.Args(), c.spec)
	if c.attachedPassword {
		kept := args[:0:0]
		for _, x := range args {
			if !x.Dynamic && strings.HasPrefix(x.Text, "-p") && len(x.Text) > 2 {
				continue
			}
			kept = append(kept, x)
		}
		args = kept
	}
	p := shell.ParseOpts(args, c.spec)
	found := false
	for _, v := range p.Values(c.sqlOpts...) {
		found = true
		a.checkSQL(inv, v.Template(), "-c/-e")
	}
	for _, f := range p.Values(c.outOpts...) {
		a.writePath(inv, f, inv.Name+" writes")
	}
	if c.positional && len(p.Operands) > 1 {
		for _, v := range p.Operands[1:] {
			found = true
			a.checkSQL(inv, v.Template(), "argument")
		}
	}
	if !found {
		a.sqlFromStdin(inv)
	}
}

// normalizeSingleDashLong turns sqlite3's -cmd into --cmd so the generic
// option parser sees one option, not -c -m -d.
func normalizeSingleDashLong(args []shell.Word, spec shell.Spec) []shell.Word {
	out := make([]shell.Word, len(args))
	for i, x := range args {
		if !x.Dynamic && len(x.Text) > 2 && x.Text[0] == '-' && x.Text[1] != '-' && spec.Long[x.Text[1:]] {
			x.Text = "-" + x.Text
		}
		out[i] = x
	}
	return out
}

func (a *analyzer) sqlFromStdin(inv *shell.Invocation) {
	if inv.Stdin == nil || inv.Stdin.File {
		return
	}
	if inv.Stdin.Dynamic {
		return // SQL from a file or a program: the guard cannot see it
	}
	a.checkSQL(inv, inv.Stdin.Text, "input")
}

func (a *analyzer) clickhouse(inv *shell.Invocation) {
	args := inv.Args()
	if len(args) == 0 {
		return
	}
	sub := *inv
	switch args[0].Text {
	case "client":
		sub.Name = "clickhouse-client"
	case "local":
		sub.Name = "clickhouse-local"
	default:
		return
	}
	sub.Argv = append([]shell.Word{{Text: sub.Name}}, args[1:]...)
	a.sqlClient(&sub)
}

func (a *analyzer) cockroach(inv *shell.Invocation) {
	args := inv.Args()
	if len(args) == 0 || args[0].Text != "sql" {
		return
	}
	p := shell.ParseOpts(args[1:], shell.Spec{Short: "ed", Long: shell.Longs("execute", "database", "url", "host", "user", "certs-dir")})
	found := false
	for _, v := range p.Values("e", "execute") {
		found = true
		a.checkSQL(inv, v.Template(), "--execute")
	}
	if !found {
		a.sqlFromStdin(inv)
	}
}

func (a *analyzer) bigquery(inv *shell.Invocation) {
	args := inv.Args()
	for i, x := range args {
		if x.Text == "query" {
			for _, q := range args[i+1:] {
				if !strings.HasPrefix(q.Text, "-") || q.Dynamic {
					a.checkSQL(inv, q.Template(), "query")
				}
			}
			if len(args[i+1:]) == 0 {
				a.sqlFromStdin(inv)
			}
			return
		}
	}
}

func (a *analyzer) dropdb(inv *shell.Invocation) {
	a.judge(inv, effect.DataWipe{Tool: "dropdb", What: effect.WholeDatabase})
}

func (a *analyzer) mysqladmin(inv *shell.Invocation) {
	for _, x := range inv.Args() {
		if strings.EqualFold(x.Text, "drop") {
			a.judge(inv, effect.DataWipe{Tool: "mysqladmin drop", What: effect.WholeDatabase})
			return
		}
	}
}

func (a *analyzer) redisCli(inv *shell.Invocation) {
	args := inv.Args()
	for _, x := range args {
		switch strings.ToUpper(x.Text) {
		case "FLUSHALL", "FLUSHDB":
			a.judge(inv, effect.DataWipe{Tool: "redis-cli " + x.Text, What: effect.EveryKey})
			return
		}
	}
	// DEL or UNLINK of keys only known at run time: the keys a KEYS or
	// --scan pattern listed (redis-cli keys 'x*' | xargs redis-cli del),
	// which is every key of the pattern, unseen.
	if cmd, rest := redisCommand(args); cmd == "DEL" || cmd == "UNLINK" {
		for _, k := range rest {
			if k.Dynamic || k.Glob {
				a.judge(inv, effect.DataWipe{Tool: "redis-cli " + strings.ToLower(cmd), What: effect.ChosenKeys})
				return
			}
		}
	}
	if inv.Stdin != nil && !inv.Stdin.Dynamic {
		up := strings.ToUpper(inv.Stdin.Text)
		if strings.Contains(up, "FLUSHALL") || strings.Contains(up, "FLUSHDB") {
			a.judge(inv, effect.DataWipe{Tool: "redis-cli", What: effect.EveryKeyInput})
		}
	}
}

func (a *analyzer) mongo(inv *shell.Invocation) {
	var code []string
	p := shell.ParseOpts(inv.Args(), shell.Spec{Long: shell.Longs("eval", "host", "port", "username", "password", "authenticationDatabase", "file")})
	for _, v := range p.Values("eval") {
		code = append(code, v.Template())
	}
	if len(code) == 0 && inv.Stdin != nil && !inv.Stdin.Dynamic {
		code = append(code, inv.Stdin.Text)
	}
	for _, c := range code {
		if strings.Contains(c, "dropDatabase(") || strings.Contains(c, ".drop(") || strings.Contains(c, "deleteMany({})") || strings.Contains(c, "remove({})") {
			a.judge(inv, effect.DataWipe{Tool: inv.Name, What: effect.Documents})
			return
		}
	}
}

// redisValueOptions are redis-cli's options that take a value.
var redisValueOptions = map[string]bool{"-h": true, "-p": true, "-s": true, "-a": true, "-u": true, "-n": true, "-r": true,
	"-i": true, "-d": true, "-D": true, "--user": true, "--pass": true, "--cacert": true, "--cacertdir": true, "--cert": true,
	"--key": true, "--tls-ciphers": true, "--tls-ciphersuites": true, "--sni": true, "--pattern": true, "--count": true,
	"--quoted-pattern": true, "--eval": true, "--rdb": true, "--functions-rdb": true, "--memkeys-samples": true,
	"--pipe-timeout": true, "--cluster": true}

// redisCommand returns the Redis command a redis-cli invocation sends
// (upper case) and its arguments; "" when it sends none (interactive, or
// its input).
func redisCommand(args []shell.Word) (string, []shell.Word) {
	for i := 0; i < len(args); i++ {
		t := args[i].Text
		if !args[i].Static() {
			return "", nil
		}
		if strings.HasPrefix(t, "-") {
			if redisValueOptions[t] {
				i++
			}
			continue
		}
		return strings.ToUpper(t), args[i+1:]
	}
	return "", nil
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

// dbTask checks a framework's database task, and its arguments as file
// operands like any command the guard has no model of.
func (a *analyzer) dbTask(inv *shell.Invocation) {
	a.checkDBTask(inv, strings.TrimSuffix(inv.Name, "-cli"), inv.Args())
	a.genericCommand(inv)
}

// checkDBTask reports a framework task (rails db:drop, prisma migrate
// reset, manage.py flush) that destroys a database's data.
func (a *analyzer) checkDBTask(inv *shell.Invocation, tool string, args []shell.Word) {
	var words []string
	for _, x := range args {
		if x.Dynamic {
			words = append(words, "?")
			continue
		}
		words = append(words, x.Text)
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
