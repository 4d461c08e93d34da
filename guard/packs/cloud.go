package packs

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/policy"
)

// cloud: the AWS, Google Cloud and Azure CLIs, and hosting platforms'
// (Heroku, Fly.io, Vercel, Netlify, Firebase, Railway). Describing, listing and
// copying are safe; deleting, terminating and recursive removal are not.
var cloud = &Pack{
	Name:     "cloud",
	Programs: []string{"aws", "gcloud", "gsutil", "az", "heroku", "fly", "flyctl", "vercel", "netlify", "firebase", "railway"},
	ValueFlags: []string{"--region", "--profile", "--output", "--endpoint-url", "--query", "--project", "--format",
		"--subscription", "-g", "--resource-group", "--account", "--configuration", "-o"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveCloud, Name: "aws-delete",
			Reason:  "deletes or terminates cloud resources, or removes objects recursively",
			Instead: "read with the describe-, list- and get- commands; ask a human to delete cloud resources",
			Match: func(c Call) bool {
				if c.Program != "aws" {
					return false
				}
				if c.Sub("s3", "rm") && c.Has("--recursive") || c.Sub("s3", "rb") || c.Sub("s3", "sync") && c.Has("--delete") {
					return true
				}
				op := strings.ToLower(c.Pos(1))
				switch svc := strings.ToLower(c.Pos(0)); {
				case svc == "secretsmanager" && (op == "put-secret-value" || op == "update-secret" || op == "rotate-secret" || op == "remove-regions-from-replication"):
					return true // overwrites the secret other services read
				case (svc == "sns" || svc == "sqs") && (op == "unsubscribe" || op == "remove-permission"):
					return true
				case svc == "cloudfront" && op == "create-invalidation":
					return c.AnyPos(1, func(w string) bool { return w == "/*" || w == "*" }) || cloudfrontAll(c)
				case svc == "route53" && op == "change-resource-record-sets":
					return true // the batch may delete or repoint the domain's records
				}
				return strings.HasPrefix(op, "delete-") || strings.HasPrefix(op, "terminate-") || strings.HasPrefix(op, "purge-") ||
					strings.HasPrefix(op, "deregister-") || strings.HasPrefix(op, "batch-delete-") || op == "delete-bucket"
			},
			Deny: []string{"aws secretsmanager put-secret-value --secret-id prod/db --secret-string x",
				"aws sns unsubscribe --subscription-arn arn:aws:sns:eu-west-1:1:t:1", "aws sqs remove-permission --queue-url https://q.example/1/q --label l",
				"aws cloudfront create-invalidation --distribution-id E1 --paths '/*'",
				"aws route53 change-resource-record-sets --hosted-zone-id Z1 --change-batch file://delete.json",
				"aws s3 rm s3://bucket --recursive", "aws s3 rb s3://logs --force", "aws s3 sync ./site s3://www --delete",
				"aws ec2 terminate-instances --instance-ids i-0abc", "aws --region eu-west-1 rds delete-db-instance --db-instance-identifier prod",
				"aws dynamodb delete-table --table-name users", "aws cloudformation delete-stack --stack-name api",
				"aws ecr batch-delete-image --repository-name api --image-ids imageTag=v1"},
			Allow: []string{"aws s3 ls s3://bucket", "aws s3 cp build/app.zip s3://artifacts/", "aws s3 rm s3://bucket/tmp/one.txt",
				"aws ec2 describe-instances --region eu-west-1", "aws sts get-caller-identity", "aws s3 sync ./site s3://www",
				"aws secretsmanager get-secret-value --secret-id dev/db", "aws sns list-subscriptions",
				"aws cloudfront create-invalidation --distribution-id E1 --paths /index.html", "aws route53 list-resource-record-sets --hosted-zone-id Z1"},
		},
		{
			ID: policy.RuleDestructiveCloud, Name: "gcloud-delete",
			Reason:  "deletes Google Cloud resources, or removes storage objects recursively",
			Instead: "read with describe and list; ask a human to delete cloud resources",
			Match: func(c Call) bool {
				switch c.Program {
				case "gcloud":
					if c.Sub("storage", "rm") && c.Has("--recursive", "-r") || c.Sub("storage", "buckets", "delete") {
						return true
					}
					return c.AnyPos(0, func(w string) bool { return w == "delete" })
				case "gsutil":
					return c.Sub("rm") && c.Has("-r", "-R", "-a") || c.Sub("rb") || c.Sub("rsync") && c.Has("-d")
				}
				return false
			},
			Deny: []string{"gcloud compute instances delete web-1 --zone europe-west1-b", "gcloud projects delete my-proj",
				"gcloud sql instances delete prod-db", "gcloud storage rm --recursive gs://bucket", "gsutil rm -r gs://bucket/data",
				"gsutil -m rm -a gs://b/**", "gsutil rb gs://old"},
			Allow: []string{"gcloud compute instances list", "gcloud config list", "gsutil ls gs://bucket", "gsutil cp a.txt gs://b/a.txt",
				"gcloud sql instances describe prod-db"},
		},
		{
			ID: policy.RuleDestructiveCloud, Name: "az-delete",
			Reason:  "deletes Azure resources",
			Instead: "read with show and list; ask a human to delete cloud resources",
			Match: func(c Call) bool {
				return c.Program == "az" && c.AnyPos(0, func(w string) bool { return w == "delete" || w == "delete-batch" || w == "purge" || w == "untag" })
			},
			Deny:  []string{"az group delete -n rg-prod --yes", "az vm delete -g rg -n web", "az storage blob delete-batch -s logs", "az acr repository untag -n reg --image app:v1"},
			Allow: []string{"az group list", "az vm show -g rg -n web", "az account show"},
		},
		{
			ID: policy.RuleDestructiveCloud, Name: "platform-destroy",
			Reason:  "destroys an app, site, project or its database on a hosting platform, with its data and its address",
			Instead: "list and inspect (heroku apps, fly status, vercel ls); ask a human to delete apps",
			Match: func(c Call) bool {
				switch c.Program {
				case "heroku":
					sub := strings.ToLower(c.Pos(0))
					return sub == "apps:destroy" || sub == "destroy" || sub == "pg:reset" || sub == "addons:destroy" || sub == "pg:backups:delete"
				case "fly", "flyctl":
					return c.Sub("apps", "destroy") || c.Sub("destroy") || c.Sub("volumes", "destroy") || c.Sub("volumes", "delete") ||
						c.Sub("postgres", "destroy") || c.Sub("machine", "destroy") && c.Has("--force", "-f")
				case "vercel":
					return c.Sub("remove") || c.Sub("rm") || c.Sub("project", "rm") || c.Sub("project", "remove")
				case "netlify":
					return c.Sub("sites:delete")
				case "firebase":
					return c.Sub("firestore:delete") && c.Has("--all-collections", "-r", "--recursive") || c.Sub("database:remove") ||
						c.Sub("hosting:disable") || c.Sub("projects:delete")
				case "railway":
					return c.Sub("delete") || c.Sub("down")
				}
				return false
			},
			Deny: []string{"heroku apps:destroy myapp --confirm myapp", "heroku pg:reset DATABASE_URL --confirm myapp", "fly apps destroy myapp -y",
				"flyctl volumes destroy vol_123 -y", "vercel remove my-project --yes", "netlify sites:delete 1234 --force",
				"firebase firestore:delete --all-collections --force", "railway down -y"},
			Allow: []string{"heroku apps", "heroku logs --tail -a myapp", "fly status -a myapp", "fly deploy --build-only", "vercel ls", "netlify status",
				"firebase firestore:delete users/alice --force", "railway status"},
		},
	},
}

// cloudfrontAll reports whether aws cloudfront create-invalidation's
// --paths (or --invalidation-batch) invalidates everything: "/*" empties
// the whole distribution's cache, and every request then reaches the
// origin at once.
func cloudfrontAll(c Call) bool {
	v, _ := c.Value("--paths")
	if b, ok := c.Value("--invalidation-batch"); ok {
		v += " " + b
	}
	return strings.Contains(v, "/*\"") || strings.Contains(v, "\"/*") || strings.TrimSpace(v) == "/*" || strings.HasPrefix(strings.TrimSpace(v), "/* ")
}
