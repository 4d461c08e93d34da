package packs

import (
	"regexp"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/policy"
)

// datastores: the command-line clients of key-value and time-series
// stores, MongoDB's restore tool and a GitLab instance's administration
// commands (gitlab-rails, gitlab-rake, gitlab-backup, gitlab-ctl), which
// act on the production database of everyone's GitLab. (SQL clients, redis-cli and mongosh are judged by the SQL rule,
// destructive-sql, which reads the statements they send.)
var datastores = &Pack{
	Name:     "datastores",
	Programs: []string{"etcdctl", "influx", "consul", "mongorestore", "gitlab-rails", "gitlab-rake", "gitlab-backup", "gitlab-ctl"},
	ValueFlags: []string{"--endpoints", "--host", "-t", "--token", "-o", "--org", "--http-addr", "--cacert", "--cert", "--key", "-b", "--bucket",
		"-e", "--environment"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveDatastore, Name: "kv-delete-range",
			Reason:  "deletes every key under a prefix or range, or a whole bucket",
			Instead: "delete the keys you mean one by one, by their full name",
			Match: func(c Call) bool {
				switch c.Program {
				case "etcdctl":
					return c.Sub("del") && (c.Has("--prefix", "--from-key") || c.Pos(2) != "")
				case "influx":
					return c.Sub("bucket", "delete") || c.Sub("delete")
				case "consul":
					return c.Sub("kv", "delete") && c.Has("-recurse") || c.Sub("snapshot", "restore")
				}
				return false
			},
			Deny: []string{"etcdctl del --prefix /", "etcdctl del '' --from-key", "etcdctl del /a /z", "influx bucket delete -n metrics",
				"influx delete --bucket metrics --start 1970-01-01T00:00:00Z --stop 2100-01-01T00:00:00Z", "consul kv delete -recurse app/",
				"consul kv delete -recurse=true ''", "consul snapshot restore backup.snap"},
			Allow: []string{"etcdctl get --prefix /config", "etcdctl del /config/feature-x", "etcdctl endpoint health", "influx bucket list",
				"influx query 'from(bucket:\"m\") |> range(start: -1h)'", "consul kv get -recurse app/", "consul kv delete app/flag", "consul snapshot save backup.snap"},
		},
		{
			ID: policy.RuleDestructiveDatastore, Name: "mongorestore-drop",
			Reason:  "drops every collection it restores before restoring it: documents written since the dump are lost",
			Instead: "restore into a new database (mongorestore --nsFrom 'app.*' --nsTo 'app_restore.*' dump/) and let a human swap it in",
			Match: func(c Call) bool {
				return c.Program == "mongorestore" && c.Has("--drop") && !c.Has("--dryRun")
			},
			Deny:  []string{"mongorestore --drop dump/", "mongorestore --uri mongodb://db:27017 --drop --gzip --archive=prod.gz"},
			Allow: []string{"mongorestore --nsFrom 'app.*' --nsTo 'app_restore.*' dump/", "mongorestore --dryRun --drop dump/"},
		},
		{
			ID: policy.RuleDestructiveDatastore, Name: "gitlab-restore-or-wipe",
			Reason:  "restores a backup over a GitLab instance (its database and repositories as of the backup: everything since is lost), wipes its database, or erases the installation's data",
			Instead: "create a backup (gitlab-backup create) and read the instance's state (gitlab-rake gitlab:check, gitlab-ctl status); ask a human to restore",
			Match: func(c Call) bool {
				switch c.Program {
				case "gitlab-backup":
					return c.Sub("restore")
				case "gitlab-rake":
					return c.AnyPos(0, func(w string) bool { return gitlabWipeTasks[strings.ToLower(w)] })
				case "gitlab-ctl":
					return c.Sub("cleanse") || c.Sub("uninstall") || c.Sub("remove-accounts")
				}
				return false
			},
			Deny: []string{"gitlab-rake gitlab:backup:restore", "sudo gitlab-rake gitlab:backup:restore BACKUP=1700000000_2026_11_27_17.5.0",
				"gitlab-backup restore", "gitlab-backup restore BACKUP=1700000000_2026_11_27_17.5.0 force=yes", "gitlab-rake db:drop", "gitlab-ctl cleanse"},
			Allow: []string{"gitlab-backup create", "gitlab-rake gitlab:backup:create", "gitlab-rake gitlab:check SANITIZE=true", "gitlab-rake db:migrate:status",
				"gitlab-ctl status", "gitlab-ctl reconfigure"},
		},
		{
			ID: policy.RuleDestructiveDatastore, Name: "gitlab-rails-runner-writes",
			Reason:  "runs Ruby against a GitLab instance's production database that deletes or changes records (or a script file the guard cannot read)",
			Instead: "read with a query that changes nothing (gitlab-rails runner 'puts User.count'); ask a human to delete or change records",
			Match: func(c Call) bool {
				if c.Program != "gitlab-rails" || !c.Sub("runner") && !c.Sub("r") {
					return false
				}
				code := c.Pos(1)
				if code == "" {
					return c.PosDynamic(1) || len(c.Positional) > 1 // code only known at run time
				}
				if strings.HasSuffix(code, ".rb") || strings.HasPrefix(code, "/") || strings.HasPrefix(code, "./") || code == "-" {
					return true // a script file or standard input: unread
				}
				return rubyWrites().MatchString(code)
			},
			Deny: []string{"gitlab-rails runner 'User.where(state: \"blocked\").delete_all'", "gitlab-rails runner -e production 'Project.find(42).destroy!'",
				"sudo gitlab-rails runner 'ApplicationSetting.current.update!(signup_enabled: true)'", "gitlab-rails runner /tmp/cleanup.rb",
				"gitlab-rails runner 'ActiveRecord::Base.connection.execute(\"TRUNCATE ci_builds\")'", "gitlab-rails r 'Ci::Pipeline.where(project_id: 1).each(&:destroy)'"},
			Allow: []string{"gitlab-rails runner 'puts User.count'", "gitlab-rails runner -e production 'puts Project.find(42).name'",
				"gitlab-rails runner 'p Feature.enabled?(:x)'", "gitlab-rails --version"},
		},
	},
}

// gitlabWipeTasks are the gitlab-rake tasks that replace or empty the
// instance's data.
var gitlabWipeTasks = map[string]bool{"gitlab:backup:restore": true, "gitlab:backup:db:restore": true,
	"gitlab:backup:repo:restore": true, "db:drop": true, "db:reset": true, "db:schema:load": true, "db:structure:load": true,
	"gitlab:db:drop_tables": true, "gitlab:db:truncate_legacy_tables:main": true, "gitlab:db:truncate_legacy_tables:ci": true,
	"gitlab:setup": true}

// rubyWrites matches Ruby that deletes or changes records or files, or
// runs SQL or shell commands: ActiveRecord's destroy/delete/update
// families, save, raw SQL, FileUtils and system.
var rubyWrites = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\.|&:|\b)(?:destroy(?:_all|_by)?|delete(?:_all|_by)?|really_destroy|update(?:_all|_column|_columns|_attribute|_attributes)?|save|toggle|increment|decrement|touch_all|insert(?:_all)?|upsert(?:_all)?|truncate|drop_table|execute|exec_query|exec_update|exec_delete|remove|purge|block|ban|rm_rf|rm_r|rm|system|spawn|exec)(?:!|\b)|` + "`")
})
