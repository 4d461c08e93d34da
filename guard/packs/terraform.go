package packs

import "github.com/swarm-guard/swarm-guard/policy"

// terraform: Terraform, OpenTofu, Terragrunt and Pulumi. Reading state and planning
// are safe; anything that destroys resources, applies without a human
// reviewing the plan, or edits state by hand is not.
var terraform = &Pack{
	Name:       "terraform",
	Programs:   []string{"terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf"},
	ValueFlags: []string{"-var", "-var-file", "-target", "-state", "-backup", "-lock-timeout", "-parallelism", "-out", "-s", "--stack", "-C", "--cwd"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveTerraform, Name: "terraform-destroy",
			Reason:  "destroys the infrastructure the configuration manages",
			Instead: "run terraform plan -destroy and show the plan to a human, who runs the destroy",
			Match: func(c Call) bool {
				return c.Sub("destroy") || c.Sub("run-all", "destroy") || c.Sub("destroy-all") ||
					(c.Sub("apply") || c.Sub("run-all", "apply")) && c.Has("-destroy", "--destroy")
			},
			Deny:  []string{"cdk destroy --force", "cdk destroy ApiStack", "cdktf destroy --auto-approve", "terraform destroy", "terraform destroy -auto-approve", "tofu destroy -target=aws_instance.web", "terraform apply -destroy", "terraform -chdir=infra destroy", "terragrunt run-all destroy", "pulumi destroy --yes", "pulumi -s prod destroy"},
			Allow: []string{"cdk diff", "cdk synth", "terraform plan -destroy -out destroy.tfplan", "terraform init", "terraform validate", "pulumi preview --diff", "pulumi stack ls"},
		},
		{
			ID: policy.RuleDestructiveTerraform, Name: "terraform-unreviewed-apply",
			Reason:  "applies changes to real infrastructure without a human reviewing the plan",
			Instead: "run terraform plan -out tf.plan and ask a human to review and apply it",
			Match: func(c Call) bool {
				if !c.Sub("apply") && !c.Sub("run-all", "apply") && !c.Sub("apply-all") {
					return false
				}
				// A saved plan file applies without asking, like -auto-approve.
				return c.Has("-auto-approve", "--auto-approve") || c.Sub("apply") && c.Pos(1) != "" || c.Sub("apply-all")
			},
			Deny:  []string{"terraform apply -auto-approve", "terraform apply tf.plan", "tofu apply -auto-approve -var env=prod", "terragrunt run-all apply -auto-approve"},
			Allow: []string{"terraform plan -out tf.plan", "terraform show tf.plan", "terraform fmt -check"},
		},
		{
			ID: policy.RuleDestructiveTerraform, Name: "pulumi-unreviewed-up",
			Reason:  "applies changes to real infrastructure without a human confirming the preview",
			Instead: "run pulumi preview and ask a human to run pulumi up",
			Match: func(c Call) bool {
				return c.Program == "pulumi" && (c.Sub("up") || c.Sub("update") || c.Sub("refresh")) &&
					c.Has("--yes", "-y", "--skip-preview", "-f")
			},
			Deny:  []string{"pulumi up --yes", "pulumi up -y -s prod", "pulumi update --skip-preview"},
			Allow: []string{"pulumi preview", "pulumi stack output", "pulumi config get region"},
		},
		{
			ID: policy.RuleDestructiveTerraform, Name: "terraform-state-edit",
			Reason:  "edits the Terraform state by hand: resources are forgotten or overwritten, and the next apply may recreate or destroy them",
			Instead: "read the state with terraform state list or terraform state show; ask a human to change it",
			Match: func(c Call) bool {
				return c.Sub("state", "rm") || c.Sub("state", "push") || c.Sub("state", "mv") || c.Sub("state", "replace-provider") ||
					c.Sub("force-unlock") || c.Sub("workspace", "delete") || c.Sub("taint") || c.Sub("import") ||
					c.Program == "pulumi" && (c.Sub("stack", "rm") || c.Sub("state", "delete") || c.Sub("state", "unprotect") || c.Sub("cancel"))
			},
			Deny:  []string{"terraform state rm aws_s3_bucket.logs", "terraform state push -force old.tfstate", "terraform force-unlock 1234", "terraform workspace delete prod", "terraform state mv a.b a.c", "pulumi stack rm dev --yes", "pulumi state delete 'urn:pulumi:dev::app::aws:s3/bucket:Bucket::logs'"},
			Allow: []string{"terraform state list", "terraform state show aws_s3_bucket.logs", "terraform workspace list", "terraform output -json", "pulumi stack history"},
		},
	},
}
