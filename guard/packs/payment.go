package packs

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/internal/httpreq"
	"github.com/swarm-guard/swarm-guard/policy"
)

// payment (vendor pack): Stripe, Braintree and Square. Listing, reading
// and creating test objects are safe; deleting customers, products,
// prices, webhook endpoints and catalog objects, cancelling
// subscriptions, voiding invoices and rolling API keys break a shop that
// is taking money.
var payment = &Pack{
	Name:       "payment",
	Vendor:     true,
	Programs:   []string{"stripe", "square"},
	ValueFlags: []string{"--api-key", "--project-name", "-p", "--color", "--config", "--device-name", "--log-level", "-d", "--data", "-c"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveService, Name: "payment-cli-delete",
			Reason:  "deletes payment objects (customers, products, prices, coupons, webhook endpoints, catalog items), cancels subscriptions or rolls API keys",
			Instead: "read with list and retrieve (stripe customers list, stripe customers retrieve cus_123, square catalog list); ask a human to delete or cancel",
			Match: func(c Call) bool {
				switch c.Program {
				case "stripe":
					switch {
					case c.Sub("delete"): // stripe delete /v1/customers/cus_123
						return true
					case posIn(c, 0, "api_keys", "api-keys") && posIn(c, 1, "roll"):
						return true
					}
					verb := strings.ToLower(c.Pos(1))
					return deleteVerb(verb) || verb == "cancel" || verb == "void" || verb == "mark_uncollectible"
				case "square":
					return deleteVerb(c.Pos(1))
				}
				return false
			},
			Deny: []string{"stripe customers delete cus_123", "stripe webhook_endpoints delete we_123", "stripe products delete prod_123",
				"stripe prices delete price_123", "stripe coupons delete coupon_123", "stripe api_keys roll", "stripe delete /v1/customers/cus_123",
				"stripe subscriptions cancel sub_123", "square catalog delete obj_123"},
			Allow: []string{"stripe listen --forward-to localhost:4242/webhook", "stripe customers list", "stripe customers retrieve cus_123",
				"stripe products list", "stripe payments list", "stripe logs tail", "stripe customers create --email a@example.com",
				"square catalog list", "square customers list"},
		},
		{
			ID: policy.RuleDestructiveService, Name: "payment-api-delete",
			Reason:  "sends a DELETE (or a cancel, void or batch delete) to a payment provider's API",
			Instead: "read with GET requests (curl https://api.stripe.com/v1/customers); ask a human to delete or cancel",
			HTTP: func(r httpreq.Request) bool {
				if deleteTo("api.stripe.com", "*.braintreegateway.com", "api.squareup.com", "connect.squareup.com", "*.squareupsandbox.com",
					"payments.braintree-api.com", "payments.sandbox.braintree-api.com")(r) {
					return true
				}
				if !r.May("POST") {
					return false
				}
				return anyURL(r, func(u httpreq.URL) bool {
					last := lastSegment(u)
					switch {
					case u.HostIs("api.stripe.com"):
						return last == "cancel" || last == "void" || last == "mark_uncollectible"
					case u.HostIs("api.squareup.com", "connect.squareup.com", "*.squareupsandbox.com"):
						return last == "batch-delete" || last == "bulk-delete" || last == "cancel"
					case u.HostIs("payments.braintree-api.com", "payments.sandbox.braintree-api.com"):
						// GraphQL: the mutation in the body says what it does.
						return r.BodyHas("delete", "cancelSubscription", "revoke")
					}
					return false
				})
			},
			Deny: []string{"curl -X DELETE https://api.stripe.com/v1/customers/cus_123", "curl -X DELETE https://api.braintreegateway.com/merchants/abc/customers/cust_123",
				"curl -X DELETE https://api.squareup.com/v2/catalog/object/obj_123", "curl -X DELETE https://api.squareup.com/v2/customers/cus_123",
				"curl -X DELETE https://api.squareup.com/v2/locations/loc_123", "curl -X DELETE https://api.squareup.com/v2/webhooks/subscriptions/sub_123",
				"curl -X POST https://api.stripe.com/v1/invoices/in_123/void",
				"http DELETE api.stripe.com/v1/products/prod_123", "xh delete https://api.stripe.com/v1/webhook_endpoints/we_1",
				"curl https://payments.braintree-api.com/graphql -d '{\"query\":\"mutation { deletePaymentMethodFromVault(input: {paymentMethodId: \\\"x\\\"}) { clientMutationId } }\"}'"},
			Allow: []string{"curl https://api.stripe.com/v1/customers", "curl -X GET https://api.stripe.com/v1/customers",
				"curl -X GET https://api.braintreegateway.com/merchants/abc/customers/cust_123", "curl -X GET https://api.squareup.com/v2/locations",
				"curl https://api.stripe.com/v1/customers -d email=a@example.com",
				"curl https://payments.braintree-api.com/graphql -d '{\"query\":\"query { ping }\"}'", "http api.stripe.com/v1/charges limit==3"},
		},
	},
}
