CREATE TABLE "app_api_requests" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"installation_id" text NOT NULL,
	"business_id" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"api_version" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_releases" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"version" integer NOT NULL,
	"config" jsonb NOT NULL,
	"diff" jsonb NOT NULL,
	"message" text,
	"status" text NOT NULL,
	"source" text DEFAULT 'api' NOT NULL,
	"restored_from" integer,
	"account_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoice_lines" ALTER COLUMN "transaction_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "clock_offset_seconds" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "app_api_requests_app_idx" ON "app_api_requests" USING btree ("app_id","seq");--> statement-breakpoint
CREATE INDEX "app_api_requests_at_idx" ON "app_api_requests" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "app_releases_app_version_key" ON "app_releases" USING btree ("app_id","version");