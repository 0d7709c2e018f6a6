DROP INDEX "orders_business_created_idx";--> statement-breakpoint
DROP INDEX "orders_business_status_idx";--> statement-breakpoint
DROP INDEX "products_business_created_idx";--> statement-breakpoint
DROP INDEX "reviews_business_created_idx";--> statement-breakpoint
DROP INDEX "app_versions_app_idx";--> statement-breakpoint
DROP INDEX "apps_developer_idx";--> statement-breakpoint
DROP INDEX "hook_calls_app_idx";--> statement-breakpoint
DROP INDEX "platform_events_business_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_webhook_idx";--> statement-breakpoint
DROP INDEX "webhooks_installation_idx";--> statement-breakpoint
CREATE INDEX "orders_business_created_idx" ON "orders" USING btree ("business_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "orders_business_status_idx" ON "orders" USING btree ("business_id","status","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "products_business_created_idx" ON "products" USING btree ("business_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "reviews_business_created_idx" ON "reviews" USING btree ("business_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "app_versions_app_idx" ON "app_versions" USING btree ("app_id","approved_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "apps_developer_idx" ON "apps" USING btree ("developer_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "hook_calls_app_idx" ON "hook_calls" USING btree ("app_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "platform_events_business_idx" ON "platform_events" USING btree ("business_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_idx" ON "webhook_deliveries" USING btree ("webhook_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "webhooks_installation_idx" ON "webhooks" USING btree ("installation_id","created_at" DESC NULLS FIRST);