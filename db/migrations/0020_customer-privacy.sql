CREATE TABLE "privacy_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"requested_by" text NOT NULL,
	"kind" text NOT NULL,
	"email_digest" text NOT NULL,
	"order_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"review_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"order_count" integer DEFAULT 0 NOT NULL,
	"review_count" integer DEFAULT 0 NOT NULL,
	"apps_notified" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "author_email" text;--> statement-breakpoint
ALTER TABLE "privacy_requests" ADD CONSTRAINT "privacy_requests_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_requests" ADD CONSTRAINT "privacy_requests_requested_by_accounts_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "privacy_requests_business_idx" ON "privacy_requests" USING btree ("business_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "privacy_requests_digest_idx" ON "privacy_requests" USING btree ("business_id","email_digest","kind");--> statement-breakpoint
CREATE INDEX "orders_customer_email_idx" ON "orders" USING btree ("business_id",lower(btrim(customer_email))) WHERE customer_email is not null;--> statement-breakpoint
CREATE INDEX "reviews_author_email_idx" ON "reviews" USING btree ("business_id",lower(btrim(author_email))) WHERE author_email is not null;--> statement-breakpoint
-- custom: customer-privacy
-- A customer.redact delivery carries the erased shopper's e-mail (contract 15) until it is over: once it
-- SUCCEEDED or FAILED, the stored body keeps the request id, order and review ids and loses the
-- address, so that after an erasure no table holds it (decision 040). A later redelivery sends the
-- body as it then stands.
CREATE FUNCTION privacy_forget_redacted_email() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  email text;
BEGIN
  email := NEW.body::jsonb #>> '{data,customerEmail}';
  IF email IS NOT NULL AND email <> '[erased]' THEN
    NEW.body := replace(NEW.body, to_json(email)::text, '"[erased]"');
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER webhook_deliveries_forget_redacted_email BEFORE UPDATE OF status ON webhook_deliveries
  FOR EACH ROW WHEN (NEW.event = 'customer.redact' AND NEW.status IN ('SUCCEEDED', 'FAILED'))
  EXECUTE FUNCTION privacy_forget_redacted_email();
