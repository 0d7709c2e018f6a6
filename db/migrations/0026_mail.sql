CREATE TABLE "account_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"account_id" text NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dev_mailbox" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"envelope_from" text DEFAULT '' NOT NULL,
	"envelope_to" text[] DEFAULT '{}'::text[] NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"from_header" text DEFAULT '' NOT NULL,
	"to_header" text DEFAULT '' NOT NULL,
	"message_id" text DEFAULT '' NOT NULL,
	"html" text,
	"text" text,
	"raw" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"cause_key" text NOT NULL,
	"business_id" text,
	"account_id" text,
	"to_address" text NOT NULL,
	"to_name" text DEFAULT '' NOT NULL,
	"message_id" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'QUEUED' NOT NULL,
	"subject" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "credentials_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "mail_off" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "shopper_mail_off" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_tokens_hash_key" ON "account_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "account_tokens_account_idx" ON "account_tokens" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "dev_mailbox_received_idx" ON "dev_mailbox" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_messages_cause_key" ON "mail_messages" USING btree ("cause_key");--> statement-breakpoint
CREATE INDEX "mail_messages_business_to_idx" ON "mail_messages" USING btree ("business_id","to_address");--> statement-breakpoint
CREATE INDEX "mail_messages_account_idx" ON "mail_messages" USING btree ("account_id");--> statement-breakpoint
-- accounts made before e-mail verification existed keep working as they did
UPDATE "accounts" SET "email_verified_at" = "created_at";--> statement-breakpoint
-- every message queues its sending job in the transaction (or the one statement) that writes it
CREATE FUNCTION mail_messages_queue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM graphile_worker.add_job('mail__send', json_build_object('id', NEW.id),
    job_key => 'mail:' || NEW.id, max_attempts => 25);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER mail_messages_queue AFTER INSERT ON "mail_messages"
  FOR EACH ROW WHEN (NEW.status = 'QUEUED') EXECUTE FUNCTION mail_messages_queue();
