CREATE TABLE "app_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"installation_id" text NOT NULL,
	"app_id" text NOT NULL,
	"business_id" text NOT NULL,
	"kind" text NOT NULL,
	"plan_id" text,
	"plan" jsonb NOT NULL,
	"test" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"return_url" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"activated_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"ended_by" text,
	"trial_ends_at" timestamp with time zone,
	"current_period_start" timestamp with time zone,
	"current_period_end" timestamp with time zone,
	"usage_balance" bigint DEFAULT 0 NOT NULL,
	"usage_cap" bigint,
	"cap_warned_for" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"id" text PRIMARY KEY NOT NULL,
	"invoice_id" text NOT NULL,
	"key" text NOT NULL,
	"business_id" text NOT NULL,
	"app_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"kind" text NOT NULL,
	"description" text NOT NULL,
	"period_start" timestamp with time zone,
	"period_end" timestamp with time zone,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"transaction_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"month" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"transaction_id" text NOT NULL,
	"account" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"app_id" text NOT NULL,
	"business_id" text NOT NULL,
	"month" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"month" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_records" (
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"business_id" text NOT NULL,
	"description" text NOT NULL,
	"amount" bigint NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "pricing" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "approved_pricing" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_subscription_id_app_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."app_subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_subscriptions_installation_idx" ON "app_subscriptions" USING btree ("installation_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "app_subscriptions_business_idx" ON "app_subscriptions" USING btree ("business_id","status");--> statement-breakpoint
CREATE INDEX "app_subscriptions_app_idx" ON "app_subscriptions" USING btree ("app_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "app_subscriptions_one_active_key" ON "app_subscriptions" USING btree ("installation_id") WHERE status = 'ACTIVE' and kind = 'RECURRING';--> statement-breakpoint
CREATE INDEX "app_subscriptions_due_idx" ON "app_subscriptions" USING btree ("current_period_end") WHERE closed_at is null and activated_at is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_lines_key" ON "invoice_lines" USING btree ("key");--> statement-breakpoint
CREATE INDEX "invoice_lines_invoice_idx" ON "invoice_lines" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "invoice_lines_app_idx" ON "invoice_lines" USING btree ("app_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_business_month_key" ON "invoices" USING btree ("business_id","month");--> statement-breakpoint
CREATE INDEX "ledger_entries_tx_idx" ON "ledger_entries" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_app_month_idx" ON "ledger_entries" USING btree ("app_id","month");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("account","month");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_key" ON "ledger_transactions" USING btree ("key");--> statement-breakpoint
CREATE INDEX "usage_records_period_idx" ON "usage_records" USING btree ("subscription_id","period_start");--> statement-breakpoint
CREATE UNIQUE INDEX "usage_records_idempotency_key" ON "usage_records" USING btree ("subscription_id","idempotency_key") WHERE idempotency_key is not null;--> statement-breakpoint
-- custom: billing
-- every ledger transaction balances per currency, checked at commit (a deferred constraint trigger)
CREATE FUNCTION ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM ledger_entries WHERE transaction_id = NEW.transaction_id
             GROUP BY currency HAVING sum(amount) <> 0) THEN
    RAISE EXCEPTION 'ledger transaction % does not balance', NEW.transaction_id USING ERRCODE = '23514';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_balanced();
--> statement-breakpoint
-- the ledger is append-only
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger rows are never changed or removed' USING ERRCODE = '23514';
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON ledger_transactions
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
