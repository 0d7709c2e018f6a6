DROP INDEX "webhook_daily_stats_key";--> statement-breakpoint
ALTER TABLE "webhook_daily_stats" ADD COLUMN "shard" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_daily_stats_key" ON "webhook_daily_stats" USING btree ("app_id","day","shard");