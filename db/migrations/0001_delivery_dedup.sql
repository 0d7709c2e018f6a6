DROP INDEX "webhook_deliveries_event_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_webhook_key" ON "webhook_deliveries" USING btree ("event_id","webhook_id");