package packs

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/internal/httpreq"
	"github.com/swarm-guard/swarm-guard/policy"
)

// messaging (vendor pack): what the brokers tool pack leaves to a team's
// choice. The brokers pack already denies deleting topics, queues, vhosts
// and streams; this pack adds Kafka ACL removal and config deletion,
// RabbitMQ cluster and policy changes, and the HTTP management APIs
// (RabbitMQ's on port 15672, Kafka REST proxies, Confluent Cloud).
var messaging = &Pack{
	Name:     "messaging",
	Vendor:   true,
	Programs: []string{"kafka-acls", "kafka-acls.sh", "kafka-configs", "kafka-configs.sh", "rabbitmqctl", "confluent"},
	ValueFlags: []string{"--bootstrap-server", "--topic", "--group", "--command-config", "--entity-type", "--entity-name", "--add-config",
		"--delete-config", "--operation", "--allow-principal", "--deny-principal", "-n", "--node", "-p", "--vhost", "--environment", "--cluster"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveService, Name: "broker-admin-change",
			Reason:  "removes access control lists or topic settings, or takes a broker node out of its cluster, breaking producers and consumers",
			Instead: "list and describe (kafka-acls --list --bootstrap-server b:9092, kafka-configs --describe --entity-type topics --entity-name logs --bootstrap-server b:9092, rabbitmqctl cluster_status); ask a human to change brokers",
			Match: func(c Call) bool {
				switch strings.TrimSuffix(c.Program, ".sh") {
				case "kafka-acls":
					return c.Has("--remove")
				case "kafka-configs":
					return c.Has("--alter") && c.Has("--delete-config")
				case "rabbitmqctl":
					return posIn(c, 0, "forget_cluster_node", "stop_app", "clear_policy", "clear_operator_policy", "delete_shovel",
						"clear_parameter", "clear_global_parameter", "close_all_connections", "delete_federation_upstream")
				case "confluent":
					return c.Sub("kafka", "topic") && deleteVerb(c.Pos(2)) || c.Sub("kafka", "cluster") && deleteVerb(c.Pos(2)) ||
						c.Sub("environment") && deleteVerb(c.Pos(1))
				}
				return false
			},
			Deny: []string{"kafka-acls --bootstrap-server localhost:9092 --remove --topic payments --operation All",
				"kafka-configs --bootstrap-server localhost:9092 --alter --delete-config retention.ms --entity-type topics --entity-name logs",
				"rabbitmqctl forget_cluster_node rabbit@node2", "rabbitmqctl clear_policy ha-all", "confluent kafka topic delete orders --cluster lkc-1"},
			Allow: []string{"kafka-acls --list --bootstrap-server b:9092", "kafka-configs --describe --entity-type topics --entity-name logs --bootstrap-server b:9092",
				"kafka-configs --bootstrap-server b:9092 --alter --add-config retention.ms=86400000 --entity-type topics --entity-name logs",
				"rabbitmqctl cluster_status", "rabbitmqctl list_policies", "confluent kafka topic list --cluster lkc-1"},
		},
		{
			ID: policy.RuleDestructiveService, Name: "broker-api-delete",
			Reason:  "sends a DELETE to a broker's management API: queues, exchanges, vhosts, users, topics or consumer groups",
			Instead: "read with GET requests (curl -u guest:$RABBITMQ_PASS http://localhost:15672/api/queues); ask a human to delete",
			HTTP: func(r httpreq.Request) bool {
				return r.May("DELETE") && anyURL(r, func(u httpreq.URL) bool {
					s := u.Segments()
					switch {
					case u.Port == "15672" || strings.Contains(u.Host, "rabbitmq") || u.HostIs("*.cloudamqp.com"):
						return len(s) > 0 && s[0] == "api" // the management API
					case u.Port == "8082" || u.HostIs("*.confluent.cloud"):
						return hasSegment(u, "topics", "consumers", "acls", "clusters")
					}
					return false
				})
			},
			Deny: []string{"curl -u guest:$RABBITMQ_PASS -X DELETE http://localhost:15672/api/queues/%2F/orders",
				"curl -X DELETE http://rabbitmq.internal:15672/api/vhosts/prod", "curl -X DELETE http://localhost:8082/topics/orders",
				"curl -X DELETE https://pkc-123.us-east-1.aws.confluent.cloud/kafka/v3/clusters/lkc-1/topics/orders"},
			Allow: []string{"curl -u guest:$RABBITMQ_PASS http://localhost:15672/api/queues", "curl http://localhost:8082/topics",
				"curl -X POST http://localhost:8082/topics/orders -H 'Content-Type: application/vnd.kafka.json.v2+json' -d '{\"records\":[]}'"},
		},
	},
}
