package packs

import (
	"github.com/swarm-guard/swarm-guard/guard/internal/httpreq"
	"github.com/swarm-guard/swarm-guard/policy"
)

// email (vendor pack): SendGrid, Mailgun and Postmark's APIs (Amazon
// SES's aws ses delete-* is the cloud pack's). Sending mail and reading
// stats are safe; deleting templates, domains, senders, API keys,
// webhooks, mailing lists and suppression entries breaks every
// application that sends through the account, and a removed suppression
// mails people who bounced or unsubscribed.
var email = &Pack{
	Name:     "email",
	Vendor:   true,
	Programs: []string{"mailgun", "postmark"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveService, Name: "email-api-delete",
			Reason:  "deletes an e-mail provider's templates, domains, senders, API keys, webhooks, lists or suppression entries",
			Instead: "read with GET requests (curl https://api.sendgrid.com/v3/templates); ask a human to delete",
			HTTP: func(r httpreq.Request) bool {
				if deleteTo("api.sendgrid.com", "api.mailgun.net", "api.eu.mailgun.net", "api.postmarkapp.com")(r) {
					return true
				}
				// Postmark deletes suppressions with a POST.
				return r.May("POST") && anyURL(r, func(u httpreq.URL) bool {
					return u.HostIs("api.postmarkapp.com") && lastSegment(u) == "delete"
				})
			},
			Deny: []string{"curl -X DELETE https://api.sendgrid.com/v3/templates/d-abc123", "curl --request DELETE https://api.sendgrid.com/v3/api_keys/abc123",
				"curl -X DELETE https://api.sendgrid.com/v3/whitelabel/domains/12345", "curl -X DELETE https://api.sendgrid.com/v3/suppression/bounces/a@example.com",
				"curl -X DELETE https://api.mailgun.net/v3/domains/example.com", "curl -X DELETE https://api.mailgun.net/v3/lists/news@example.com",
				"curl -X DELETE https://api.mailgun.net/v3/example.com/bounces/a@example.com", "curl https://api.postmarkapp.com/servers/12345 -X DELETE",
				"curl -X DELETE https://api.postmarkapp.com/templates/welcome", "curl -X POST https://api.postmarkapp.com/message-streams/outbound/suppressions/delete -d '{}'"},
			Allow: []string{"curl https://api.sendgrid.com/v3/templates", "curl -X POST https://api.sendgrid.com/v3/mail/send -d '{}'",
				"curl https://api.mailgun.net/v3/domains/example.com", "curl -X POST https://api.mailgun.net/v3/example.com/messages -d 'to=a@example.com'",
				"curl https://api.postmarkapp.com/servers/12345", "curl -X POST https://api.postmarkapp.com/email/batch -d '[]'"},
		},
	},
}
