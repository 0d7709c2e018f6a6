ALTER TABLE "platform_events" ADD COLUMN "fanned_out_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "platform_events_unfanned_idx" ON "platform_events" USING btree ("created_at") WHERE fanned_out_at is null;--> statement-breakpoint
UPDATE "platform_events" SET "fanned_out_at" = "created_at";
