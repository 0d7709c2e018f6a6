CREATE TABLE "app_reviews" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"business_id" text NOT NULL,
	"installation_id" text NOT NULL,
	"rating" integer NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"reply_body" text,
	"replied_at" timestamp with time zone,
	"hidden_at" timestamp with time zone,
	"hidden_reason" text,
	"hidden_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "developer_notifications" (
	"id" text PRIMARY KEY NOT NULL,
	"developer_id" text NOT NULL,
	"app_id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "app_versions" ADD COLUMN "release_notes" text;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "release_notes" text;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "rating_sum" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "rating_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "rating_avg" numeric(3, 2);--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "active_installs" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "staff_picked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "installations" ADD COLUMN "review_prompt_dismissed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "app_reviews" ADD CONSTRAINT "app_reviews_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_reviews" ADD CONSTRAINT "app_reviews_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_reviews" ADD CONSTRAINT "app_reviews_installation_id_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."installations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_reviews" ADD CONSTRAINT "app_reviews_hidden_by_accounts_id_fk" FOREIGN KEY ("hidden_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "developer_notifications" ADD CONSTRAINT "developer_notifications_developer_id_accounts_id_fk" FOREIGN KEY ("developer_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "developer_notifications" ADD CONSTRAINT "developer_notifications_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_reviews_key" ON "app_reviews" USING btree ("app_id","business_id");--> statement-breakpoint
CREATE INDEX "app_reviews_app_idx" ON "app_reviews" USING btree ("app_id","created_at" DESC NULLS LAST,"id") WHERE hidden_at is null;--> statement-breakpoint
CREATE INDEX "app_reviews_app_rating_idx" ON "app_reviews" USING btree ("app_id","rating","created_at" DESC NULLS LAST,"id") WHERE hidden_at is null;--> statement-breakpoint
CREATE INDEX "developer_notifications_dev_idx" ON "developer_notifications" USING btree ("developer_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "apps_market_rating_idx" ON "apps" USING btree ("category","rating_avg" DESC NULLS LAST,"rating_count" DESC NULLS LAST,"id") WHERE status = 'APPROVED';--> statement-breakpoint
CREATE INDEX "apps_market_popular_idx" ON "apps" USING btree ("category","active_installs" DESC NULLS LAST,"id") WHERE status = 'APPROVED';--> statement-breakpoint
CREATE INDEX "apps_market_newest_idx" ON "apps" USING btree ("category","published_at" DESC NULLS LAST,"id") WHERE status = 'APPROVED';--> statement-breakpoint
CREATE INDEX "apps_market_all_rating_idx" ON "apps" USING btree ("rating_avg" DESC NULLS LAST,"rating_count" DESC NULLS LAST,"id") WHERE status = 'APPROVED';--> statement-breakpoint
CREATE INDEX "apps_market_all_popular_idx" ON "apps" USING btree ("active_installs" DESC NULLS LAST,"id") WHERE status = 'APPROVED';--> statement-breakpoint
CREATE INDEX "apps_staff_picks_idx" ON "apps" USING btree ("staff_picked_at" DESC NULLS LAST) WHERE staff_picked_at is not null;--> statement-breakpoint
ALTER TABLE "app_reviews" ADD CONSTRAINT "app_reviews_rating_check" CHECK ("rating" BETWEEN 1 AND 5);--> statement-breakpoint
ALTER TABLE "app_reviews" ADD CONSTRAINT "app_reviews_body_check" CHECK (char_length("body") <= 2000);--> statement-breakpoint
-- Marketplace figures kept in the same transaction as the change that moves them (decision 022).
CREATE OR REPLACE FUNCTION app_reviews_aggregate() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ds bigint := 0;
  dc integer := 0;
  target text;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.hidden_at IS NULL THEN ds := ds - OLD.rating; dc := dc - 1; END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.hidden_at IS NULL THEN ds := ds + NEW.rating; dc := dc + 1; END IF;
  target := CASE WHEN TG_OP = 'DELETE' THEN OLD.app_id ELSE NEW.app_id END;
  IF ds <> 0 OR dc <> 0 THEN
    UPDATE apps SET rating_sum = rating_sum + ds, rating_count = rating_count + dc,
      rating_avg = CASE WHEN rating_count + dc > 0 THEN round((rating_sum + ds)::numeric / (rating_count + dc), 2) END
    WHERE id = target;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER app_reviews_aggregate AFTER INSERT OR DELETE OR UPDATE OF rating, hidden_at ON app_reviews
  FOR EACH ROW EXECUTE FUNCTION app_reviews_aggregate();--> statement-breakpoint
CREATE OR REPLACE FUNCTION installations_aggregate() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d integer := 0;
  target text;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'ACTIVE' AND NOT OLD.is_test_install THEN d := d - 1; END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'ACTIVE' AND NOT NEW.is_test_install THEN d := d + 1; END IF;
  target := CASE WHEN TG_OP = 'DELETE' THEN OLD.app_id ELSE NEW.app_id END;
  IF d <> 0 THEN UPDATE apps SET active_installs = active_installs + d WHERE id = target; END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER installations_aggregate AFTER INSERT OR DELETE OR UPDATE OF status, is_test_install ON installations
  FOR EACH ROW EXECUTE FUNCTION installations_aggregate();--> statement-breakpoint
UPDATE apps SET active_installs = (SELECT count(*) FROM installations i WHERE i.app_id = apps.id AND i.status = 'ACTIVE' AND NOT i.is_test_install);
