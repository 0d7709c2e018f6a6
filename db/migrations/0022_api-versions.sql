CREATE TABLE "api_version_usage" (
	"app_id" text NOT NULL,
	"day" date NOT NULL,
	"api_version" text NOT NULL,
	"operation" text NOT NULL,
	"calls" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "api_version_usage_app_id_day_api_version_operation_pk" PRIMARY KEY("app_id","day","api_version","operation")
);
--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "api_version" text DEFAULT '2026-11-21' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "api_version" text DEFAULT '2026-11-21' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_version_usage" ADD CONSTRAINT "api_version_usage_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_version_usage_version_day_idx" ON "api_version_usage" USING btree ("api_version","day");