CREATE TABLE "app_listeners" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"account_id" text NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "relay_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"kind" text NOT NULL,
	"path" text NOT NULL,
	"headers" jsonb NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"answer_status" integer,
	"answer_body" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "app_listeners_app_idx" ON "app_listeners" USING btree ("app_id","heartbeat_at");--> statement-breakpoint
CREATE INDEX "relay_calls_app_idx" ON "relay_calls" USING btree ("app_id","status");