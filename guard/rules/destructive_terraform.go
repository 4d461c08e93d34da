package rules

import "github.com/swarm-guard/swarm-guard/policy"

// DestructiveTerraform: destroying infrastructure, applying without a
// reviewed plan, or editing state by hand. Which invocations do that, and
// what each should do instead, is the terraform pack's table
// (guard/packs/terraform.go: terraform, tofu, terragrunt, pulumi).
var DestructiveTerraform = Rule{
	ID:      policy.RuleDestructiveTerraform,
	Reason:  "destroying real infrastructure, applying changes no human reviewed, or editing state by hand cannot be undone by the agent",
	Instead: "run terraform plan -out tf.plan and ask a human to review and apply it",
	Deny:    []string{"terraform destroy -auto-approve", "tofu apply -auto-approve", "terraform state rm aws_s3_bucket.logs"},
	Allow:   []string{"terraform plan -out tf.plan", "terraform state list"},
	Judge:   judgePackOperation(policy.RuleDestructiveTerraform),
}
