package packs

import (
	"github.com/swarm-guard/swarm-guard/policy"
)

// datastores: the command-line clients of key-value and time-series
// stores, and MongoDB's restore tool. (SQL clients, redis-cli and mongosh are judged by the SQL rule,
// destructive-sql, which reads the statements they send.)
var datastores = &Pack{
	Name:       "datastores",
	Programs:   []string{"etcdctl", "influx", "consul", "mongorestore"},
	ValueFlags: []string{"--endpoints", "--host", "-t", "--token", "-o", "--org", "--http-addr", "--cacert", "--cert", "--key", "-b", "--bucket"},
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
	},
}
